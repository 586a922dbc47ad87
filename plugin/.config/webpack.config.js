/*
 * Webpack config after @grafana/create-plugin's template (.config/webpack/webpack.config.ts,
 * create-plugin 7.1.7), written in plain JS so it runs on Node 20 without ts-node: the same
 * AMD library output, Grafana's externals, swc-loader, the public-path shim and the copied
 * plugin.json with %VERSION%/%TODAY% replaced.
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
  entry: { module: './module.ts' },
  externals,
  mode: env.production ? 'production' : 'development',
  module: {
    rules: [
      {
        test: /src\/(?:.*\/)?module\.tsx?$/,
        use: [{ loader: path.join(__dirname, 'public-path-loader.js') }],
      },
      {
        exclude: /node_modules/,
        test: /\.[tj]sx?$/,
        use: {
          loader: 'swc-loader',
          options: {
            jsc: {
              baseUrl: SOURCE_DIR,
              target: 'es2018',
              loose: false,
              parser: { syntax: 'typescript', tsx: true, decorators: false, dynamicImport: true },
              transform: { react: { runtime: 'automatic' } },
            },
          },
        },
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
    // function names kept: CPU profiles of the panel (npm run bench) stay readable
    minimizer: [new TerserPlugin({ terserOptions: { keep_fnames: true, keep_classnames: true } })],
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
      banner: `/* [create-plugin] version: 7.1.7 (hand-written config) */\n/* [create-plugin] plugin: ${pluginJson.id}@${pkg.version} */`,
      raw: true,
      entryOnly: true,
    }),
    new CopyWebpackPlugin({
      patterns: [
        { from: 'plugin.json', to: '.', transform: replaceVersion },
        { from: '../README.md', to: '.', transform: replaceVersion },
        { from: 'img', to: 'img' },
      ],
    }),
  ],
  resolve: {
    extensions: ['.js', '.jsx', '.ts', '.tsx'],
    modules: [SOURCE_DIR, 'node_modules'],
  },
});
