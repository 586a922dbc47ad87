/**
 * The plugin loader of the matrix hosts, as Grafana's (public/app/features/plugins/loader):
 * SystemJS with its AMD extra loads module.js; an import map sends each name Grafana shares with
 * plugins to `package:<name>`, and the instantiate hook hands over the host's own instance of
 * that module. A name the release does not share stays unresolved, so module.js fails to load
 * as it would in that Grafana ("Unable to resolve bare specifier ...").
 */
import 'systemjs/dist/system.js';
import 'systemjs/dist/extras/amd.js';

import { GRAFANA_RELEASE, SHARED_MODULES } from 'hotpath-shared-modules';

const PREFIX = 'package:';

type Declare = (exp: (ns: Record<string, unknown>) => void) => { execute: () => void };

interface SystemJS {
  import(url: string): Promise<Record<string, unknown>>;
  addImportMap(map: { imports: Record<string, string> }): void;
  constructor: { prototype: { instantiate: (this: unknown, url: string, ...rest: unknown[]) => unknown } };
}

const System = (window as unknown as { System: SystemJS }).System;
System.addImportMap({ imports: Object.fromEntries(Object.keys(SHARED_MODULES).map((name) => [name, `${PREFIX}${name}`])) });
const proto = System.constructor.prototype;
const instantiate = proto.instantiate;
proto.instantiate = function (url: string, ...rest: unknown[]) {
  if (!url.startsWith(PREFIX)) {
    return instantiate.call(this, url, ...rest);
  }
  const name = url.slice(PREFIX.length);
  const shared = SHARED_MODULES[name];
  return Promise.resolve(typeof shared === 'function' ? shared() : shared).then((ns) => {
    const declare: Declare = (exp) => ({
      execute: () => {
        exp(ns as Record<string, unknown>);
      },
    });
    return [[], declare];
  });
};

/** The names this host shares with plugins (exactly its Grafana release's list). */
export const sharedModuleNames = () => Object.keys(SHARED_MODULES);
export const grafanaRelease = GRAFANA_RELEASE;

/** Loads an AMD module the way Grafana loads a plugin's module.js. */
export function loadPlugin(url: string): Promise<Record<string, unknown>> {
  return System.import(new URL(url, window.location.href).href);
}
