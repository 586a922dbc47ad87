// Prepends create-plugin's dynamic public path to src/module.ts: chunks and images load from
// where Grafana (or the test host page) served module.js, read from the AMD `module` dependency.
module.exports = function publicPathLoader(source) {
  return `import amdMetaModule from 'amd-module';
__webpack_public_path__ = amdMetaModule && amdMetaModule.uri
  ? amdMetaModule.uri.slice(0, amdMetaModule.uri.lastIndexOf('/') + 1)
  : 'public/plugins/hotpath-overlay-panel/';
${source}`;
};
