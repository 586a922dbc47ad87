// Bundles the host page (and the benchmark page) with esbuild from the real npm packages.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { BROWSER_DIR, CACHE_DIR, DIST_DIR, HOST_DIR, NODE_MODULES, ROOT } from './env.mjs';

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
    // the workspace's profile core from its TypeScript sources, as the panel's webpack bundles it
    // ('module': esbuild's default condition, which a custom list replaces)
    conditions: ['hotpath-source', 'module'],
    plugins: [hostFilesFrom(nodeModules), webpackDefaultInterop()],
    alias,
    define: { 'process.env.NODE_ENV': development ? '"development"' : '"production"', global: 'window' },
    logLevel: 'error',
    legalComments: 'none',
    loader: { '.ttf': 'empty', '.woff': 'empty', '.woff2': 'empty', '.eot': 'empty', '.css': 'empty', '.svg': 'text', '.png': 'empty' },
  };
}

/**
 * The host page's own files (host/, and the matrix hosts' shared-modules and loader files in
 * tests/browser/hosts/) import their packages from `nodeModules`: a Grafana host of the
 * compatibility matrix bundles the page with its own releases of React and @grafana/*, not with
 * the workspace's node_modules, which esbuild would find first by walking up from those folders.
 */
function hostFilesFrom(nodeModules) {
  const again = Symbol('resolved from the host');
  const hostFiles = [HOST_DIR, join(BROWSER_DIR, 'hosts')];
  return {
    name: 'host-files-from-node-modules',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === again || !hostFiles.some((dir) => args.importer.startsWith(dir))) {
          return undefined;
        }
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: dirname(nodeModules), pluginData: again });
        return r.errors.length ? { errors: r.errors } : r;
      });
    },
  };
}

/**
 * @grafana/ui's .mjs files import CommonJS packages' default exports (`import Scrollbars from
 * 'react-custom-scrollbars-2'`). esbuild gives an .mjs importer Node's interop (the default is
 * the whole `module.exports`, an object), Grafana's webpack build honours `__esModule` (the
 * default is `exports.default`, the component): without this, CustomScrollbar (Grafana's
 * Table, the flame graph's full view) throws React error #130 after its first paint.
 */
const CJS_DEFAULT_PACKAGES = ['react-custom-scrollbars-2'];
function webpackDefaultInterop() {
  const filter = new RegExp(`^(${CJS_DEFAULT_PACKAGES.join('|')})$`);
  return {
    name: 'webpack-default-interop',
    setup(build) {
      build.onResolve({ filter }, (args) => (args.importer.endsWith('.mjs') ? { path: args.path, namespace: 'webpack-default', pluginData: args.resolveDir } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'webpack-default' }, (args) => ({
        // a .js shim: esbuild applies __esModule interop to its default import, as webpack does
        contents: `import * as m from ${JSON.stringify(args.path)}; export * from ${JSON.stringify(args.path)}; export default (m.default && m.default.default) || m.default;`,
        resolveDir: args.pluginData,
        loader: 'js',
      }));
    },
  };
}

/** A page's source: the host page (host/host.tsx here), or a test page (tests/browser/host/<entry>.tsx: the benchmark's). */
export const hostEntry = (entry) => (entry === 'host' ? join(HOST_DIR, 'host.tsx') : join(BROWSER_DIR, 'host', `${entry}.tsx`));

/** Bundles a page into .cache/browser/<entry>.js: `hostEntry(entry)`, or `src` (the demo's sandbox page). */
export async function buildHost(entry = 'host', src = hostEntry(entry)) {
  if (!existsSync(join(DIST_DIR, 'module.js'))) {
    throw new Error('plugin/dist/module.js is missing: run `make plugin` (or `npm run build` in plugin/) first');
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const out = join(CACHE_DIR, `${entry}.js`);
  // the host bundle is reused while its sources and the lockfile are older; the bench bundle
  // also compiles the profile core (the generator), so it is always rebuilt (esbuild: ~2 s)
  const sources = [src, ...['host.tsx', 'amd-loader.ts', 'options-editor.tsx'].map((f) => join(HOST_DIR, f)), join(ROOT, 'package-lock.json')];
  if (entry === 'host' && existsSync(out) && statSync(out).mtimeMs > Math.max(...sources.map((f) => statSync(f).mtimeMs))) {
    return out;
  }
  // loaded here, not at import: a receiver whose host page is already bundled never needs it
  const { default: esbuild } = await import('esbuild');
  await esbuild.build(
    hostBundleOptions({
      entry: src,
      out,
      nodeModules: NODE_MODULES,
      // the default host's loader (the compatibility matrix aliases hosts/systemjs-loader.ts: lib/hosts.mjs)
      alias: { 'hotpath-plugin-loader': join(HOST_DIR, 'amd-loader.ts') },
    })
  );
  return out;
}
