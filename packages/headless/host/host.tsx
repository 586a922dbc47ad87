/**
 * The host page: loads the real built plugin (plugin/dist/module.js) the way Grafana does,
 * as an AMD module whose dependencies (Grafana's externals) are supplied from the real npm
 * packages bundled into this page, and renders its PanelPlugin's panel with given PanelProps.
 *
 * window.hotpathHost is the page's API for Playwright (tests, snapshot CLI, benchmark) and for
 * the overlay / the demo sandbox: stand-in getDataSourceSrv() and locationService hooks included.
 */
import { createTheme, DataFrame, dateTime, EventBusSrv, LoadingState, makeTimeRange, PanelData, PanelPlugin, ThemeContext, toDataFrame } from '@grafana/data';
import * as grafanaData from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as React from 'react';
import { flushSync } from 'react-dom';
import { createRoot, Root } from 'react-dom/client';
import * as rxjs from 'rxjs';

// The loader and the modules it shares with the plugin: host/amd-loader.ts for the default
// host (the workspace's node_modules), hosts/systemjs-loader.ts with a Grafana release's exact list for
// the compatibility matrix (an esbuild alias picks one: ../build.mjs here, tests/browser/lib/hosts.mjs).
import { loadPlugin, sharedModuleNames } from 'hotpath-plugin-loader';

import { OptionsEditor, optionItems } from './options-editor';

export interface RenderSpec {
  series: unknown[];
  options?: Record<string, unknown>;
  width?: number;
  height?: number;
  theme?: 'dark' | 'light';
  errors?: Array<{ message: string; refId?: string }>;
  state?: LoadingState;
  /** the dashboard range in unix ms (default: the last 6 hours) */
  timeRange?: { from: number; to: number };
  timeZone?: string;
  /** the query runner's targets (data.request.targets): the overlay re-runs the profile target per window */
  targets?: unknown[];
  /** Grafana annotations (data.annotations) */
  annotations?: unknown[];
  /** dashboard variables for replaceVariables: { job: 'api', profiles: 'pyro' } */
  variables?: Record<string, string>;
  /** run the plugin's migration handler on the options first (as Grafana does for a panel saved by another plugin version); default true */
  migrate?: boolean;
}

/** `$name` and `${name}` (and `${name:format}`) replaced as Grafana's template service does for plain values. */
export function replaceWith(variables: Record<string, string> = {}) {
  return (s: string) =>
    typeof s !== 'string'
      ? s
      : s.replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (m, a: string | undefined, b: string | undefined) => {
          const k = (a ?? b)!;
          return k in variables ? variables[k] : m;
        });
}

export type QueryAnswer = (uid: string, request: unknown) => Promise<{ data: unknown[]; error?: { message: string } }>;

export interface Host {
  ready: Promise<void>;
  module?: Record<string, unknown>;
  /** renders the plugin's panel with PanelProps built from spec; resolves after React committed */
  render(spec: RenderSpec): Promise<void>;
  /** renders any element in the same theme and root (the benchmark's comparison) */
  renderElement(element: React.ReactElement, theme?: 'dark' | 'light'): void;
  unmount(): void;
  /**
   * Renders the plugin's options editor (its option supplier on the host's @grafana/data, the
   * host's @grafana/ui inputs); `editedOptions` holds what it last changed.
   */
  renderOptionsEditor(options?: Record<string, unknown>, theme?: 'dark' | 'light'): void;
  /** the plugin's option items: path, name, category and default, as the panel editor lists them */
  optionList(): Array<{ path: string; name: string; category: string[]; defaultValue: unknown }>;
  editedOptions?: Record<string, unknown>;
  /** the names the host shares with plugins */
  sharedModules: string[];
  /** why module.js did not load, when it did not */
  loadError?: string;
  /** loads any AMD module with the host's loader (the matrix's loader checks) */
  loadModule(url: string): Promise<Record<string, unknown>>;
  /**
   * Stand-in datasources for getDataSourceSrv(): `query(request)` of a datasource calls
   * window.__hotpathQuery(uid, request) (exposed by Playwright to Node) and returns its frames.
   */
  useStandInDataSources(list: Array<{ uid: string; type: string; name?: string }>, answer?: QueryAnswer): void;
  /**
   * Moves Grafana's own locationService (browser history, as in Grafana) to `url`, e.g. a
   * dashboard URL with the windows the overlay keeps there; location() reads it back.
   */
  setLocation(url: string): void;
  location(): string;
  React: typeof React;
  grafanaData: typeof grafanaData;
  /** the same @grafana/runtime instance the plugin gets (getDataSourceSrv, locationService) */
  runtime: typeof grafanaRuntime;
  replaceWith: typeof replaceWith;
}

