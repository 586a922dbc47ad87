// The endpoint answer: how a service's change splits into its endpoints' own costs and its traffic
// mix (one endpoint, all of them, or the mix), read from the catalogue's endpoint queries, and an
// endpoint alert's cost per request before and now; services without endpoint rows have none.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { diffSubject, endpointMatcher } from '../lib/diff-fetch.mjs';
import { endpointCost, endpointLeadLines, endpointSplit, endpointSubject, splitChange, splitLines } from '../lib/endpoint-lead.mjs';
import { PROFILE_TYPES } from '../lib/pyroscope.mjs';
import { startPrometheus } from './fake-prometheus.mjs';
import { startFleet } from './profile-fleet.mjs';

const NAME = 'EndpointCostPerRequestRegression';
const started = Date.parse('2026-01-01T06:40:00Z');
const NOW = started + 20 * 60_000;
const alert = (labels = {}) => ({
  labels: { alertname: NAME, cluster: 'eu1', namespace: 'shop', job: 'api', endpoint: '/search', profile_type: 'cpu', severity: 'warning', ...labels },
  startsAt: new Date(started).toISOString(),
  status: 'firing',
});
const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

describe('splitChange', () => {
  const rises = (o) => new Map(Object.entries(o));
  it('one endpoint: the endpoints together rose and one carries most of the rise', () => {
    const s = splitChange({ now: 0.034, before: 0.033, atReference: 0.0185, rises: rises({ '/search': 0.125, '/healthz': 0.001 }) });
    assert.equal(s.verdict, 'one');
    assert.deepEqual(s.rose, ['/search', '/healthz']);
    assert.ok(Math.abs(s.endpoints - 0.034 / 0.0185) < 1e-12);
    assert.deepEqual(splitLines(s), ['*One endpoint: `/search`* (endpoints\' own cost +84%, traffic mix −44%).']);
  });

  it('all of them: the rise spread over several endpoints', () => {
    const s = splitChange({ now: 0.04, before: 0.02, atReference: 0.02, rises: rises({ '/a': 1, '/b': 1, '/c': 0.9, '/d': 0.8, '/e': -1 }) });
    assert.equal(s.verdict, 'all');
    assert.deepEqual(splitLines(s), ['*All endpoints: `/a`, `/b`, `/c` and 1 more rose* (endpoints\' own cost +100%, traffic mix +0%).']);
  });

  it('the mix: every endpoint at its reference cost, the requests moved', () => {
    const s = splitChange({ now: 0.0508, before: 0.0332, atReference: 0.0508, rises: rises({ '/search': 0, '/healthz': 0 }) });
    assert.equal(s.verdict, 'mix');
    assert.match(splitLines(s)[0], /^\*The traffic mix, not the code:\* .*traffic mix \+53%/);
  });

  it('nothing to split without a figure before, now or at reference (not NaN)', () => {
    assert.equal(splitChange({ now: 0.1, before: 0, atReference: 0.1, rises: new Map() }), undefined);
    assert.equal(splitChange({ now: undefined, before: 0.1, atReference: 0.1, rises: new Map() }), undefined);
    assert.deepEqual(splitLines(undefined), []);
    assert.deepEqual(splitLines({ why: 'x' }), []);
  });
});

