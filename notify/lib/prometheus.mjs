// The Prometheus reads of a message: the alert's recorded series over the last day (where the
// incident started) and the request rate of both windows (per-request units). Prometheus's
// HTTP API (GET /api/v1/query_range), which Thanos Query and Mimir answer too.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

import { catalogueAlert } from './catalogue.mjs';
import { labelSelector } from './pyroscope.mjs';

const d = await dataLayer();

/** A failure that makes the windows approximate; the message states it in one line. */
export class PrometheusError extends Error {}

/** The expression of an alert's generatorURL (Prometheus: /graph?g0.expr=...), or ''. */
export function generatorExpr(generatorURL) {
  try {
    return new URL(generatorURL).searchParams.get('g0.expr') ?? '';
  } catch {
    return '';
  }
}

/**
 * What to read for an alert: { series, requests, selector, requestsSelector, cores? } as PromQL,
 * or undefined for an alert without a recorded series of its own (throttling).
 */
export function alertSeries(alert) {
  const l = alert.labels ?? {};
  // The catalogue names the recorded series each alert judges, and the request rate the panel
  // reads beside it (the service dashboard's request-rate query) at the alert's level.
  const a = catalogueAlert(l.alertname);
  if (!a || a.series.length === 0) {
    return undefined;
  }
  // Of several series (a fixed cost judged on the recent and the long fit), the one the rule's
  // expression names first; the first listed when the generatorURL does not say.
  const expr = generatorExpr(alert.generatorURL);
  const named = a.series.map((name) => [name, expr.indexOf(name)]).filter(([, at]) => at >= 0);
  // A function or endpoint alert judges the series of its own profile type (its profile_type label).
  const series = (a.functionCost ?? a.endpointCost)?.[l.profile_type]?.series ?? (named.length > 0 ? named.reduce((x, y) => (y[1] < x[1] ? y : x))[0] : a.series[0]);
  const sel = (names) => alertSelector(l, names);
  // the request rate is the service's (an endpoint's: its route's): neither an upstream's nor a function's
  const requestLabels = a.labels.filter((k) => k !== 'upstream' && k !== 'function');
  return {
    series: `${series}${sel(a.seriesLabels ?? a.labels)}`,
    requests: `sum(${a.requests}${sel(requestLabels)})`,
    cores: a.cores ? `sum(${a.cores}${sel(requestLabels)})` : undefined,
  };
}

/** `{job="api", namespace="shop"}`: the matchers of the `names` an alert's labels carry. */
export function alertSelector(labels, names) {
  return labelSelector(Object.fromEntries(names.filter((k) => labels?.[k]).map((k) => [k, labels[k]])));
}

/** GET /api/v1/query_range; returns the values of the first series ([[unix s, "v"], ...]), [] when none. */
export async function queryRange(baseUrl, expr, { start, end, stepS }, { timeoutMs = 10_000 } = {}) {
  const data = await apiGet(baseUrl, 'query_range', { query: expr, start: String(start / 1000), end: String(end / 1000), step: `${Math.max(1, Math.round(stepS))}s` }, timeoutMs);
  return data?.result?.[0]?.values ?? [];
}

/** GET /api/v1/query at timeMs; returns the first sample's value, undefined when there is none. */
export async function queryInstant(baseUrl, expr, { timeMs, timeoutMs = 10_000 }) {
  const data = await apiGet(baseUrl, 'query', { query: expr, time: String(timeMs / 1000) }, timeoutMs);
  const v = Number(data?.result?.[0]?.value?.[1]);
  return Number.isFinite(v) ? v : undefined;
}

/** GET /api/v1/query at timeMs; returns every series of the answer ([{ metric, value }]). */
export async function queryVector(baseUrl, expr, { timeMs, timeoutMs = 10_000 }) {
  const data = await apiGet(baseUrl, 'query', { query: expr, time: String(timeMs / 1000) }, timeoutMs);
  return data?.result ?? [];
}

/** GET /api/v1/<path> with params; returns the answer's data, or throws a PrometheusError that says what failed. */
async function apiGet(baseUrl, path, params, timeoutMs) {
  const u = new URL(`${baseUrl.replace(/\/$/, '')}/api/v1/${path}`);
  for (const [k, v] of Object.entries(params)) {
    u.searchParams.set(k, v);
  }
  let res;
  try {
    res = await fetch(u, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new PrometheusError(`Prometheus ${baseUrl} unreachable: ${why}`);
  }
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PrometheusError(`Prometheus answered ${res.status} with something that is not its API: ${text.slice(0, 120).replace(/\s+/g, ' ')}`);
  }
  if (body.status !== 'success') {
    throw new PrometheusError(`Prometheus answered ${res.status}: ${body.errorType ?? ''} ${body.error ?? ''}`.trim());
  }
  return body.data;
}

/**
 * The mean over a window of a rate series read from Prometheus ([[unix s, "v"], ...]), undefined
 * when the window has no point: the panel's request count (profile-core's requestsInWindow, the
 * range read from the expression), so a message's counts are the panel's, a window right after
 * a traffic step included.
 */
function meanInWindow(values, w, expr) {
  const times = values.map(([t]) => t * 1000);
  const c = d.requestsInWindow(times, values.map(([, v]) => Number(v)), w.from, w.to, d.rateRangeMs(expr));
  // zero is a mean like any other here; only a window without a point has none
  return c.ok ? c.count / ((w.to - w.from) / 1000) : c.reason === 'zero' ? 0 : undefined;
}

/** The mean of `expr` over one window, read at ~60 points; undefined when the window has none. */
async function windowMean(baseUrl, expr, w, timeoutMs) {
  const values = await queryRange(baseUrl, expr, { start: w.from, end: w.to, stepS: Math.max(15, (w.to - w.from) / 1000 / 60) }, { timeoutMs });
  return meanInWindow(values, w, expr);
}

/**
 * The request rate (req/s) and, for a fixed-cost alert, the CPU (cores) of both windows, from
 * the series the panel reads. `siblings`: the baseline is every other instance of the service.
 * @returns {Promise<{ incident: {rate, cores?}, baseline: {rate, cores?} }>}
 */
export async function windowLoad(baseUrl, alert, windows, { siblings = false, timeoutMs = 10_000 } = {}) {
  const s = alertSeries(alert);
  if (!s) {
    throw new PrometheusError(`no request-rate series for ${alert.labels?.alertname}`);
  }
  const baseExpr = (e) => (siblings ? e.replace(/instance="((?:[^"\\]|\\.)*)"/, 'instance!="$1"') : e);
  const [ri, rb, ci, cb] = await Promise.all([
    windowMean(baseUrl, s.requests, windows.incident, timeoutMs),
    windowMean(baseUrl, baseExpr(s.requests), windows.baseline, timeoutMs),
    s.cores ? windowMean(baseUrl, s.cores, windows.incident, timeoutMs) : undefined,
    s.cores ? windowMean(baseUrl, s.cores, windows.baseline, timeoutMs) : undefined,
  ]);
  return { incident: { rate: ri, cores: ci }, baseline: { rate: rb, cores: cb } };
}
