// After @grafana/create-plugin's eslint.config.mjs + .config/eslint.config.mjs.
import { defineConfig } from 'eslint/config';
import grafanaConfig from '@grafana/eslint-config/flat.js';

export default defineConfig([
  { ignores: ['**/node_modules/', '**/dist/', '**/coverage/', '.config/', '*.js', '*.mjs'] },
  ...grafanaConfig,
  { rules: { 'react/prop-types': 'off', 'react/react-in-jsx-scope': 'off' } },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { project: './tsconfig.json' } },
    rules: { '@typescript-eslint/no-deprecated': 'warn' },
  },
  {
    // a component over 100 lines is split: a container that owns state and delegates, hooks for
    // behaviour and drawing, presentational children (as @grafana/flamegraph is built)
    files: ['src/components/**/*.{ts,tsx}'],
    ignores: ['src/components/**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }] },
  },
  {
    // the core's test aids are for tests only: module.js never loads them (hotpath-data.ts, the
    // browser tests' bundle, holds them; 'moment': Grafana's rule)
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/hotpath-data.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['moment', { name: '@hotpath/profile-core/testing', message: 'test aids are for tests only' }] },
      ],
    },
  },
]);
