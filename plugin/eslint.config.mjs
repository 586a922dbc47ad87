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
]);
