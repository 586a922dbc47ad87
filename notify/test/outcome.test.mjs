// How a resolved regression ended: recovered, the new normal, or ended with its data; judged from
// the cost per request before (the model when the alert fired, at today's traffic) and now, read
// from Prometheus through the catalogue's queries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { buildMessage } from '../lib/message.mjs';
import { judgeOutcome, outcomeQueries, regressionOutcome } from '../lib/outcome.mjs';
import { startPrometheus } from './fake-prometheus.mjs';

const HOUR = 3_600_000;
const fired = Date.parse('2026-01-01T06:40:00Z');
const judge = (over) => judgeOutcome({ before: 0.0063, now: 0.0064, threshold: 1.22, factor: 1.5, firedAtMs: fired, endedAtMs: fired + 3 * HOUR, acceptAfterMs: 24 * HOUR, unit: 'seconds', ...over });
const alert = (name, endsAt) => ({
  labels: { alertname: name, job: 'api', namespace: 'shop', severity: 'warning' },
  annotations: { summary: 'A service uses more CPU.' },
  startsAt: new Date(fired).toISOString(),
  endsAt: new Date(endsAt).toISOString(),
  status: 'resolved',
});

describe('judgeOutcome', () => {
  it('back under the ratio the alert fired on: recovered, in ns per request', () => {
    const o = judge({});
    assert.equal(o.kind, 'recovered');
    assert.equal(o.before, 6.3e6);
    assert.equal(o.unit, 'ns');
    assert.equal(o.limit, 1.22, 'the noise threshold, under the fixed factor');
  });

  it('still as high after the acceptance horizon: the new normal since the alert fired', () => {
    const o = judge({ now: 0.0082, endedAtMs: fired + 26 * HOUR });
    assert.equal(o.kind, 'newNormal');
    assert.equal(o.since, '2026-01-01T06:40:00.000Z');
    assert.ok(Math.abs(o.ratio - 0.0082 / 0.0063) < 1e-12);
  });

  it('still as high before the horizon: ended with its data, not recovered', () => {
    assert.equal(judge({ now: 0.0082 }).kind, 'notJudged');
  });

  it('without a noise threshold, the fixed factor judges', () => {
    assert.equal(judge({ now: 0.0082, threshold: undefined }).kind, 'recovered', '1.30 < 1.5');
    assert.equal(judge({ now: 0.0099, threshold: undefined }).kind, 'notJudged', '1.57 >= 1.5');
  });

  it('no cost per request before or now: the reason, no verdict', () => {
    assert.match(judge({ before: undefined }).why, /no cost per request/);
    assert.match(judge({ before: 0 }).why, /no cost per request/);
    assert.match(judge({ now: undefined }).why, /no cost per request/);
  });
});

describe('outcomeQueries', () => {
  it('the regression alerts read the model as the alert fired, only their service', () => {
    for (const name of ['CPUPerRequestRegression', 'AllocationsPerRequestRegression']) {
      const q = outcomeQueries(alert(name, fired));
      assert.ok(q, name);
      const b = q.before(1767249600);
      assert.match(b, /@ 1767249600/, 'the model when the alert fired');
      assert.doesNotMatch(b, /\{\{at\}\}/);
      assert.match(b, /job:requests:rate5m\{namespace="shop", job="api"\}/, 'only the alert\'s service');
      assert.match(q.threshold(1767249600), /residual_threshold.*@ 1767249600/);
      assert.doesNotMatch(q.now, /@/, 'now is now');
    }
  });

  it('alerts without a cost model have none', () => {
    assert.equal(outcomeQueries(alert('CPUThrottlingSustained', fired)), undefined);
    assert.equal(outcomeQueries(alert('SomeoneElsesAlert', fired)), undefined);
  });
});

describe('regressionOutcome against Prometheus', () => {
  let prom;
  let now = 0.0064;
  before(async () => {
    prom = await startPrometheus([
      [/residual_threshold/, () => 1.22],
      [/quantile_over_time\(0\.5, job:cpu_seconds_per_request:ratio_rate5m/, () => now],
      [/baseline_fixed/, () => 0.0063],
    ]);
  });
  after(() => prom.close());

  it('reads before at the alert\'s start, now and the threshold at its end', async () => {
    const ended = fired + 3 * HOUR;
    const o = await regressionOutcome(prom.url, alert('CPUPerRequestRegression', ended));
    assert.equal(o.kind, 'recovered');
    assert.equal(o.now, 6.4e6);
    const asked = prom.queries.filter((q) => q.time !== undefined);
    assert.equal(asked.length, 3);
    assert.ok(asked.every((q) => q.time === ended), 'every value as of the resolve');
    assert.ok(asked.some((q) => q.query.includes(`@ ${fired / 1000}`)), 'the model as of the alert\'s start');
  });

  it('the new normal after a day, stated in the message with both figures', async () => {
    now = 0.0082;
    const o = await regressionOutcome(prom.url, alert('CPUPerRequestRegression', fired + 25 * HOUR));
    assert.equal(o.kind, 'newNormal');
    const text = buildMessage({ alert: alert('CPUPerRequestRegression', fired + 25 * HOUR), status: 'resolved', outcome: o }).text;
    assert.match(text, /RESOLVED/);
    assert.match(text, /\*The new normal since 2026-01-01 06:40 UTC:\* CPU per request 8\.20 ms now, 6\.30 ms before \(\+30%\)/);
  });

  it('a recovered message', () => {
    const text = buildMessage({ alert: alert('CPUPerRequestRegression', fired), status: 'resolved', outcome: judge({}) }).text;
    assert.match(text, /\*Recovered:\* CPU per request 6\.40 ms now, 6\.30 ms before \(\+2%\), under the ×1\.22 the alert fired on\./);
  });

  it('no Prometheus: the reason, not a verdict', async () => {
    const o = await regressionOutcome(undefined, alert('AllocationsPerRequestRegression', fired));
    assert.match(o.why, /no Prometheus \(--prometheus\)/);
    assert.match(buildMessage({ alert: alert('AllocationsPerRequestRegression', fired), status: 'resolved', outcome: o }).text, /_Not judged whether it recovered: no Prometheus/);
  });
});