const mount = document.getElementById('root')!;
let root: Root | undefined;
/** the variables of the last render: the stand-in DataSourceSrv interpolates `${profiles}` with them, as Grafana's does */
let currentVariables: Record<string, string> = {};

async function panelOptions(plugin: PanelPlugin, spec: RenderSpec) {
  const options = { ...(spec.options ?? {}) };
  const migrate = (plugin as unknown as { onPanelMigration?: (p: unknown) => unknown }).onPanelMigration;
  if (spec.migrate === false || !migrate) {
    return options;
  }
  // Grafana runs the handler when the saved pluginVersion differs from the plugin's (a
  // dashboard generated by jsonnet has none)
  return (await migrate({ id: 1, type: 'hotpath-overlay-panel', options, fieldConfig: { defaults: {}, overrides: [] } })) as Record<string, unknown>;
}

function panelElement(plugin: PanelPlugin, spec: RenderSpec, options: Record<string, unknown>) {
  const timeRange = spec.timeRange ? makeTimeRange(dateTime(spec.timeRange.from), dateTime(spec.timeRange.to)) : grafanaData.getDefaultTimeRange();
  const replaceVariables = replaceWith(spec.variables);
  const span = timeRange.to.valueOf() - timeRange.from.valueOf();
  const intervalMs = Math.max(15000, Math.round(span / 600 / 15000) * 15000);
  const data: PanelData = {
    series: (spec.series as DataFrame[]).map((f) => toDataFrame(f)),
    annotations: spec.annotations ? (spec.annotations as DataFrame[]).map((f) => toDataFrame(f)) : undefined,
    state: spec.state ?? LoadingState.Done,
    errors: spec.errors,
    timeRange,
    request: spec.targets
      ? {
          requestId: 'host',
          app: 'dashboard',
          targets: spec.targets as PanelData['series'] as never,
          range: timeRange,
          rangeRaw: timeRange.raw,
          interval: `${intervalMs / 1000}s`,
          intervalMs,
          maxDataPoints: 600,
          scopedVars: Object.fromEntries(Object.entries(spec.variables ?? {}).map(([k, v]) => [k, { text: v, value: v }])),
          timezone: spec.timeZone ?? 'utc',
          startTime: Date.now(),
          panelId: 1,
          dashboardUID: 'hotpath-host',
        }
      : undefined,
  };
  const Panel = plugin.panel as React.ComponentType<Record<string, unknown>>;
  const width = spec.width ?? 1000;
  const height = spec.height ?? 600;
  const props = {
    id: 1,
    data,
    timeRange: data.timeRange,
    timeZone: spec.timeZone ?? 'utc',
    options,
    fieldConfig: { defaults: {}, overrides: [] },
    onOptionsChange: () => {},
    onFieldConfigChange: () => {},
    onChangeTimeRange: () => {},
    replaceVariables,
    renderCounter: 0,
    title: 'hotpath',
    transparent: false,
    eventBus: new EventBusSrv(),
    width,
    height,
  };
  return (
    <div style={{ width, height, padding: 0 }} data-testid="host-panel">
      <Panel {...props} />
    </div>
  );
}

function themed(element: React.ReactElement, mode: 'dark' | 'light') {
  const theme = createTheme({ colors: { mode } });
  document.body.style.background = theme.colors.background.primary;
  document.body.style.color = theme.colors.text.primary;
  return <ThemeContext.Provider value={theme}>{element}</ThemeContext.Provider>;
}

