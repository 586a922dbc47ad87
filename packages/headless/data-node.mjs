// The plugin's pure data layer (plugin/src/data: pprof import, tree, flamebearer, frames) for
// Node, bundled once with esbuild: the sandbox converts profile-store's pprof with the same
// code the panel and the browser tests use (pprof -> tree -> flamebearer -> nested-set frame,
// the path Grafana's Pyroscope datasource takes).
import { mkdirSync, statSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { CACHE_DIR, PLUGIN_DIR, requirePlugin } from './env.mjs';

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let loaded;

/** The data layer as a module: { pprofToTree, treeToFlamebearer, flamebearerToFrame, ... }. */
export async function dataLayer() {
  if (loaded) {
    return loaded;
  }
  const src = join(PLUGIN_DIR, 'src', 'data');
  const out = join(CACHE_DIR, 'data-node.mjs');
  if (!existsSync(out) || statSync(out).mtimeMs < newestSource(src)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    await requirePlugin('esbuild').build({
      entryPoints: [join(src, 'index.ts')],
      bundle: true,
      outfile: out,
      format: 'esm',
      platform: 'node',
      target: 'node18',
      nodePaths: [join(PLUGIN_DIR, 'node_modules')],
      logLevel: 'error',
      legalComments: 'none',
    });
  }
  loaded = await import(pathToFileURL(out).href);
  return loaded;
}
