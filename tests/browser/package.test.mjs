// The packaged zip, checked for what plugin-validator reported on it (its Go release cannot be
// built here: the module proxy refuses github.com/grafana/plugin-validator, see plugin/README.md).
// Not the validator: the checks of its errors and warnings seen on this plugin, so they stay fixed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { PLUGIN_DIR, requirePlugin } from '@hotpath/headless/env.mjs';

const { unzipSync, strFromU8 } = requirePlugin('fflate');
const { version } = JSON.parse(readFileSync(join(PLUGIN_DIR, 'package.json'), 'utf8'));
const ID = 'hotpath-overlay-panel';
const files = unzipSync(readFileSync(join(PLUGIN_DIR, `${ID}-${version}.zip`)));
const text = (name) => strFromU8(files[`${ID}/${name}`]);

describe(`${ID}-${version}.zip`, () => {
  it('one folder named after the plugin id, with module.js, its source map, plugin.json, README and CHANGELOG', () => {
    const names = Object.keys(files);
    assert.deepEqual(names.filter((n) => !n.startsWith(`${ID}/`)), []);
    for (const f of ['module.js', 'module.js.map', 'plugin.json', 'README.md', 'CHANGELOG.md']) {
      assert.ok(files[`${ID}/${f}`], `${f} in the zip`);
    }
    assert.equal(JSON.parse(text('module.js.map')).file, 'module.js');
  });

  it('plugin.json: id, type, version, date and grafanaDependency filled in; logos and screenshots shipped', () => {
    const p = JSON.parse(text('plugin.json'));
    assert.equal(p.id, ID);
    assert.equal(p.type, 'panel');
    assert.equal(p.info.version, version);
    assert.match(p.info.updated, /^\d{4}-\d\d-\d\d$/);
    assert.equal(p.buildMode, 'production');
    assert.equal(p.dependencies.grafanaDependency, '>=11.3.0');
    for (const path of [p.info.logos.small, p.info.logos.large, ...p.info.screenshots.map((s) => s.path)]) {
      assert.ok(files[`${ID}/${path}`], `${path} in the zip`);
    }
  });

  it('README: no relative image links (the catalogue cannot resolve them), no template placeholders', () => {
    const readme = text('README.md');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)].map((m) => m[1]);
    assert.deepEqual(images.filter((u) => !/^https:\/\//.test(u)), []);
    assert.doesNotMatch(readme, /%(VERSION|TODAY|PLUGIN_ID)%/);
  });

  it('module.js: an AMD module that imports no react/jsx-runtime, with the create-plugin banner', () => {
    const js = text('module.js');
    const head = js.slice(0, js.indexOf('define('));
    assert.match(head, /^\/\* \[create-plugin\] version: \d+\.\d+\.\d+ \*\/$/m, `the create-plugin banner before define(...), not: ${head.slice(0, 200)}`);
    const deps = JSON.parse(/define\((\[[^\]]*\])/.exec(js)[1]);
    assert.ok(!deps.includes('react/jsx-runtime') && !deps.includes('react/jsx-dev-runtime'), deps.join(', '));
  });

  it('module.js is the panel only: no pprof decoder or gzip (the tests\' data bundle stays out of the zip)', () => {
    const js = text('module.js');
    // pprofToTree is kept by name (keep_fnames), gunzipSync is fflate's: both live in hotpath-data.js
    for (const name of ['pprofToTree', 'gunzipSync']) {
      assert.ok(!js.includes(name), `${name} in module.js`);
    }
    assert.deepEqual(Object.keys(files).filter((n) => n.includes('hotpath-data')), []);
    // the measured size: 118,849 bytes. It was 97,227 when the data layer moved out, and grew to
    // 125,448 with the panel's features (the call tree 8 KB, the frame's checks as tables 2.4 KB,
    // attribution 3 KB, Pyroscope's truncated answers and their exact tables 2.9 KB, a window's
    // request count 1.3 KB, the components split into hooks and children); the build took back
    // 7.5 KB (JSX's factory and React's and emotion's functions as local bindings, src/bindings.ts;
    // class fields assigned in the constructor), to 117,940. Each runtime's own frames (attribution
    // 3.2 KB), the endpoint picker and the windows narrowed to one endpoint (5.4 KB: the core's
    // split 1.4, the picker 1.3, its hook 1.1, its request 0.6, its options 1.1) brought it to
    // 127,924; @grafana/ui's and @grafana/data's functions as local bindings (0.75 KB), function
    // expressions as arrows (0.6 KB), the views' shared style pieces (components/styles.ts, 1.3 KB),
    // one query picker for the six query options (0.6 KB) and the plumbing patterns without their
    // runtime's name (0.35 KB) took back 3.7 KB, to 124,257. The call tree as a chunk of its own
    // (call-tree.js, loaded when its pane is first shown) took out 7.6 KB and added webpack's chunk
    // loading (1.7 KB) and the profile core's modules it shares as modules of their own (0.4 KB).
    // The budget: under 120 KB (the pprof decoder alone would add tens of KB), in bytes.
    const size = files[`${ID}/module.js`].length;
    assert.ok(size < 120_000, `module.js is ${size} bytes`);
  });

  it("the call tree's chunk: next to module.js with its source map, by the name module.js loads it by", () => {
    const js = text('module.js');
    assert.match(js, /"call-tree\.js\?_cache=\w+"/, 'module.js loads call-tree.js');
    const chunk = text('call-tree.js');
    assert.match(chunk, /^"use strict";\(self\.webpackChunkhotpath_overlay_panel=/, 'a chunk of this plugin (its own global)');
    assert.match(chunk, /\/\/# sourceMappingURL=call-tree\.js\.map\b/);
    assert.deepEqual(JSON.parse(text('call-tree.js.map')).sources.filter((s) => s.includes('components/CallTree/CallTree.tsx')).length, 1);
    // the chunk holds the call tree (its role, a treegrid); module.js does not
    assert.ok(chunk.includes('"treegrid"') && !js.includes('treegrid'));
  });

  it("module.js holds none of the profile core's test aids; hotpath-data.js, the browser tests' bundle, does", () => {
    // texts of their bodies that minifying keeps: generateTree's package names, fromAscii's error
    const aids = ['github.com/golang/protobuf/proto', 'is not "name total [| right]"'];
    const js = text('module.js');
    assert.deepEqual(aids.filter((t) => js.includes(t)), []);
    const data = readFileSync(join(PLUGIN_DIR, 'dist', 'hotpath-data.js'), 'utf8');
    assert.deepEqual(aids.filter((t) => !data.includes(t)), []);
  });
});
