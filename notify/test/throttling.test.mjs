// The throttling answer of CPUThrottlingSustained, read from a real Prometheus holding the series
// the rule pack records and the raw counters it reads: the cfs story (a bursty Go worker, 0.2-core
// limit, throttled 1.8 s/s: remove the limit, GOMAXPROCS 8 against it), a steady container near its
// limit (raise it, never remove), and a container with kube-prometheus-stack's defaults (no limit,
// no request, no requests counted: each said in one line).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { buildMessage } from '../lib/message.mjs';
import { judgeThrottling, roundUpMillicores, throttlingAnswer, throttlingSpec } from '../lib/throttling.mjs';
import { alert, downUrl, post, startNotifier, waitFor, webhook } from './helpers.mjs';
import { startRealPrometheus } from './real-prometheus.mjs';

const MIN = 60_000;
const STEP = 15_000;
// the alert is judged at NOW; the series end there, 3h long
const NOW = Math.floor(Date.now() / MIN) * MIN - 2 * MIN;
const START = NOW - 3 * 60 * MIN;
const CFG = { pendingMs: 15 * MIN, minWindowMs: 5 * MIN, maxWindowMs: 60 * MIN, fetchTimeoutMs: 20_000 };

/** Points every STEP from START to NOW of f(t). */
const points = (f) => {
  const out = [];
  for (let t = START; t <= NOW; t += STEP) {
    out.push([t, f(t)]);
  }
  return out;
};
/** A counter whose rate is rate(t) (cores, req/s), as the integral over STEP pieces. */
const counter = (rate) => {
  let total = 0;
  return points((t) => {
    total += t === START ? 0 : rate(t - STEP) * (STEP / 1000);
    return Number(total.toFixed(6));
  });
};
/** The 5m rate of rate(t) at each point, as container:cpu_usage_seconds:rate5m records it. */
const rate5m = (rate) =>
  points((t) => {
    let s = 0;
    for (let u = t - 5 * MIN; u < t; u += STEP) {
      s += rate(u);
    }
    return Number((s / (5 * MIN / STEP)).toFixed(6));
  });

const ids = (pod, container) => ({ namespace: 'shop', pod, container });
// the cfs story: 2 minutes at the 0.2-core limit every 8 minutes, idle otherwise (mean 0.05)
const bursty = (t) => (Math.floor((t - START) / MIN) % 8 < 2 ? 0.2 : 0);
const steady = () => 0.48;
const sidecar = () => 0.3;

function world() {
  const s = [];
  const add = (name, labels, pts) => s.push({ name, labels, points: pts });
  const container = (c, usage, { limit, request, throttled, requests, job, gomaxprocs }) => {
    add('container_cpu_usage_seconds_total', { ...c, job: 'kubelet' }, counter(usage));
    add('container:cpu_usage_seconds:rate5m', c, rate5m(usage));
    add('container:cpu_cfs_throttled_seconds:rate5m', c, points(() => throttled));
    if (limit !== undefined) add('container:cpu_limit_cores:ratio', c, points(() => limit));
    if (request !== undefined) add('container:cpu_request_cores:max', c, points(() => request));
    if (requests !== undefined) add('http_requests_total', { namespace: c.namespace, pod: c.pod, job }, counter(() => requests));
    if (gomaxprocs !== undefined) add('go_sched_gomaxprocs_threads', { namespace: c.namespace, pod: c.pod, job }, points(() => gomaxprocs));
  };
  container(ids('worker-7d9f8b6c5-x2x4z', 'worker'), bursty, { limit: 0.2, request: 0.1, throttled: 1.8, requests: 50, job: 'worker', gomaxprocs: 8 });
  container(ids('search-5c2a9f7d1-abcde', 'search'), steady, { limit: 0.5, request: 0.5, throttled: 0.3, requests: 100, job: 'search' });
  container(ids('shipper-6b1c', 'fluent-bit'), sidecar, { throttled: 0.2 });
  return s;
}

