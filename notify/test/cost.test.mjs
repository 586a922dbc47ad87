// What an efficiency alert's change costs a month at the current traffic: the change in cores
// from Prometheus (the catalogue's `change` query of the alert), priced with the catalogue's list
// price; no line with money off, "no traffic" without requests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { cataloguePrices } from '../lib/catalogue.mjs';
import { changeCost, changeQueries, costText, formatMoney, priceChange } from '../lib/cost.mjs';
import { buildMessage } from '../lib/message.mjs';
import { startPrometheus } from './fake-prometheus.mjs';

const started = Date.parse('2026-01-01T06:40:00Z');
const NOW = started + 20 * 60_000;
const alert = (name, labels = {}) => ({
  labels: { alertname: name, job: 'api', namespace: 'shop', severity: 'warning', ...labels },
  annotations: { summary: 'A service uses more CPU.' },
  startsAt: new Date(started).toISOString(),
  status: 'firing',
});
const USD = { perCoreHour: 0.04048, currency: 'USD', hoursPerMonth: 730 };
const EFFICIENCY = ['CPUPerRequestRegression', 'AllocationsPerRequestRegression', 'CPUPerRequestAboveUpstream', 'CPUPerRequestOutlier', 'CPUNotTrackingLoad'];

describe('the prices', () => {
  it('the catalogue carries the shipped list price, a core-hour in USD over a 730-hour month', () => {
    assert.deepEqual(cataloguePrices(), USD);
  });
});

