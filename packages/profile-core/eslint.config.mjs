// The panel's lint rules (plugin/eslint.config.mjs: @grafana/eslint-config), on the core's sources.
import { defineConfig } from 'eslint/config';
import grafanaConfig from '@grafana/eslint-config/flat.js';

export default defineConfig([
  { ignores: ['**/node_modules/', '**/dist/', '*.cjs', '*.mjs'] },
  ...grafanaConfig,
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json' } },
    rules: { '@typescript-eslint/no-deprecated': 'warn' },
  },
  {
    // the test aids (src/testing/) are for tests only: the code the public index exports never
    // imports them, so dist/index.mjs and the panel's module.js hold none ('moment': Grafana's rule)
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts', 'src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['moment'], patterns: [{ regex: '(^|/)testing(/|$)', message: 'test aids are for tests only (src/testing/)' }] },
      ],
    },
  },
]);
