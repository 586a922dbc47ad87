/**
 * The host page: loads the real built plugin (plugin/dist/module.js) the way Grafana does,
 * as an AMD module whose dependencies (Grafana's externals) are supplied from the real npm
 * packages bundled into this page, and renders its PanelPlugin's panel with given PanelProps.
 *
 * window.hotpathHost is the page's API for Playwright (tests, snapshot CLI, benchmark) and for
 * issue 5 / the demo sandbox: stand-in getDataSourceSrv() and locationService hooks included.
 */
import * as emotionCss from '@emotion/css';
import * as grafanaData from '@grafana/data';
import { createTheme, DataFrame, EventBusSrv, LoadingState, PanelData, PanelPlugin, ThemeContext, toDataFrame } from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as grafanaUi from '@grafana/ui';
import * as lodash from 'lodash';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import { createRoot, Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import * as rxjs from 'rxjs';

type Factory = (...deps: unknown[]) => unknown;

/** The modules Grafana provides to plugins (create-plugin's externals), from the real packages. */
const EXTERNALS: Record<string, unknown> = {
  react: React,
  'react-dom': ReactDOM,
  'react/jsx-runtime': jsxRuntime,
  '@grafana/data': grafanaData,
  '@grafana/ui': grafanaUi,
  '@grafana/runtime': grafanaRuntime,
  '@emotion/css': emotionCss,
  lodash,
  rxjs,
};

/** A minimal AMD loader: `define(deps, factory)` from a script tag, like SystemJS's AMD extra. */
function loadAmd(url: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const w = window as unknown as { define?: unknown };
    const define = (deps: string[] | Factory, factory?: Factory) => {
      const names = Array.isArray(deps) ? deps : [];
      const fn = (Array.isArray(deps) ? factory : deps) as Factory;
      try {
        const args = names.map((name) => {
          if (name === 'module') {
            return { uri: new URL(url, window.location.href).href };
          }
          if (!(name in EXTERNALS)) {
            throw new Error(`module.js needs "${name}", which the host does not supply`);
          }
          return EXTERNALS[name];
        });
        resolve(fn(...args) as Record<string, unknown>);
      } catch (e) {
        reject(e);
      }
    };
    (define as unknown as { amd: object }).amd = {};
    w.define = define;
    const script = document.createElement('script');
    script.src = url;
    script.onerror = () => reject(new Error(`could not load ${url}`));
    document.head.appendChild(script);
  });
}

export interface RenderSpec {
  series: unknown[];
  options?: Record<string, unknown>;
  width?: number;
  height?: number;
  theme?: 'dark' | 'light';
  errors?: Array<{ message: string }>;
  state?: LoadingState;
}

export interface Host {
  ready: Promise<void>;
  module?: Record<string, unknown>;
  /** renders the plugin's panel with PanelProps built from spec; resolves after React committed */
  render(spec: RenderSpec): Promise<void>;
  /** renders any element in the same theme and root (the benchmark's comparison) */
  renderElement(element: React.ReactElement, theme?: 'dark' | 'light'): void;
  unmount(): void;
  /**
   * Stand-in datasources for getDataSourceSrv(): `query(request)` of a datasource calls
   * window.__hotpathQuery(uid, request) (exposed by Playwright to Node) and returns its frames.
   */
  useStandInDataSources(list: Array<{ uid: string; type: string; name?: string }>): void;
  /**
   * Moves Grafana's own locationService (browser history, as in Grafana) to `url`, e.g. a
   * dashboard URL with the windows issue 5 keeps there; location() reads it back.
   */
  setLocation(url: string): void;
  location(): string;
  React: typeof React;
  grafanaData: typeof grafanaData;
  /** the same @grafana/runtime instance the plugin gets (getDataSourceSrv, locationService) */
  runtime: typeof grafanaRuntime;
}

const mount = document.getElementById('root')!;
let root: Root | undefined;

function panelElement(plugin: PanelPlugin, spec: RenderSpec) {
  const data: PanelData = {
    series: (spec.series as DataFrame[]).map((f) => toDataFrame(f)),
    state: spec.state ?? LoadingState.Done,
    errors: spec.errors,
    timeRange: grafanaData.getDefaultTimeRange(),
  };
  const Panel = plugin.panel as React.ComponentType<Record<string, unknown>>;
  const width = spec.width ?? 1000;
  const height = spec.height ?? 600;
  const props = {
    id: 1,
    data,
    timeRange: data.timeRange,
    timeZone: 'utc',
    options: { ...(spec.options ?? {}) },
    fieldConfig: { defaults: {}, overrides: [] },
    onOptionsChange: () => {},
    onFieldConfigChange: () => {},
    onChangeTimeRange: () => {},
    replaceVariables: (s: string) => s,
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
    root = root ?? createRoot(mount);
    flushSync(() => root!.render(themed(panelElement(plugin, spec), spec.theme ?? 'dark')));
  },
  renderElement(element, theme = 'dark') {
    root = root ?? createRoot(mount);
    flushSync(() => root!.render(themed(element, theme)));
  },
  unmount() {
    root?.unmount();
    root = undefined;
  },
  useStandInDataSources(list) {
    const byUid = new Map(list.map((d) => [d.uid, d]));
    const instance = (uid: string) => {
      const d = byUid.get(uid);
      if (!d) {
        throw new Error(`no stand-in datasource ${uid}`);
      }
      return {
        uid: d.uid,
        type: d.type,
        name: d.name ?? d.uid,
        meta: { id: d.type },
        query: (request: unknown) =>
          new rxjs.Observable((subscriber) => {
            const call = (window as unknown as { __hotpathQuery: (uid: string, r: unknown) => Promise<{ data: unknown[]; error?: { message: string } }> }).__hotpathQuery;
            let closed = false;
            call(uid, JSON.parse(JSON.stringify(request)))
              .then((response) => {
                if (closed) {
                  return;
                }
                subscriber.next({ ...response, data: response.data.map((f) => toDataFrame(f)) });
                subscriber.complete();
              })
              .catch((e: Error) => !closed && subscriber.error(e));
            return () => {
              closed = true;
            };
          }),
      };
    };
    grafanaRuntime.setDataSourceSrv({
      get: async (ref?: string | { uid?: string } | null) => instance(typeof ref === 'string' ? ref : ref?.uid ?? list[0].uid),
      getList: () => list.map((d) => ({ uid: d.uid, type: d.type, name: d.name ?? d.uid, meta: { id: d.type } })),
      getInstanceSettings: (ref?: string | { uid?: string } | null) => {
        const d = byUid.get(typeof ref === 'string' ? ref : ref?.uid ?? '') ?? list[0];
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
};

host.ready = loadAmd(new URLSearchParams(window.location.search).get('module') ?? '/plugin/module.js').then((m) => {
  host.module = m;
});

(window as unknown as { hotpathHost: Host }).hotpathHost = host;