describe('changeQueries', () => {
  it('every efficiency alert has a change, narrowed to its own service, instance or upstream', () => {
    const labels = { CPUPerRequestOutlier: { instance: 'i3' }, CPUPerRequestAboveUpstream: { upstream: 'cache' } };
    for (const name of EFFICIENCY) {
      const q = changeQueries(alert(name, labels[name]), USD);
      assert.ok(q, name);
      const cores = q.cores(started / 1000);
      assert.match(cores, /^sum\(/, name);
      assert.match(cores, /namespace="shop", job="api"/, `${name}: only its service`);
      assert.doesNotMatch(cores, /\{\{at\}\}/, name);
      for (const [k, v] of Object.entries(labels[name] ?? {})) {
        assert.ok(cores.includes(`${k}="${v}"`), `${name}: only its ${k}`);
      }
    }
  });

  it('the regressions price against the model as the alert fired; the busy loop its fixed cores', () => {
    for (const name of ['CPUPerRequestRegression', 'AllocationsPerRequestRegression']) {
      const cores = changeQueries(alert(name), USD).cores(started / 1000);
      assert.match(cores, new RegExp(`job:cpu_seconds:baseline_fixed\\[10m\\] @ ${started / 1000}`), `${name}: CPU, as the model stood at the start`);
      assert.match(cores, /quantile_over_time\(0\.5, job:cpu_seconds_per_request:ratio_rate5m/, name);
    }
    assert.match(changeQueries(alert('CPUNotTrackingLoad'), USD).cores(0), /job:cpu_seconds:long_fixed\nor\njob:cpu_seconds:recent_fixed/);
    assert.equal(changeQueries(alert('CPUNotTrackingLoad'), USD).change.perRequest, false);
  });

  it('no change to price: throttling, another pack\'s alert, money off', () => {
    assert.equal(changeQueries(alert('CPUThrottlingSustained', { pod: 'p', container: 'c' }), USD), undefined);
    assert.equal(changeQueries(alert('SomeoneElsesAlert'), USD), undefined);
    assert.equal(changeQueries(alert('CPUPerRequestRegression'), null), undefined);
  });
});

describe('priceChange and its line', () => {
  const change = { what: 'CPU per request now against the cost model when the alert fired, at the current traffic', perRequest: true };

  it('cores x price x hours, with the cores and the traffic beside the money', () => {
    const c = priceChange({ cores: 0.62, rate: 16, change, prices: USD });
    assert.ok(Math.abs(c.perMonth - 0.62 * 0.04048 * 730) < 1e-9);
    assert.equal(costText(c), `*What it costs:* +0.62 cores ≈ +$18/month at the current 16 req/s (${change.what}; at a list price of $0.04048 a core-hour)`);
  });

  it('small sums keep their cents; a cheaper change is negative; another currency its symbol', () => {
    assert.equal(formatMoney(2.456, 'USD'), '+$2.46');
    assert.equal(formatMoney(-190.4, 'USD'), '−$190');
    assert.equal(formatMoney(1234, 'EUR'), '+€1,234');
    assert.match(costText(priceChange({ cores: -0.1, rate: 4, change, prices: USD })), /\*What it costs:\* −0\.10 cores ≈ −\$2\.96\/month at the current 4\.0 req\/s/);
  });

  it('no traffic: the change of a per-request cost costs nothing now, and the line says so', () => {
    assert.match(priceChange({ cores: 0, rate: 0, change, prices: USD }).why, /^no traffic now \(0 req\/s\)/);
    assert.match(priceChange({ cores: undefined, rate: undefined, change, prices: USD }).why, /^no traffic now \(no request rate\)/);
    assert.equal(costText(priceChange({ cores: 0, rate: 0, change, prices: USD })), '_What it costs: no traffic now (0 req/s): the change costs nothing at the current traffic._');
  });

  it('a fixed cost costs its cores whatever the traffic', () => {
    const c = priceChange({ cores: 0.8, rate: 0, change: { what: 'the fixed part of its CPU', perRequest: false }, prices: USD });
    assert.ok(Math.abs(c.perMonth - 0.8 * 0.04048 * 730) < 1e-9);
  });

  it('no figure from Prometheus: the reason', () => {
    assert.match(priceChange({ cores: undefined, rate: 16, change, prices: USD }).why, /^Prometheus has no figure for CPU per request now/);
  });
});

describe('changeCost against Prometheus', () => {
  let prom;
  let rate = 16;
  before(async () => {
    prom = await startPrometheus([
      [/^sum\(\(\n?\(\nquantile_over_time/, () => 0.62],
      [/^sum\(\(instance:cpu_seconds:rate5m/, () => 0.25],
      [/^sum\(instance:requests:rate5m\{namespace="shop", job="api", instance="i3"\}\)$/, () => 16],
      [/^sum\(job:requests:rate5m\{namespace="shop", job="api"\}\)$/, () => rate],
    ]);
  });
  after(() => prom.close());

  it('reads the change and the rate now, and the message states it', async () => {
    rate = 16;
    const c = await changeCost(prom.url, alert('CPUPerRequestRegression'), { nowMs: NOW });
    assert.equal(c.cores, 0.62);
    assert.equal(c.rate, 16);
    assert.equal(c.currency, 'USD');
    const asked = prom.queries.filter((q) => q.time !== undefined);
    assert.ok(asked.every((q) => q.time === NOW), 'every value as of now');
    assert.ok(asked.some((q) => q.query.includes(`@ ${started / 1000}`)), 'the model as of the alert\'s start');
    const text = buildMessage({ alert: alert('CPUPerRequestRegression'), status: 'firing', cost: c }).text;
    assert.match(text, /\n\*What it costs:\* \+0\.62 cores ≈ \+\$18\/month at the current 16 req\/s \(CPU per request now against the cost model when the alert fired/);
  });

  it('the outlier: its instance\'s excess at its own traffic', async () => {
    const c = await changeCost(prom.url, alert('CPUPerRequestOutlier', { instance: 'i3' }), { nowMs: NOW });
    assert.equal(c.cores, 0.25);
    assert.equal(c.rate, 16);
    assert.ok(Math.abs(c.perMonth - 7.3876) < 1e-9);
  });

  it('no traffic now: the line says so, with no sum', async () => {
    rate = 0;
    const c = await changeCost(prom.url, alert('CPUPerRequestRegression'), { nowMs: NOW });
    const text = buildMessage({ alert: alert('CPUPerRequestRegression'), status: 'firing', cost: c }).text;
    assert.match(text, /_What it costs: no traffic now \(0 req\/s\)/);
    assert.doesNotMatch(text, /\$/);
  });

  it('money off: no query, no line', async () => {
    const before = prom.queries.length;
    const c = await changeCost(prom.url, alert('CPUPerRequestRegression'), { nowMs: NOW, prices: null });
    assert.equal(c, undefined);
    assert.equal(prom.queries.length, before);
    assert.doesNotMatch(buildMessage({ alert: alert('CPUPerRequestRegression'), status: 'firing', cost: c }).text, /What it costs/);
  });

  it('no Prometheus: the reason', async () => {
    const c = await changeCost(undefined, alert('CPUNotTrackingLoad'), { nowMs: NOW });
    assert.match(costText(c), /_What it costs: no Prometheus \(--prometheus\) to price the change\._/);
  });
});
