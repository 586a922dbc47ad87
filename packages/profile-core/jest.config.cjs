// The core's unit and property tests, next to the code in src/, compiled by swc as the panel's are.
// jsdom: the tests build frames with @grafana/data and compare with @grafana/flamegraph, which
// read `window` when loaded (the core itself imports only their types).
process.env.TZ = 'UTC';

module.exports = {
  testEnvironment: 'jest-environment-jsdom',
  setupFiles: ['<rootDir>/jest-setup.cjs'],
  moduleNameMapper: { '\\.(css|scss|sass)$': 'identity-obj-proxy' },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$|^.+\\.mjs$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' } } }],
  },
  // ES-module-only dependencies of @grafana/* (create-plugin's .config/jest/utils.js list).
  transformIgnorePatterns: [
    'node_modules/(?!.*(@grafana/schema|@wojtekmaj/date-utils|d3|d3-[a-z-]+|internmap|delaunator|robust-predicates|get-user-locale|marked|memoize|mimic-function|ol|react-calendar|react-colorful|rxjs|uuid)/.*)',
  ],
};
