// Bundles the host page (and the benchmark page) with esbuild from the real npm packages.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { BROWSER_DIR, CACHE_DIR, DIST_DIR, PLUGIN_DIR, requirePlugin } from './env.mjs';

const esbuild = requirePlugin('esbuild');

export async function buildHost(entry = 'host') {
  if (!existsSync(join(DIST_DIR, 'module.js'))) {
    throw new Error('plugin/dist/module.js is missing: run `make plugin` (or `npm run build` in plugin/) first');
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const out = join(CACHE_DIR, `${entry}.js`);
  const src = join(BROWSER_DIR, 'host', `${entry}.tsx`);
  // the host bundle is reused while its sources and the lockfile are older; the bench bundle
  // also compiles plugin/src/data (the generator), so it is always rebuilt (esbuild: ~2 s)
  if (entry === 'host' && existsSync(out) && statSync(out).mtimeMs > Math.max(statSync(src).mtimeMs, statSync(join(BROWSER_DIR, 'host', 'host.tsx')).mtimeMs, statSync(join(PLUGIN_DIR, 'package-lock.json')).mtimeMs)) {
    return out;
  }
  await esbuild.build({
    entryPoints: [src],
    bundle: true,
    outfile: out,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    nodePaths: [join(PLUGIN_DIR, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"', global: 'window' },
    logLevel: 'error',
    legalComments: 'none',
    loader: { '.ttf': 'empty', '.woff': 'empty', '.woff2': 'empty', '.eot': 'empty', '.css': 'empty', '.svg': 'text', '.png': 'empty' },
  });
  return out;
}
