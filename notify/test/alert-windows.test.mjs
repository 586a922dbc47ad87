// Windows from the data: the onset found in the alert's own series, the baseline before it
// clear of the rate window, the same window a day (a week) earlier for an old onset and for a
// fixed cost, and the approximate rule, said as such, without Prometheus.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { chooseWindows } from '../lib/alert-windows.mjs';
import { alertSeries } from '../lib/prometheus.mjs';
import { DAY, MINUTE, RATE_WINDOW_MS, WEEK } from '../lib/windows.mjs';
import { downUrl } from './helpers.mjs';
import { startPrometheus } from './fake-prometheus.mjs';

const NOW = Date.parse('2026-01-02T12:00:00Z');
const cfg = (o = {}) => ({ pendingMs: 15 * MINUTE, minWindowMs: 5 * MINUTE, maxWindowMs: 60 * MINUTE, fetchTimeoutMs: 2000, ...o });
const m = (ms) => (ms - NOW) / MINUTE;
const rel = (w) => [m(w.from), m(w.to)];
const alert = (alertname, firedMinAgo, labels = {}, generatorURL = 'http://prom/graph?g0.expr=x') => ({
  labels: { alertname, job: 'api', ...labels },
  startsAt: new Date(NOW - firedMinAgo * MINUTE).toISOString(),
  status: 'firing',
  generatorURL,
});
/** a per-request series: `before` until onset (minutes before NOW), then 4x, with a wobble */
const stepAt = (onsetMinAgo, before = 0.004) => (t) => (t < NOW - onsetMinAgo * MINUTE ? before : 4 * before) * (1 + 0.05 * Math.sin(t / 97_000));

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function prom(rules) {
  const p = await startPrometheus(rules);
  servers.push(p);
  return p;
}

