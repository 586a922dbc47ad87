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
]);
