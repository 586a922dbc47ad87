/**
 * A module a Grafana release shares with plugins that this plugin never imports (Grafana's own
 * app/* services, jQuery and flot, slate, d3, monaco-kusto, the router, redux...). The test
 * hosts keep its name in the import map, so the host's list stays exactly the release's, but
 * do not install it: loading one fails with a message that says so.
 */
export const notInTestHost = (name: string) => () =>
  Promise.reject(new Error(`"${name}" is shared by Grafana but not installed in this test host: add it to the host's package.json if the plugin starts importing it`));

/** Names as Grafana's sharedDependencies.ts lists them, mapped to notInTestHost. */
export const absent = (names: string[]) => Object.fromEntries(names.map((n) => [n, notInTestHost(n)]));

/** jquery.flot and its plugins: Grafana shares them as fake modules. */
export const FLOT = [
  'jquery.flot.crosshair',
  'jquery.flot.events',
  'jquery.flot.fillbelow',
  'jquery.flot.gauge',
  'jquery.flot.pie',
  'jquery.flot.selection',
  'jquery.flot.stack',
  'jquery.flot.stackpercent',
  'jquery.flot.time',
  'jquery.flot',
];

/** Grafana's own services shared as app/* modules, the same names in 11.3 to 13. */
export const APP_CORE = [
  'app/core/app_events',
  'app/core/config',
  'app/core/core',
  'app/core/services/backend_srv',
  'app/core/table_model',
  'app/core/time_series',
  'app/core/time_series2',
  'app/core/utils/datemath',
  'app/core/utils/flatten',
  'app/core/utils/kbn',
  'app/core/utils/ticks',
  'app/features/dashboard/impression_store',
];

/**
 * The names every release from 11.3 to 13.2 shares and this plugin never imports: each host's
 * list is these, the modules it installs, and its own extra names.
 */
export const SHARED_NOT_INSTALLED = [
  '@emotion/react',
  '@grafana/slate-react',
  '@kusto/monaco-kusto',
  ...APP_CORE,
  'd3',
  'i18next',
  'jquery',
  ...FLOT,
  'moment',
  'prismjs',
  'react-inlinesvg',
  'react-redux',
  'react-router-dom',
  'react-router',
  'redux',
  'slate',
  'slate-plain-serializer',
  'slate-react',
];
