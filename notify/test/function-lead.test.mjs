// A function alert's lead: the function it names, its cost per request before and now (the
// catalogue's functionCost queries, narrowed to the alert's service and function), and its callers
// and callees in the two windows' profiles (the core's sandwich); other alerts have none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { fromAscii } from '@hotpath/profile-core/testing';

import { diffSubject } from '../lib/diff-fetch.mjs';
import { functionCost, functionLeadLines, functionNeighbours, functionSubject } from '../lib/function-lead.mjs';
import { buildMessage } from '../lib/message.mjs';
import { alertSeries } from '../lib/prometheus.mjs';
import { startPrometheus } from './fake-prometheus.mjs';

const NAME = 'FunctionCostPerRequestRegression';
const started = Date.parse('2026-01-01T06:40:00Z');
const NOW = started + 20 * 60_000;
const alert = (labels = {}) => ({
  labels: { alertname: NAME, cluster: 'eu1', namespace: 'shop', job: 'api', function: 'compress/flate.NewWriter', profile_type: 'cpu', severity: 'warning', ...labels },
  annotations: { summary: "One function's cost per request rose." },
  startsAt: new Date(started).toISOString(),
  status: 'firing',
});

describe('functionSubject', () => {
  it('narrows the catalogue queries to the alert\'s service and function, the reference model as of the alert\'s start at today\'s traffic', () => {
    const f = functionSubject(alert());
    assert.equal(f.name, 'compress/flate.NewWriter');
    assert.equal(f.kind, 'cpu');
    const sel = '{job="api", function="compress/flate.NewWriter"}';
    const at = started / 1000;
    assert.equal(f.before(at), `(
last_over_time(job_function:cpu_seconds:reference_fixed${sel}[30m] @ ${at})
/ on (job) group_left ()
(sum by (job) (job:requests:rate5m) > 0)
+ on (job, function)
last_over_time(job_function:cpu_seconds_per_request:reference_marginal${sel}[30m] @ ${at})
)
or 0 * last_over_time(job_function:cpu_seconds_per_request:smoothed${sel}[30m] @ ${at})`);
    assert.equal(f.now, 'job_function:cpu_seconds_per_request:smoothed{job="api", function="compress/flate.NewWriter"}');
    assert.match(functionSubject(alert({ profile_type: 'alloc_space' })).now, /^job_function:alloc_bytes_per_request:smoothed\{/);
  });

  it('none for another alert, a function alert without its function, or an unknown profile type', () => {
    assert.equal(functionSubject({ labels: { alertname: 'CPUPerRequestRegression', job: 'api', function: 'x' } }), undefined);
    assert.equal(functionSubject(alert({ function: '' })), undefined);
    assert.equal(functionSubject(alert({ profile_type: 'goroutines' })), undefined);
  });

  it('the windows read its function\'s series by service label and function (the bridge\'s labels), the request rate of its whole service', () => {
    const s = alertSeries(alert());
    assert.equal(s.series, 'job_function:cpu_seconds_per_request:ratio_rate5m{job="api", function="compress/flate.NewWriter"}');
    assert.equal(s.requests, 'sum(job:requests:rate5m{cluster="eu1", namespace="shop", job="api"})');
    assert.match(alertSeries(alert({ profile_type: 'alloc_space' })).series, /^job_function:alloc_bytes_per_request:ratio_rate5m\{job="api", /, 'an allocation alert: its own series');
  });

  it('the diff reads the profile its profile_type names; other alerts keep the catalogue\'s', () => {
    assert.equal(diffSubject(alert({ profile_type: 'alloc_space' })).kind, 'alloc_space');
    assert.equal(diffSubject(alert()).kind, 'cpu');
    assert.equal(diffSubject({ labels: { alertname: 'AllocationsPerRequestRegression', job: 'api' } }).kind, 'alloc_space');
  });
});

describe('functionCost against Prometheus', () => {
  let prom;
  before(async () => {
    prom = await startPrometheus([
      [/^\(\nlast_over_time\(job_function:cpu_seconds:reference_fixed\{job="api", function="compress\/flate\.NewWriter"\}/, () => 0.002],
      [/^job_function:cpu_seconds_per_request:smoothed\{job="api", function="compress\/flate\.NewWriter"\}$/, () => 0.004],
    ]);
  });
  after(() => prom.close());

  it('reads before (as of the alert\'s start) and now, and the message leads with them', async () => {
    const c = await functionCost(prom.url, alert(), { nowMs: NOW });
    assert.deepEqual(c, { before: 2e6, now: 4e6, unit: 'ns' });
    assert.ok(prom.queries.some((q) => q.query.includes(`@ ${started / 1000}`)));
    const lead = functionLeadLines({ ...functionSubject(alert()), cost: c });
    const text = buildMessage({ alert: alert(), status: 'firing', lead, cost: undefined }).text;
    assert.equal(text.split('\n')[1], '*Function `flate.NewWriter`: 4.00 ms CPU per request now, 2.00 ms before (+100%).*');
  });

  it('a reference of 0: the function is new among its service\'s rows, said instead of a percentage', () => {
    const lead = functionLeadLines({ ...functionSubject(alert()), cost: { before: 0, now: 4e6, unit: 'ns' } });
    assert.equal(lead[0], '*Function `flate.NewWriter`: 4.00 ms CPU per request now, new among its service\'s top functions (before, it was in `other`).*');
  });

  it('no figure: the reason, in the lead; no Prometheus: said; another alert: nothing', async () => {
    const c = await functionCost(prom.url, alert({ job: 'other' }), { nowMs: NOW });
    assert.match(c.why, /^Prometheus has no cost per request of compress\/flate\.NewWriter/);
    assert.match(functionLeadLines({ ...functionSubject(alert()), cost: c })[0], /^\*Function `flate\.NewWriter`\* \(CPU per request\): _Prometheus has no cost/);
    assert.match((await functionCost(undefined, alert())).why, /no Prometheus/);
    assert.equal(await functionCost(prom.url, { labels: { alertname: 'CPUPerRequestRegression', job: 'api' } }), undefined);
  });
});

describe('functionNeighbours', () => {
  const beforeTree = fromAscii(`
total 100
├─ main.serve 60
│  └─ http.handle 60
│     └─ gzip.write 20
│        └─ flate.NewWriter 20
│           └─ runtime.mallocgc 20
└─ main.batch 40
`, 'bytes');
  const nowTree = fromAscii(`
total 160
├─ main.serve 100
│  └─ http.handle 100
│     └─ gzip.write 50
│        └─ flate.NewWriter 50
│           ├─ runtime.mallocgc 30
│           └─ flate.init 20
├─ main.export 20
│  └─ flate.NewWriter 20
│     └─ runtime.mallocgc 20
└─ main.batch 40
`, 'bytes');

  it('callers and callees of both windows, per request, largest now first; a new caller shows with 0 before', () => {
    const n = functionNeighbours('flate.NewWriter', nowTree, beforeTree, { incident: 10, baseline: 10 });
    assert.equal(n.perRequest, true);
    assert.deepEqual(n.callers, [
      { name: 'gzip.write', now: 5, before: 2 },
      { name: 'main.export', now: 2, before: 0 },
    ]);
    assert.deepEqual(n.callees, [
      { name: 'runtime.mallocgc', now: 5, before: 2 },
      { name: 'flate.init', now: 2, before: 0 },
    ]);
    const lines = functionLeadLines({ name: 'flate.NewWriter', kind: 'alloc_space', cost: { before: 2, now: 7, unit: 'bytes' }, neighbours: n });
    assert.equal(lines[1], 'Called by per request: `gzip.write` 5.00 B (was 2.00 B), `main.export` 2.00 B (was 0 B).');
    assert.equal(lines[2], 'Calls per request: `runtime.mallocgc` 5.00 B (was 2.00 B), `flate.init` 2.00 B (was 0 B).');
  });

  it("CPU neighbours in the profile's nanoseconds, whatever the recorded series' unit (seconds)", () => {
    const ns = (t) => fromAscii(t, 'ns');
    const before = ns(`
total 4000000
└─ main.serve 4000000
   └─ runtime.unlock2 1000000
      └─ runtime.futex 1000000
`);
    const now = ns(`
total 9000000
└─ main.serve 9000000
   └─ runtime.unlock2 6000000
      └─ runtime.futex 6000000
`);
    const n = functionNeighbours('runtime.unlock2', now, before, { incident: 100, baseline: 100 });
    const lines = functionLeadLines({ name: 'runtime.unlock2', kind: 'cpu', unit: 'seconds', cost: { before: 10000, now: 60000, unit: 'ns' }, neighbours: n });
    assert.equal(lines[1], 'Called by per request: `main.serve` 60.0 µs (was 10.0 µs).');
    assert.equal(lines[2], 'Calls per request: `runtime.futex` 60.0 µs (was 10.0 µs).');
  });

  it('without request counts, the windows\' totals; a function missing from the incident: none', () => {
    const n = functionNeighbours('flate.NewWriter', nowTree, beforeTree);
    assert.equal(n.perRequest, false);
    assert.equal(n.callers[0].now, 50);
    assert.equal(functionNeighbours('no.such', nowTree, beforeTree), undefined);
  });
});
