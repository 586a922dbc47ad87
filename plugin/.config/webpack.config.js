/*
 * Webpack config after @grafana/create-plugin's template (.config/webpack/webpack.config.ts,
 * create-plugin 7.1.7), written in plain JS so it runs on Node 20 without ts-node: the same
 * AMD library output, Grafana's externals, swc-loader, the public-path shim and the copied
 * plugin.json with %VERSION%/%TODAY% replaced. What differs from the template, and why, is in
 * plugin/README.md ("Build toolchain").
 */
const path = require('path');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const webpack = require('webpack');

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIR = path.join(ROOT, 'src');
const DIST_DIR = path.join(ROOT, 'dist');
const pluginJson = require(path.join(SOURCE_DIR, 'plugin.json'));
const pkg = require(path.join(ROOT, 'package.json'));

// The externals Grafana supplies to plugins at runtime (create-plugin's bundler/externals.ts).
// react/jsx-runtime stays external although the classic JSX runtime below never imports it: a
// bundled copy of React 18's jsx-runtime would build elements React 19 rejects, and an import of
// it from a dependency shows in the AMD dependency list, which the compatibility matrix checks
// against each Grafana release's shared modules (tests/browser/matrix.test.mjs).
const externals = [
  { 'amd-module': 'module' },
  'lodash',
  'jquery',
  'moment',
  'slate',
  'emotion',
  '@emotion/react',
  '@emotion/css',
  'prismjs',
  'slate-plain-serializer',
  '@grafana/slate-react',
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-redux',
  'redux',
  'rxjs',
  'i18next',
  'react-router',
  'd3',
  'angular',
  /^@grafana\/ui/i,
  /^@grafana\/runtime/i,
  /^@grafana\/data/i,
  ({ request }, callback) => {
    const prefix = 'grafana/';
    if (request && request.indexOf(prefix) === 0) {
      return callback(undefined, request.slice(prefix.length));
    }
    callback();
  },
];

const replaceVersion = (content) =>
  content
    .toString()
    .replace(/%VERSION%/g, pkg.version)
    .replace(/%TODAY%/g, new Date().toISOString().substring(0, 10))
    .replace(/%PLUGIN_ID%/g, pluginJson.id);

module.exports = (env = {}) => ({
  context: SOURCE_DIR,
  devtool: env.production ? 'source-map' : 'eval-source-map',
  // module.js: the panel, what Grafana loads; hotpath-data.js: the data layer for the browser
  // tests (src/hotpath-data.ts), left out of the package.
  entry: { module: './module.ts', 'hotpath-data': './hotpath-data.ts' },
  externals,
  mode: env.production ? 'production' : 'development',
  module: {
    // a name imported from a module that does not export it fails the build (src/bindings.ts)
    parser: { javascript: { exportsPresence: 'error' } },
    rules: [
      {
        test: /src\/(?:.*\/)?module\.tsx?$/,
        use: [{ loader: path.join(__dirname, 'public-path-loader.js') }],
      },
      {
        exclude: /node_modules/,
        test: /\.[tj]sx?$/,
        // swc, then bindings-loader.js (loaders run last to first): the panel's imports of React
        // and emotion become local bindings (src/bindings.ts says why)
        use: [{ loader: path.join(__dirname, 'bindings-loader.js') }, {
          loader: 'swc-loader',
          options: {
            jsc: {
              baseUrl: SOURCE_DIR,
              // optional chaining and ?? stay as written: every browser Grafana 11.3 supports
              // has them (Chrome 80, Firefox 74, Safari 13.1), and es2018's expansions of them
              // were 6.2 KB of module.js
              target: 'es2020',
              loose: false,
              parser: { syntax: 'typescript', tsx: true, decorators: false, dynamicImport: true },
              // The classic runtime: JSX becomes `h(...)`, the host React's createElement bound
              // once in src/bindings.ts (bindings-loader.js imports it into each .tsx file;
              // `React.createElement` at each of 250 elements was 3 KB of module.js). The
              // automatic runtime would import react/jsx-runtime, which Grafana shares with
              // plugins only from 11.6.11 / 12.0.10 / 12.1.7 / 12.2.5 / 12.3.0 on: such a
              // module.js does not load on 11.3 to 11.6.10, which grafanaDependency >=11.3.0 names.
              // Class fields as TypeScript has always compiled them below ES2022, assignments in
              // the constructor: define semantics wrote a defineProperty helper into each module
              // with a class, and a call per field (1.1 KB of module.js). No class here reads a
              // field before the constructor assigns it.
              transform: { react: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment', development: false }, useDefineForClassFields: false },
            },
          },
        }],
      },
      {
        test: /\.(png|jpe?g|gif|svg)$/,
        type: 'asset/resource',
        generator: { filename: '[file]' },
      },
    ],
  },
  optimization: {
    minimize: Boolean(env.production),
    // Names are mangled: module.js has a size budget (120 KB, checked by tests/browser/package.test.mjs)
    // and kept names cost ~7 KB. Build with `--env profile` to keep them when reading a CPU profile of
    // the panel; ecma 2020 and two compress passes let terser use the syntax every Grafana-supported
    // browser has.
    minimizer: [
      new TerserPlugin({
        // create-plugin's terser options: the [create-plugin] banner stays in module.js (the
        // plugin-validator reads it to tell the build tooling), console.log/info dropped; licence
        // comments still go to module.js.LICENSE.txt
        terserOptions: {
          keep_fnames: Boolean(env.profile),
          keep_classnames: Boolean(env.profile),
          ecma: 2020,
          format: { comments: (_, { type, value }) => type === 'comment2' && value.trim().startsWith('[create-plugin]') },
          compress: { drop_console: ['log', 'info'], passes: 2 },
        },
      }),
    ],
  },
  output: {
    clean: true,
    filename: '[name].js',
    chunkFilename: '[name].js?_cache=[contenthash]',
    library: { type: 'amd' },
    path: DIST_DIR,
    publicPath: `public/plugins/${pluginJson.id}/`,
    uniqueName: pluginJson.id,
  },
  performance: { hints: false },
  plugins: [
    new webpack.BannerPlugin({
      // the template this config follows (plugin/README.md, "Build toolchain")
      banner: `/* [create-plugin] version: 7.1.7 */\n/* [create-plugin] plugin: ${pluginJson.id}@${pkg.version} */`,
      raw: true,
      entryOnly: true,
      include: /^module\.js$/,
    }),
    new CopyWebpackPlugin({
      patterns: [
        // buildMode as create-plugin's BuildModeWebpackPlugin adds it
        { from: 'plugin.json', to: '.', transform: (c) => JSON.stringify({ ...JSON.parse(replaceVersion(c)), buildMode: env.production ? 'production' : 'development' }, null, 4) },
        { from: '../README.md', to: '.', transform: replaceVersion },
        { from: '../CHANGELOG.md', to: '.' },
        { from: 'img', to: 'img' },
      ],
    }),
  ],
  resolve: {
    extensions: ['.js', '.jsx', '.ts', '.tsx'],
    modules: [SOURCE_DIR, 'node_modules'],
    // the workspace's profile core is bundled from its TypeScript sources (its package.json
    // exports them under this condition; Node gets its ESM build)
    conditionNames: ['hotpath-source', '...'],
  },
});
