// After @grafana/create-plugin's .config/jest.config.js: tests sit next to the code in src/.
process.env.TZ = 'UTC';

module.exports = {
  moduleNameMapper: { '\\.(css|scss|sass)$': 'identity-obj-proxy' },
  modulePaths: ['<rootDir>/src'],
  setupFiles: ['jest-canvas-mock'],
  setupFilesAfterEnv: ['<rootDir>/jest-setup.js'],
  testEnvironment: 'jest-environment-jsdom',
  // the workspace's profile core from its TypeScript sources (the condition its package.json exports them under)
  testEnvironmentOptions: { customExportConditions: ['hotpath-source', 'browser'] },
  testMatch: ['<rootDir>/src/**/*.{spec,test,jest}.{js,jsx,ts,tsx}'],
  transform: {
    '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
      '@swc/jest',
      {
        sourceMaps: 'inline',
        jsc: {
          parser: { syntax: 'typescript', tsx: true, decorators: false, dynamicImport: true },
          transform: { react: { runtime: 'automatic' } },
        },
      },
    ],
  },
  // ES-module-only dependencies of @grafana/* (create-plugin's .config/jest/utils.js list).
  transformIgnorePatterns: [
    'node_modules/(?!.*(@grafana/schema|@wojtekmaj/date-utils|d3|d3-[a-z-]+|internmap|delaunator|robust-predicates|get-user-locale|marked|memoize|mimic-function|ol|react-calendar|react-colorful|rxjs|uuid)/.*)',
  ],
};