const fired = (c, extra = {}) => alert({ alertname: 'CPUThrottlingSustained', job: '', fingerprint: `f${c.container.length}${c.pod.length}`, startsAt: new Date(NOW - 5 * MIN).toISOString(), labels: c, ...extra });
const close = (actual, expected, tol, what) => assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual}, want ${expected} ± ${tol}`);
const text = (t) => buildMessage({ alert: fired(ids('p', 'c')), status: 'firing', throttling: t, reason: 'no profile for this alert' }).text;

describe('the throttling answer from a real Prometheus', () => {
  let prom;
  const answer = (c, cfg = {}) => throttlingAnswer(fired(c), { ...CFG, prometheusUrl: prom.url, ...cfg }, NOW);
  before(async () => {
    prom = await startRealPrometheus(world());
  });
  after(() => prom?.close());

  it('the cfs story: usage, limit, request, throttled time per request, bursts, GOMAXPROCS; remove the limit', async () => {
    const t = await answer(ids('worker-7d9f8b6c5-x2x4z', 'worker'));
    close(t.usage, 0.05, 0.006, 'mean usage over the incident');
    close(t.peak, 0.2, 0.01, 'the 1m peak');
    assert.equal(t.limit, 0.2);
    assert.equal(t.request, 0.1);
    close(t.throttled, 1.8, 1e-9, 'throttled s/s');
    close(t.podRequests, 50, 0.01, 'req/s of the pod');
    close(t.perRequest, 0.036, 1e-4, 'throttled seconds per request');
    assert.deepEqual(t.services, ['worker']);
    assert.ok(t.bursty, `peak/mean ${t.burst}`);
    assert.deepEqual(t.suggestion, { action: 'remove', request: 0.1 });
    assert.equal(t.gomaxprocs, 8);
    assert.equal(t.gomaxprocsAdvice.advise, 1);
    close(t.gomaxprocsAdvice.exhaustMs, 2.5, 1e-9, '20ms of quota spent by 8 threads');
    const m = text(t);
    assert.match(m, /\*CPU quota:\* 0\.0\d cores used on average against a limit of 0\.20 cores \(2\d% used\) and a request of 0\.10 cores\./);
    assert.match(m, /\*Throttled:\* 1\.80 s\/s, at most 36\.0 ms added per request of `worker` \(50 req\/s\)\./);
    assert.match(m, /\*Bursty:\* 1m peaks reach 0\.2\d cores, [34]\.\d× the 5m mean/);
    assert.match(m, /\*GOMAXPROCS:\* 8 against a limit of 0\.20 cores: 8 threads spend a CFS period's quota in 2\.5 ms, then wait\. Set it to 1 /);
    assert.match(m, /\*Suggestion:\* remove the limit and keep the request of 0\.10 cores/);
    assert.ok(m.indexOf('*CPU quota:*') < m.indexOf('*No profile diff:*'), 'the answer leads the message');
    assert.doesNotMatch(m, /_No /, 'every series is there');
  });

  it('a steady container near its limit: raise the limit to a rounded value above the demand, not remove it', async () => {
    const t = await answer(ids('search-5c2a9f7d1-abcde', 'search'));
    close(t.usage, 0.48, 1e-6, 'mean usage');
    assert.equal(t.bursty, false);
    // demand: 0.48 used + 0.3 throttled = 0.78 cores, x1.25 = 0.975 -> 1000m
    assert.equal(t.suggestion.action, 'raise');
    assert.equal(t.suggestion.millicores, 1000);
    assert.equal(t.suggestion.from, 'usage+throttled');
    close(t.perRequest, 0.003, 1e-6, 'throttled seconds per request');
    const m = text(t);
    assert.match(m, /\*Steady:\* 1m peaks reach 0\.48 cores, 1\.0× the 5m mean/);
    assert.match(m, /\*Suggestion:\* raise the limit to 1000m: its mean usage plus throttled time is 0\.78 cores, with 25% headroom, above today's 500m\./);
    assert.doesNotMatch(m, /remove the limit/);
    assert.match(m, /_No GOMAXPROCS series \(go_sched_gomaxprocs_threads/, 'not a Go service: said once');
  });

  it("kube-prometheus-stack's defaults: no limit, no request, no requests counted, each said in one line", async () => {
    const t = await answer(ids('shipper-6b1c', 'fluent-bit'));
    assert.equal(t.limit, undefined);
    assert.equal(t.request, undefined);
    assert.equal(t.perRequest, undefined);
    assert.deepEqual(t.services, []);
    // 0.3 used + 0.2 throttled = 0.5 cores, x1.25 = 0.625 -> 700m
    assert.deepEqual(t.suggestion, { action: 'raise', millicores: 700, demand: 0.5, from: 'usage+throttled' });
    const m = text(t);
    assert.match(m, /\*CPU quota:\* 0\.30 cores used on average\./);
    assert.match(m, /_No CPU limit series \(cAdvisor's container_spec_cpu_quota, or kube-state-metrics' limits; kube-prometheus-stack drops container_spec_\* by default\)/);
    assert.match(m, /_No CPU request series/);
    assert.match(m, /_Not per request: the pod serves no requests hotpath counts\._/);
    assert.match(m, /\*Throttled:\* 0\.20 s\/s\./);
    assert.match(m, /\*Suggestion:\* raise the limit to 700m: its mean usage plus throttled time is 0\.50 cores, with 25% headroom\./);
  });

  it('a container Prometheus has nothing on: no usage, no suggestion, no crash', async () => {
    const t = await answer(ids('gone-1', 'app'));
    assert.equal(t.usage, undefined);
    assert.equal(t.suggestion.action, 'none');
    const m = text(t);
    assert.match(m, /_No CPU usage series for this container over the incident/);
    assert.match(m, /_No suggested limit: no CPU usage series/);
  });

  it('the whole receiver: the message leads with the answer, and messages.jsonl keeps it under throttling', async () => {
    const n = await startNotifier({ profilesUrl: await downUrl(), prometheusUrl: prom.url, now: () => NOW });
    try {
      const a = fired(ids('worker-7d9f8b6c5-x2x4z', 'worker'));
      await post(n.url, webhook([a]));
      const file = join(n.dir, 'out', 'messages.jsonl');
      const line = await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').split('\n').find(Boolean), 30_000, 'the message');
      const m = JSON.parse(line);
      assert.equal(m.throttling.suggestion.action, 'remove');
      assert.equal(m.throttling.limit, 0.2);
      assert.match(m.reason, /^no profile for this alert: throttling/);
      assert.match(m.payload.blocks[1].text.text, /^\*CPU quota:\* /);
    } finally {
      await n.close();
    }
  });
});

describe('the throttling answer without Prometheus', () => {
  it('Prometheus down: one line that says so, as the other answers', async () => {
    const t = await throttlingAnswer(fired(ids('worker-1', 'worker')), { ...CFG, prometheusUrl: await downUrl() }, NOW);
    assert.match(t.why, /^Prometheus http:\/\/127\.0\.0\.1:\d+ unreachable: ECONNREFUSED$/);
    assert.match(text(t), /^_No throttling figures: Prometheus http:\/\/127\.0\.0\.1:\d+ unreachable: ECONNREFUSED\._$/m);
  });

  it('no --prometheus: said; an alert not about a quota has no throttling answer', async () => {
    assert.match((await throttlingAnswer(fired(ids('w', 'c')), CFG, NOW)).why, /^no Prometheus \(--prometheus\)/);
    assert.equal(await throttlingAnswer(alert(), { ...CFG, prometheusUrl: 'http://127.0.0.1:1' }, NOW), undefined);
  });
});

describe('judgeThrottling', () => {
  const spec = throttlingSpec('CPUThrottlingSustained');
  const judge = (f) => judgeThrottling({ services: [], ...f }, spec);

  it("the catalogue carries the config's knobs", () => {
    assert.deepEqual([spec.burstWindow, spec.burstyRatio, spec.headroom, spec.cfsPeriodSeconds], ['1m', 2, 1.25, 0.1]);
  });

  it('bursty but no request: raise the limit (without a request, no limit leaves the container unbounded)', () => {
    const t = judge({ usage: 0.05, peak: 0.2, limit: 0.2, throttled: 1.8, podRequests: 50 });
    assert.equal(t.bursty, true);
    assert.equal(t.suggestion.action, 'raise');
  });

  it('bursty with a request below the mean usage: raise, not remove', () => {
    assert.equal(judge({ usage: 0.3, peak: 0.8, limit: 0.8, request: 0.1, throttled: 0.2, podRequests: 10 }).suggestion.action, 'raise');
  });

  it('bursty with a request, but serving no requests (a batch job): raise, not remove', () => {
    assert.equal(judge({ usage: 0.05, peak: 0.2, limit: 0.2, request: 0.1, throttled: 0.5 }).suggestion.action, 'raise');
  });

  it('the suggestion is at least a step above the current limit, rounded up to the step', () => {
    assert.equal(judge({ usage: 0.9, peak: 1, limit: 1, throttled: 0 }).suggestion.millicores, 1300, '1.0 x 1.25 = 1.25 -> 1300m');
    assert.equal(judge({ usage: 0.1, peak: 0.1, limit: 2, throttled: 0.1 }).suggestion.millicores, 2100, 'one step above 2000m');
    assert.equal(roundUpMillicores(0.975, 0.1), 1000);
    assert.equal(roundUpMillicores(0.0001, 0.1), 100);
  });

  it('GOMAXPROCS within the limit gets no advice', () => {
    assert.equal(judge({ usage: 1, peak: 2, limit: 2, gomaxprocs: 2, throttled: 0.2 }).gomaxprocsAdvice, undefined);
    assert.equal(judge({ usage: 1, peak: 2, limit: 2, gomaxprocs: 4, throttled: 0.2 }).gomaxprocsAdvice.advise, 2);
  });
});
