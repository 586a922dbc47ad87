// Bundles the host page (and the benchmark page) with esbuild from the real npm packages.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { BROWSER_DIR, CACHE_DIR, DIST_DIR, PLUGIN_DIR, requirePlugin } from './env.mjs';

const esbuild = requirePlugin('esbuild');

/** esbuild options of a host page bundle: every package from `nodeModules`, React's production or development build. */
export function hostBundleOptions({ entry, out, nodeModules, alias, development = false }) {
  return {
    entryPoints: [entry],
    bundle: true,
    outfile: out,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    minify: !development,
    sourcemap: false,
    nodePaths: [nodeModules],
    alias,
    define: { 'process.env.NODE_ENV': development ? '"development"' : '"production"', global: 'window' },
    logLevel: 'error',
    legalComments: 'none',
    loader: { '.ttf': 'empty', '.woff': 'empty', '.woff2': 'empty', '.eot': 'empty', '.css': 'empty', '.svg': 'text', '.png': 'empty' },
  };
}

/** Bundles a page into .cache/browser/<entry>.js: tests/browser/host/<entry>.tsx, or `src` (the demo's sandbox page). */
export async function buildHost(entry = 'host', src = join(BROWSER_DIR, 'host', `${entry}.tsx`)) {
  if (!existsSync(join(DIST_DIR, 'module.js'))) {
    throw new Error('plugin/dist/module.js is missing: run `make plugin` (or `npm run build` in plugin/) first');
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const out = join(CACHE_DIR, `${entry}.js`);
  // the host bundle is reused while its sources and the lockfile are older; the bench bundle
  // also compiles plugin/src/data (the generator), so it is always rebuilt (esbuild: ~2 s)
  const sources = [src, ...['host.tsx', 'amd-loader.ts', 'options-editor.tsx'].map((f) => join(BROWSER_DIR, 'host', f)), join(PLUGIN_DIR, 'package-lock.json')];
  if (entry === 'host' && existsSync(out) && statSync(out).mtimeMs > Math.max(...sources.map((f) => statSync(f).mtimeMs))) {
    return out;
  }
  await esbuild.build(
    hostBundleOptions({
      entry: src,
      out,
      nodeModules: join(PLUGIN_DIR, 'node_modules'),
      // the default host's loader (the compatibility matrix aliases hosts/systemjs-loader.ts: lib/hosts.mjs)
      alias: { 'hotpath-plugin-loader': join(BROWSER_DIR, 'host', 'amd-loader.ts') },
    })
  );
  return out;
}
