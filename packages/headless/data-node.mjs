// The profile core (packages/profile-core: pprof import, tree, flamebearer, frames) for Node, as
// its ESM build: the snapshot CLI, the sandbox and hotpath-notify convert pprof with the same
// code the panel and the browser tests use (pprof -> tree -> flamebearer -> nested-set frame,
// the path Grafana's Pyroscope datasource takes). Installing at the root builds it (the root's
// prepare script); a checkout installed without scripts says which command builds it.
const BUILD = 'npm run build -w @hotpath/profile-core';

let loaded;

/** The core as a module: { pprofToTree, treeToFlamebearer, flamebearerToFrame, ... }. */
export async function dataLayer() {
  if (!loaded) {
    loaded = import('@hotpath/profile-core').catch((e) => {
      loaded = undefined;
      throw e.code === 'ERR_MODULE_NOT_FOUND' && /profile-core/.test(e.message) ? new Error(`the profile core is not built: run \`${BUILD}\` (the root's install builds it)`) : e;
    });
  }
  return loaded;
}