describe('endpointSplit and endpointCost against Prometheus', () => {
  it("narrow the catalogue's queries to the alert's service (and endpoint)", async () => {
    const p = await startPrometheus([
      [/^avg_over_time\(job:endpoint_cpu_seconds_per_request:ratio_rate5m\{job="api"\}\[1h\] @ /, () => 0.033],
      [/^job:endpoint_cpu_seconds_per_request:ratio_rate5m\{job="api"\}$/, () => 0.034],
      [/^job:endpoint_cpu_seconds_per_request:at_reference\{job="api"\}$/, () => 0.0185],
      [/^\(job_endpoint:cpu_seconds_per_request:smoothed\{job="api"\}|^job_endpoint:cpu_seconds_per_request:smoothed\{job="api", endpoint="\/search"\}$/, () => 0.125],
      [/^last_over_time\(job_endpoint:cpu_seconds_per_request:baseline_reference\{job="api", endpoint="\/search"\}\[30m\] @ /, () => 0.0625],
    ]);
    servers.push(p);
    const split = await endpointSplit(p.url, alert(), { nowMs: NOW });
    assert.equal(split.verdict, 'one');
    assert.equal(split.unit, 'seconds');
    assert.ok(p.queries.some((q) => q.query.includes(`@ ${started / 1000 - 3600}`)), 'before: the hour that ended an hour before the start');
    const cost = await endpointCost(p.url, alert(), { nowMs: NOW });
    assert.deepEqual(cost, { before: 62_500_000, now: 125_000_000, unit: 'ns' });
    assert.deepEqual(endpointLeadLines({ ...endpointSubject(alert()), cost }), ['*Endpoint `/search`: 125 ms CPU per request of that route now, 62.5 ms before (+100%).*']);
    // a service alert gets the split too, on its profile's series
    const svc = await endpointSplit(p.url, { labels: { alertname: 'CPUPerRequestRegression', job: 'api', namespace: 'shop' }, startsAt: alert().startsAt }, { nowMs: NOW });
    assert.equal(svc.verdict, 'one');
  });

  it('none for a service without endpoint rows, and no endpoint cost for another alert', async () => {
    const p = await startPrometheus([]);
    servers.push(p);
    assert.equal(await endpointSplit(p.url, alert({ job: 'other' }), { nowMs: NOW }), undefined);
    assert.equal(await endpointCost(p.url, { labels: { alertname: 'CPUPerRequestRegression', job: 'api' } }, { nowMs: NOW }), undefined);
    assert.equal(endpointSubject(alert({ endpoint: '' })), undefined);
    assert.deepEqual(await endpointCost(p.url, alert(), { nowMs: NOW }), { why: 'Prometheus has no cost per request of /search before and now' });
  });
});

describe("an endpoint alert's profiles", () => {
  it('are its endpoint\'s samples: the diff subject names the endpoint and its profile type', () => {
    const s = diffSubject(alert({ profile_type: 'alloc_space' }), ['namespace']);
    assert.equal(s.kind, 'alloc_space');
    assert.equal(s.endpoint, '/search');
    assert.equal(diffSubject({ labels: { alertname: 'CPUPerRequestRegression', job: 'api' } }, []).endpoint, undefined);
  });

  it("the matcher of its raw label values, from the windows' profile grouped by the endpoint labels", async () => {
    const asked = [];
    const groups = [
      [{ 'http.route': '/search' }, 5e9],
      [{ span_name: 'GET /search/' }, 1e9],
      [{}, 2e9],
    ];
    const f = await startFleet({
      services: ['api'],
      seriesFor: (q) => {
        asked.push(q);
        return { series: groups.map(([labels, value]) => ({ labels: Object.entries(labels).map(([name, v]) => ({ name, value: v })), points: [{ value }] })) };
      },
    });
    servers.push(f);
    const span = { from: started - 3_600_000, to: started };
    const m = await endpointMatcher({ profilesUrl: f.url, fetchTimeoutMs: 5000 }, '{service_name="api"}', PROFILE_TYPES.cpu, span, '/search');
    assert.equal(m, '"http.route"="/search"');
    assert.deepEqual(asked[0].groupBy, ['http.route', 'grpc.method', 'span_name']);
    assert.deepEqual([asked[0].start, asked[0].end], [span.from, span.to]);
    assert.equal(await endpointMatcher({ profilesUrl: f.url, fetchTimeoutMs: 5000 }, '{service_name="api"}', PROFILE_TYPES.cpu, span, '/checkout'), '', 'an endpoint without samples: the whole profile');
  });
});

