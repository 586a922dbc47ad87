// The throttling answer of an alert on a container's CPU quota (CPUThrottlingSustained): its CPU
// usage against its limit and request, the throttled time per second and per request, how bursty
// the usage is, GOMAXPROCS against the limit, and a suggested limit (or "remove the limit") with
// its reason. Read from Prometheus over the incident through the catalogue's queries
// (jsonnet/lib/throttling-answer.libsonnet), which carry this config's series and knobs.
import { catalogueAlert } from './catalogue.mjs';
import { alertSelector, PrometheusError, queryInstant, queryVector } from './prometheus.mjs';
import { alertSpan, alertWindows } from './windows.mjs';

/** The catalogue's throttling spec of an alert ({ queries, burstyRatio, ... }), undefined for other alerts. */
export function throttlingSpec(alertname) {
  return catalogueAlert(alertname)?.throttling ?? undefined;
}

/** A query of the spec with the alert's matchers and the incident's length filled in. */
export function fillQuery(template, labels, names, rangeMs) {
  const inner = (sel) => sel.slice(1, -1); // {a="1", b="2"} -> a="1", b="2"
  const container = inner(alertSelector(labels, names));
  const pod = inner(alertSelector(labels, names.filter((n) => n !== names[names.length - 1])));
  return template
    .replaceAll('$container', container)
    .replaceAll('$pod', pod)
    .replaceAll('$range', `${Math.max(60, Math.round(rangeMs / 1000))}s`);
}

/**
 * The figures of the incident, read at its end: { window, usage, peak, limit, request, throttled,
 * podRequests, services, gomaxprocs }; a figure without a series is undefined.
 */
export async function fetchThrottling(baseUrl, alert, spec, window, { timeoutMs = 10_000 } = {}) {
  const labels = alert.labels ?? {};
  // the catalogue's label list of a container alert ends with the container label
  const names = catalogueAlert(labels.alertname).labels;
  const q = (name) => fillQuery(spec.queries[name], labels, names, window.to - window.from);
  const at = { timeMs: window.to, timeoutMs };
  const scalars = ['usage', 'peak', 'limit', 'request', 'throttled', 'podRequests', 'gomaxprocs'];
  const [values, services] = await Promise.all([
    Promise.all(scalars.map((name) => queryInstant(baseUrl, q(name), at))),
    queryVector(baseUrl, q('services'), at),
  ]);
  return {
    window: { from: window.from, to: window.to },
    ...Object.fromEntries(scalars.map((name, i) => [name, values[i]])),
    services: services.map((s) => s.metric?.[spec.serviceLabel]).filter(Boolean).sort(),
  };
}

/** Cores rounded up to a step (0.1: 100 millicores), as a whole number of millicores. */
export function roundUpMillicores(cores, step) {
  const m = Math.round(step * 1000);
  return Math.max(m, Math.ceil(Math.round(cores * 1e6) / 1000 / m) * m);
}

/**
 * The answer from the figures (pure): per-request throttling, burstiness, GOMAXPROCS and the
 * suggestion. The rule (docs/runbook.md, CPUThrottlingSustained):
 * - demand: the higher of the short-window peak and the mean usage plus the throttled time (the
 *   throttled threads were runnable, so it bounds what they wanted from above);
 * - bursty: the peak is at least burstyRatio times the 5m mean;
 * - "remove the limit" when the container is bursty, serves requests (latency-sensitive) and has
 *   a request that covers its mean usage: the request keeps its share, bursts borrow idle CPU;
 * - else "raise the limit" to the demand times headroom, rounded up to stepCores (at least one
 *   step above the current limit).
 */
export function judgeThrottling(f, spec) {
  const perRequest = f.throttled !== undefined && f.podRequests > 0 ? f.throttled / f.podRequests : undefined;
  const burst = f.peak !== undefined && f.usage > 0 ? f.peak / f.usage : undefined;
  const bursty = burst !== undefined && burst >= spec.burstyRatio;
  const servesRequests = f.podRequests > 0;
  const gomaxprocsAdvice = f.gomaxprocs !== undefined && f.limit > 0 && f.gomaxprocs > Math.max(1, Math.ceil(f.limit)) ? { threads: f.gomaxprocs, advise: Math.max(1, Math.floor(f.limit)), exhaustMs: (f.limit * spec.cfsPeriodSeconds * 1000) / f.gomaxprocs } : undefined;
  let suggestion;
  if (f.usage === undefined) {
    suggestion = { action: 'none', why: 'no CPU usage series for the container over the incident' };
  } else if (bursty && servesRequests && f.request > 0 && f.usage <= f.request) {
    suggestion = { action: 'remove', request: f.request };
  } else {
    const demand = Math.max(f.peak ?? 0, f.usage + (f.throttled ?? 0));
    const floor = f.limit > 0 ? roundUpMillicores(f.limit, spec.stepCores) + Math.round(spec.stepCores * 1000) : 0;
    const millicores = Math.max(roundUpMillicores(demand * spec.headroom, spec.stepCores), floor);
    suggestion = { action: 'raise', millicores, demand, from: f.peak !== undefined && f.peak >= f.usage + (f.throttled ?? 0) ? 'peak' : 'usage+throttled' };
  }
  return { ...f, perRequest, burst, bursty, servesRequests, gomaxprocsAdvice, suggestion, burstWindow: spec.burstWindow, headroom: spec.headroom };
}

/**
 * The throttling answer of an alert: judgeThrottling's result, { why } when Prometheus cannot say,
 * undefined for an alert that is not about a container's quota.
 * @param {object} cfg { prometheusUrl?, fetchTimeoutMs, pendingMs, minWindowMs, maxWindowMs }
 */
export async function throttlingAnswer(alert, cfg, now) {
  const spec = throttlingSpec(alert.labels?.alertname);
  if (!spec) {
    return undefined;
  }
  if (!cfg.prometheusUrl) {
    return { why: 'no Prometheus (--prometheus) to read the container\'s usage, limit and throttling from' };
  }
  const a = alertSpan(alert);
  const { incident } = alertWindows(a, { ...cfg, now });
  try {
    return judgeThrottling(await fetchThrottling(cfg.prometheusUrl, alert, spec, incident, { timeoutMs: cfg.fetchTimeoutMs }), spec);
  } catch (e) {
    if (e instanceof PrometheusError) {
      return { why: e.message };
    }
    throw e;
  }
}
