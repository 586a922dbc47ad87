/**
 * The overlay's state in the dashboard URL, so that a link reproduces the view:
 *
 *   hotpath-window=<from ms>-<to ms>     the comparison window (the selection)
 *   hotpath-baseline=<from ms>-<to ms>   a baseline chosen by hand, or
 *   hotpath-baseline=auto|day|week|manual a baseline mode (absent: the panel option's mode)
 *   hotpath-view=flame|diff|side|changes the view
 *   hotpath-unit=per-request|absolute|share  the unit of the values (absent: per request when the
 *                                        windows' request counts are known, else share)
 *   hotpath-instance=<label value>       the instance the siblings baseline compares with the
 *                                        others (hotpath-baseline=siblings)
 *   hotpath-endpoint=<route>             the endpoint the windows' profiles are narrowed to (a
 *                                        normalised route, as the rule pack names it: /search)
 *   hotpath-at=<unix ms>                 an alert link's moment: the panel selects the anomaly
 *                                        window around it (then replaces it with hotpath-window)
 *
 * Every overlay panel of a dashboard reads the same keys (one investigation per dashboard).
 * Grafana's own `from`/`to` keep the dashboard range; alert links set both (see
 * jsonnet/lib/alert-links.libsonnet).
 */
import type { UrlQueryMap } from '@grafana/data';

import { BASELINE_MODES, BaselineMode, isWindow, TimeWindow, VALUE_UNITS, ValueUnit } from '@hotpath/profile-core';


import { VIEWS, ViewKind } from '../components/types';

export type { ViewKind };

export const URL_KEYS = {
  window: 'hotpath-window',
  baseline: 'hotpath-baseline',
  view: 'hotpath-view',
  at: 'hotpath-at',
  unit: 'hotpath-unit',
  instance: 'hotpath-instance',
  endpoint: 'hotpath-endpoint',
} as const;

export interface UrlState {
  window?: TimeWindow;
  /** a window chosen by hand, or a mode that overrides the panel option */
  baseline?: TimeWindow | BaselineMode;
  view?: ViewKind;
  /** an alert link's moment (unix ms), until the panel turned it into a window */
  at?: number;
  unit?: ValueUnit;
  /** the instance of the siblings baseline */
  instance?: string;
  /** the endpoint the profiles are narrowed to */
  endpoint?: string;
}

export function baselineParam(b: TimeWindow | BaselineMode): string {
  return typeof b === 'string' ? b : formatWindowParam(b);
}

export function formatWindowParam(w: TimeWindow): string {
  return `${Math.round(w.from)}-${Math.round(w.to)}`;
}

/** "<from>-<to>" in unix ms (both > 0, from < to); anything else is undefined. */
export function parseWindowParam(v: unknown): TimeWindow | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (typeof s !== 'string' && typeof s !== 'number') {
    return undefined;
  }
  const m = /^\s*(\d{1,15})-(\d{1,15})\s*$/.exec(String(s));
  if (!m) {
    return undefined;
  }
  const w = { from: Number(m[1]), to: Number(m[2]) };
  return isWindow(w) ? w : undefined;
}

export interface ParsedUrlState {
  state: UrlState;
  /** keys present but unreadable: the panel says so instead of silently ignoring a link */
  problems: string[];
}

export function parseUrlState(query: UrlQueryMap): ParsedUrlState {
  const state: UrlState = {};
  const problems: string[] = [];
  const present = (k: string) => query[k] !== undefined && query[k] !== null && query[k] !== '';
  if (present(URL_KEYS.window)) {
    state.window = parseWindowParam(query[URL_KEYS.window]);
    if (!state.window) {
      problems.push(`${URL_KEYS.window}=${String(query[URL_KEYS.window])} is not <from ms>-<to ms>`);
    }
  }
  if (present(URL_KEYS.baseline)) {
    const raw = String(query[URL_KEYS.baseline]);
    state.baseline = (BASELINE_MODES as readonly string[]).includes(raw) ? (raw as BaselineMode) : parseWindowParam(raw);
    if (!state.baseline) {
      problems.push(`${URL_KEYS.baseline}=${raw} is neither <from ms>-<to ms> nor one of ${BASELINE_MODES.join(', ')}`);
    }
  }
  /** a key whose value must be one of a list: the value, or a problem named */
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
    const v = String(query[key]);
    if ((allowed as readonly string[]).includes(v)) {
      return v as T;
    }
    problems.push(`${key}=${v} is not one of ${allowed.join(', ')}`);
    return undefined;
  };
  if (present(URL_KEYS.view)) {
    state.view = oneOf<ViewKind>(URL_KEYS.view, VIEWS);
  }
  if (present(URL_KEYS.at)) {
    const raw = String(Array.isArray(query[URL_KEYS.at]) ? (query[URL_KEYS.at] as unknown[])[0] : query[URL_KEYS.at]);
    const at = /^\d{1,15}$/.test(raw.trim()) ? Number(raw) : NaN;
    if (at > 0) {
      state.at = at;
    } else {
      problems.push(`${URL_KEYS.at}=${raw} is not a time in unix ms`);
    }
  }
  if (present(URL_KEYS.unit)) {
    state.unit = oneOf<ValueUnit>(URL_KEYS.unit, VALUE_UNITS);
  }
  if (present(URL_KEYS.instance)) {
    state.instance = String(Array.isArray(query[URL_KEYS.instance]) ? (query[URL_KEYS.instance] as unknown[])[0] : query[URL_KEYS.instance]);
  }
  if (present(URL_KEYS.endpoint)) {
    state.endpoint = String(Array.isArray(query[URL_KEYS.endpoint]) ? (query[URL_KEYS.endpoint] as unknown[])[0] : query[URL_KEYS.endpoint]);
  }
  return { state, problems };
}

/** The query update for locationService.partial: absent values are null (partial removes them). */
export function urlUpdate(state: UrlState): Record<string, string | null> {
  return {
    [URL_KEYS.window]: state.window ? formatWindowParam(state.window) : null,
    [URL_KEYS.baseline]: state.baseline ? baselineParam(state.baseline) : null,
    [URL_KEYS.view]: state.view && state.view !== 'flame' ? state.view : null,
    [URL_KEYS.at]: state.at !== undefined ? String(Math.round(state.at)) : null,
    [URL_KEYS.unit]: state.unit ?? null,
    [URL_KEYS.instance]: state.instance ?? null,
    [URL_KEYS.endpoint]: state.endpoint ?? null,
  };
}

/** True when the URL already says what the state says (no write needed: no history churn). */
export function urlMatches(query: UrlQueryMap, state: UrlState): boolean {
  const want = urlUpdate(state);
  return Object.entries(want).every(([k, v]) => {
    const cur = query[k];
    const s = cur === undefined || cur === null || cur === '' ? null : String(Array.isArray(cur) ? cur[0] : cur);
    return s === v;
  });
}
