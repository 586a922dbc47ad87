// Builds the core once to ESM for Node (dist/index.mjs), for hotpath-notify, the headless
// renderer and the snapshot CLI: they import the package by name and compile nothing at start.
// The panel bundles the TypeScript sources instead (the "hotpath-source" export condition).
// Its own dependencies (fflate, fzstd) stay imports, resolved from node_modules at run time.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/index.ts'],
  bundle: true,
  packages: 'external',
  outfile: 'dist/index.mjs',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  legalComments: 'none',
});
