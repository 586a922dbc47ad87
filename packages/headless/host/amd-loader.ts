/**
 * The default host's loader: a minimal AMD `define(deps, factory)` (what SystemJS's AMD extra
 * does for Grafana), with the externals from the workspace's node_modules. Like Grafana 11.3, the floor
 * of grafanaDependency, it does not share react/jsx-runtime. The compatibility matrix
 * (tests/browser/hosts) loads module.js with SystemJS itself and each release's exact list.
 */
import * as emotionCss from '@emotion/css';
import * as grafanaData from '@grafana/data';
import * as grafanaRuntime from '@grafana/runtime';
import * as grafanaUi from '@grafana/ui';
import * as lodash from 'lodash';
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as rxjs from 'rxjs';

type Factory = (...deps: unknown[]) => unknown;

const EXTERNALS: Record<string, unknown> = {
  react: React,
  'react-dom': ReactDOM,
  '@grafana/data': grafanaData,
  '@grafana/ui': grafanaUi,
  '@grafana/runtime': grafanaRuntime,
  '@emotion/css': emotionCss,
  lodash,
  rxjs,
};

/** Loads module.js from a script tag and resolves to its exports. */
export function loadPlugin(url: string): Promise<Record<string, unknown>> {
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

/** The names the default host shares with the plugin. */
export const sharedModuleNames = () => Object.keys(EXTERNALS);
