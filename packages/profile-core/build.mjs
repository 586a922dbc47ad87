// Builds the core once to ESM for Node (dist/index.mjs), for hotpath-notify, the headless
// renderer and the snapshot CLI: they import the package by name and compile nothing at start.
// The panel bundles the TypeScript sources instead (the "hotpath-source" export condition).
// Its own dependencies (fflate, fzstd) stay imports, resolved from node_modules at run time.
//
// The test aids are an entry of their own (dist/testing.mjs, '@hotpath/profile-core/testing'):
// dist/index.mjs holds none of them. The code both entries use (the tree) goes to a shared chunk
// (dist/chunks/), so a tree from either is the same module's.
import { build } from 'esbuild';

await build({
  entryPoints: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  bundle: true,
  splitting: true,
  packages: 'external',
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  legalComments: 'none',
});