describe('chooseWindows', () => {
  it('for: 15m: the incident after the onset, the baseline of the same length before it, 5m clear of it', async () => {
    const p = await prom([[/job:cpu_seconds_per_request:ratio_rate5m/, stepAt(40)]]);
    const w = await chooseWindows(alert('CPUPerRequestRegression', 20), cfg({ prometheusUrl: p.url }), NOW);
    assert.equal(w.method, 'change point');
    assert.ok(Math.abs(m(w.onset) + 40) <= 2, `onset ${m(w.onset)}`);
    assert.ok(m(w.incident.from) >= m(w.onset) + 5 && w.incident.to === NOW, JSON.stringify(rel(w.incident)));
    assert.equal(w.baseline.to, w.onset - RATE_WINDOW_MS);
    assert.equal(w.baseline.to - w.baseline.from, w.incident.to - w.incident.from);
    assert.match(w.reason, /job:cpu_seconds_per_request:ratio_rate5m stepped up at 11:2\d UTC/);
    assert.ok(!w.approximate);
    assert.match(p.queries[0].query, /^job:cpu_seconds_per_request:ratio_rate5m\{job="api"\}$/);
    assert.equal(p.queries[0].end - p.queries[0].start, 2 * 60 * MINUTE, 'the last 2h first, at 15s');
  });

  it('a shortened for: (the playground\'s 2m): a step 4 minutes before the alert is found at 15s', async () => {
    const p = await prom([[/ratio_rate5m/, stepAt(5)]]);
    const w = await chooseWindows(alert('CPUPerRequestRegression', 1), cfg({ prometheusUrl: p.url }), NOW);
    assert.equal(w.method, 'change point', w.reason);
    assert.ok(Math.abs(m(w.onset) + 5) <= 0.5, `onset ${m(w.onset)}`);
    assert.ok(w.baseline.to <= w.onset - RATE_WINDOW_MS);
  });

  it('the old rule would have compared two windows inside the incident; the onset moves the baseline before it', async () => {
    // the alert fired 2h after its onset (a slow ramp of the ratio kept it pending)
    const p = await prom([[/ratio_rate5m/, stepAt(50)]]);
    const withProm = await chooseWindows(alert('CPUPerRequestRegression', 5), cfg({ prometheusUrl: p.url }), NOW);
    assert.ok(withProm.baseline.to <= NOW - 55 * MINUTE, JSON.stringify(rel(withProm.baseline)));
    const without = await chooseWindows(alert('CPUPerRequestRegression', 5), cfg(), NOW);
    assert.ok(without.baseline.to > NOW - 50 * MINUTE, 'the for: rule puts its baseline after the onset');
    assert.equal(without.approximate, true);
    assert.match(without.reason, /approximate: no Prometheus \(--prometheus\)/);
  });

  it('a receiver restarted mid-incident (onset 5h ago): the last hour against the same hour a day earlier', async () => {
    const p = await prom([[/ratio_rate5m/, stepAt(300)]]);
    const w = await chooseWindows(alert('AllocationsPerRequestRegression', 280), cfg({ prometheusUrl: p.url }), NOW);
    assert.deepEqual(rel(w.incident), [-60, 0]);
    assert.deepEqual(rel(w.baseline), [-60 - DAY / MINUTE, -DAY / MINUTE]);
    assert.match(w.reason, /more than 1h ago: the same window a day earlier/);
    assert.match(p.queries[0].query, /^job:alloc_bytes_per_request:ratio_rate5m/);
  });

  it('an onset more than a day ago (high all day): found in the last week, compared with a week earlier', async () => {
    const p = await prom([[/ratio_rate5m/, stepAt(30 * 60)]]);
    const w = await chooseWindows(alert('CPUPerRequestRegression', 29 * 60), cfg({ prometheusUrl: p.url }), NOW);
    assert.deepEqual(rel(w.baseline), [-60 - WEEK / MINUTE, -WEEK / MINUTE], w.reason);
    assert.match(w.reason, /more than 1h ago: the same window a week earlier/);
    assert.deepEqual(p.queries.map((q) => (q.end - q.start) / DAY), [1 / 12, 1, 7], 'the last 2h, the day, then the week');
  });

  it('CPUNotTrackingLoad compares with the same hour a day earlier, with or without Prometheus', async () => {
    const gen = 'http://prom/graph?g0.expr=' + encodeURIComponent('(job:cpu_seconds:recent_fixed_share >= 0.8 and job:requests:recent_cv >= 0.25 unless job:cpu_seconds:long_fixed_share)');
    const p = await prom([[/fixed_share/, (t) => (t < NOW - 6 * 60 * MINUTE ? 0.1 : 0.95)]]);
    const w = await chooseWindows(alert('CPUNotTrackingLoad', 10, {}, gen), cfg({ prometheusUrl: p.url }), NOW);
    assert.deepEqual(rel(w.baseline), [-60 - DAY / MINUTE, -DAY / MINUTE]);
    assert.match(w.reason, /the same hour a day earlier: a fixed cost can start hours before its alert fires; the fixed cost stepped up at 06:0\d UTC/);
    assert.match(p.queries[0].query, /^job:cpu_seconds:recent_fixed_share\{job="api"\}/, 'the share the rule judged');
    const n = await chooseWindows(alert('CPUNotTrackingLoad', 10), cfg(), NOW);
    assert.deepEqual(rel(n.baseline), [-60 - DAY / MINUTE, -DAY / MINUTE]);
    assert.equal(n.approximate, true);
  });

  it('Prometheus down, or a series without a step: the approximate rule, saying why', async () => {
    const down = await chooseWindows(alert('CPUPerRequestRegression', 10), cfg({ prometheusUrl: await downUrl() }), NOW);
    assert.equal(down.approximate, true);
    assert.match(down.reason, /approximate: Prometheus http:\/\/127\.0\.0\.1:\d+ unreachable/);
    const flat = await prom([[/ratio_rate5m/, () => 0.004]]);
    const f = await chooseWindows(alert('CPUPerRequestRegression', 10), cfg({ prometheusUrl: flat.url }), NOW);
    assert.equal(f.approximate, true);
    assert.match(f.reason, /approximate: no step up in the series over the last day \(job:cpu_seconds_per_request:ratio_rate5m\)/);
    assert.equal(f.baseline.to, f.anomaly.from - RATE_WINDOW_MS, 'the baseline ends a rate window before the anomaly');
    assert.equal(f.baseline.to - f.baseline.from, f.incident.to - f.incident.from);
    assert.match(f.reason, /and the baseline ends 5m \(the rate window\) before that$/);
  });

  it('the approximate rule keeps its baseline clear of an onset up to a rate window before the condition held', async () => {
    // for: 2m, fired a minute ago: the condition held from 3 minutes ago, after a step 6 minutes
    // ago whose 5m rate took 3 minutes to cross the threshold
    const w = await chooseWindows(alert('CPUPerRequestRegression', 1), cfg({ pendingMs: 2 * MINUTE, prometheusUrl: await downUrl() }), NOW);
    assert.equal(w.approximate, true);
    assert.ok(m(w.baseline.to) <= -6, `baseline ${JSON.stringify(rel(w.baseline))} holds the onset 6 minutes ago`);
    assert.ok(m(w.incident.from) >= -6, `incident ${JSON.stringify(rel(w.incident))}`);
  });

  it('a function new among its service\'s rows: its series begins 12 minutes ago, that is the onset; a function row older than the search is no onset', async () => {
    const young = (t) => (t >= NOW - 12 * MINUTE ? 0.0006 * (1 + 0.05 * Math.sin(t / 97_000)) : undefined);
    const p = await prom([[/job_function:cpu_seconds_per_request:ratio_rate5m/, young]]);
    const fn = alert('FunctionCostPerRequestRegression', 3, { function: 'text.appendString', profile_type: 'cpu' });
    const w = await chooseWindows(fn, cfg({ prometheusUrl: p.url }), NOW);
    assert.ok(!w.approximate, w.reason);
    assert.ok(Math.abs(m(w.onset) + 12) <= 0.5, `onset ${m(w.onset)}`);
    assert.equal(w.baseline.to, w.onset - RATE_WINDOW_MS, 'the baseline ends clear of the first point');
    assert.match(w.reason, /^job_function:cpu_seconds_per_request:ratio_rate5m begins at 11:4\d UTC: the function is new among its service's rows/);
    // the same flat series, there all along: no onset, the approximate rule
    const old = await prom([[/job_function:cpu_seconds_per_request:ratio_rate5m/, () => 0.0006]]);
    assert.equal((await chooseWindows(fn, cfg({ prometheusUrl: old.url }), NOW)).approximate, true);
    // a service alert whose series begins lately (a new service): not taken for an onset
    const svc = await prom([[/ratio_rate5m/, young]]);
    assert.equal((await chooseWindows(alert('CPUPerRequestRegression', 3), cfg({ prometheusUrl: svc.url }), NOW)).approximate, true);
  });

  it('an outlier: the onset of its own series, the siblings over the same window', async () => {
    const p = await prom([[/instance:cpu_seconds_per_request/, stepAt(30)]]);
    const w = await chooseWindows(alert('CPUPerRequestOutlier', 10, { instance: 'i1' }), cfg({ prometheusUrl: p.url }), NOW);
    assert.deepEqual(w.baseline, w.incident);
    assert.match(w.reason, /^the other instances of the service over the same window \(instance:cpu_seconds_per_request:ratio_rate5m stepped up/);
    assert.match(p.queries[0].query, /instance:cpu_seconds_per_request:ratio_rate5m\{job="api", instance="i1"\}/);
  });
});

describe('alertSeries', () => {
  it('reads the request rate the panel reads, with the alert\'s identity labels', () => {
    assert.deepEqual(alertSeries(alert('CPUPerRequestAboveUpstream', 1, { namespace: 'shop', upstream: 'cache' })), {
      series: 'job:cpu_seconds_per_request:ratio_to_upstream{namespace="shop", job="api", upstream="cache"}',
      requests: 'sum(job:requests:rate5m{namespace="shop", job="api"})',
      cores: undefined,
    });
    assert.equal(alertSeries(alert('CPUThrottlingSustained', 1)), undefined);
    assert.match(alertSeries(alert('CPUNotTrackingLoad', 1)).series, /^job:cpu_seconds:long_fixed_share/, 'the long fit when the URL does not say');
  });
});