const host: Host = {
  ready: Promise.resolve(),
  async render(spec) {
    await host.ready;
    const plugin = host.module!.plugin as PanelPlugin;
    const options = await panelOptions(plugin, spec);
    currentVariables = spec.variables ?? {};
    root = root ?? createRoot(mount);
    flushSync(() => root!.render(themed(panelElement(plugin, spec, options), spec.theme ?? 'dark')));
  },
  renderElement(element, theme = 'dark') {
    root = root ?? createRoot(mount);
    flushSync(() => root!.render(themed(element, theme)));
  },
  renderOptionsEditor(options = {}, theme = 'dark') {
    const plugin = host.module!.plugin as PanelPlugin;
    host.editedOptions = undefined;
    host.renderElement(<OptionsEditor plugin={plugin} initial={options} onChange={(o) => (host.editedOptions = o)} />, theme);
  },
  optionList() {
    return optionItems(host.module!.plugin as PanelPlugin).map((i) => ({ path: i.path, name: i.name, category: i.category ?? [], defaultValue: i.defaultValue }));
  },
  loadModule: (url) => loadPlugin(url),
  sharedModules: sharedModuleNames(),
  unmount() {
    root?.unmount();
    root = undefined;
  },
  useStandInDataSources(list, answer) {
    const byUid = new Map(list.map((d) => [d.uid, d]));
    const w = window as unknown as { __hotpathQuery?: QueryAnswer; __hotpathCancel?: (uid: string, requestId: string) => void };
    const instance = (rawUid: string) => {
      const uid = replaceWith(currentVariables)(rawUid);
      const d = byUid.get(uid);
      if (!d) {
        throw new Error(`no stand-in datasource ${uid}`);
      }
      return {
        uid: d.uid,
        type: d.type,
        name: d.name ?? d.uid,
        meta: { id: d.type },
        query: (request: { requestId?: string }) =>
          new rxjs.Observable((subscriber) => {
            const call = answer ?? w.__hotpathQuery!;
            let closed = false;
            let done = false;
            call(uid, JSON.parse(JSON.stringify(request)))
              .then((response) => {
                done = true;
                if (closed) {
                  return;
                }
                const { error, ...rest } = response;
                subscriber.next({ ...rest, errors: error ? [error] : undefined, state: error ? LoadingState.Error : LoadingState.Done, data: (response.data ?? []).map((f) => toDataFrame(f)) });
                subscriber.complete();
              })
              .catch((e: Error) => {
                done = true;
                if (!closed) {
                  subscriber.error(e);
                }
              });
            return () => {
              closed = true;
              // unsubscribed before the answer: Grafana would cancel the HTTP request here
              if (!done && w.__hotpathCancel) {
                w.__hotpathCancel(uid, request.requestId ?? '');
              }
            };
          }),
      };
    };
    grafanaRuntime.setDataSourceSrv({
      get: async (ref?: string | { uid?: string } | null) => instance(typeof ref === 'string' ? ref : ref?.uid ?? list[0].uid),
      getList: () => list.map((d) => ({ uid: d.uid, type: d.type, name: d.name ?? d.uid, meta: { id: d.type } })),
      getInstanceSettings: (ref?: string | { uid?: string } | null) => {
        const d = byUid.get(replaceWith(currentVariables)(typeof ref === 'string' ? ref : ref?.uid ?? '')) ?? list[0];
        return d && { uid: d.uid, type: d.type, name: d.name ?? d.uid, meta: { id: d.type } };
      },
      reload: async () => {},
    } as unknown as grafanaRuntime.DataSourceSrv);
  },
  setLocation(url) {
    grafanaRuntime.locationService.replace(url);
  },
  location() {
    const l = grafanaRuntime.locationService.getLocation();
    return `${l.pathname}${l.search}${l.hash}`;
  },
  React,
  grafanaData,
  runtime: grafanaRuntime,
  replaceWith,
};

// module.js exports the panel only; the tests' in-page helpers read the data layer from its own
// bundle (plugin/src/hotpath-data.ts), loaded after it with the same loader: host.module has both.
host.ready = loadPlugin(new URLSearchParams(window.location.search).get('module') ?? '/plugin/module.js').then(
  async (m) => {
    const data = await loadPlugin('/hotpath-data.js').catch((e: Error) => {
      host.loadError = `hotpath-data.js (run make plugin): ${e?.message ?? e}`;
      throw e;
    });
    host.module = { ...m, ...data };
  },
  (e: Error) => {
    // the matrix reports why module.js did not load in this host (an unshared module, say)
    host.loadError = String(e?.message ?? e);
    throw e;
  }
);

(window as unknown as { hotpathHost: Host }).hotpathHost = host;
