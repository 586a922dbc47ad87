// The profiles-to-metrics bridge against a stand-in Pyroscope serving the repository's captured
// profiles and bad answers: counters that only grow, rows that add up to the profile, a top set
// that holds for a day, bounded queries, failures counted and survived, /metrics that promtool reads.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';

import { ROOT } from '@hotpath/headless/env.mjs';
import { fixturePath } from '../../tests/browser/lib/frames.mjs';
import { decodeProfile } from '../lib/decode.mjs';
import { functionCosts } from '../lib/function-costs.mjs';
import { COST_METRICS, ENDPOINT_METRICS, INSTANCE_METRICS, OTHER } from '../lib/bridge-metrics.mjs';
import { ProfileMetrics } from '../lib/profile-metrics.mjs';
import { DAY_MS, StickyTopSet } from '../lib/top-set.mjs';
import { downUrl, waitFor } from './helpers.mjs';
import { FLEET_PROFILES, startFleet } from './profile-fleet.mjs';

const MIN = 60_000;
const T = Date.UTC(2026, 0, 15, 10, 0, 0);

/** The exposition text as { name, labels, value } samples. */
function samples(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m) {
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c))]));
      out.push({ name: m[1], labels, value: Number(m[3]) });
    }
  }
  return out;
}

/** name{job} rows of a bridge: function -> value */
async function rows(bridge, name, job) {
  return new Map((samples(await bridge.metrics())).filter((s) => s.name === name && s.labels.job === job).map((s) => [s.labels.function, s.value]));
}
const value = async (bridge, name, labels = {}) =>
  samples(await bridge.metrics())
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function fleet(o) {
  const f = await startFleet(o);
  servers.push(f);
  return f;
}

/** A bridge with a settable clock. */
function bridgeOn(url, cfg = {}) {
  const clock = { now: T };
  const logs = [];
  const bridge = new ProfileMetrics({ profilesUrl: url, now: () => clock.now, log: (l) => logs.push(l), lagMs: 0, ...cfg });
  return { bridge, clock, logs };
}

const decoded = {};
for (const [type, sampleType] of [['cpu', 'cpu'], ['alloc_space', 'alloc_space']]) {
  decoded[type] = functionCosts((await decodeProfile(FLEET_PROFILES[type], { sampleType })).read);
}

describe('cost counters', () => {
  it('grow by the profile total every interval, and only grow', async () => {
    const f = await fleet({ services: ['api'] });
    const { bridge, clock } = bridgeOn(f.url, { services: ['api'], topK: 5 });
    let before = new Map();
    for (let i = 1; i <= 3; i++) {
      await bridge.round();
      const now = await rows(bridge, COST_METRICS.cpu.name, 'api');
      for (const [fn, v] of before) {
        assert.ok(now.get(fn) >= v, `${fn} went from ${v} to ${now.get(fn)}`);
      }
      assert.ok(Math.abs(sum(now) - i * decoded.cpu.total * 1e-9) < 1e-9, `round ${i}: rows add up to ${sum(now)}, not ${i} x the profile's ${decoded.cpu.total} ns`);
      const alloc = await rows(bridge, COST_METRICS.alloc_space.name, 'api');
      assert.ok(Math.abs(sum(alloc) - i * decoded.alloc_space.total) < 1e-3);
      before = now;
      clock.now += MIN;
    }
    // one query per service and type per round, windows that follow each other
    const cpu = f.queries.filter((q) => q.type === 'cpu');
    assert.equal(cpu.length, 3);
    assert.deepEqual(cpu.map((q) => [q.start, q.end]), [[T - MIN, T], [T, T + MIN], [T + MIN, T + 2 * MIN]]);
  });

  it('the top K and other add up to the total, with runtime and libc self charged to the calling code', async () => {
    const f = await fleet({ services: ['api'] });
    const { bridge } = bridgeOn(f.url, { services: ['api'], topK: 5, types: ['cpu'] });
    await bridge.round();
    const r = await rows(bridge, COST_METRICS.cpu.name, 'api');
    assert.equal(r.size, 6);
    const top5 = [...decoded.cpu.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 5);
    for (const [fn, ns] of top5) {
      assert.ok(Math.abs(r.get(fn) - ns * 1e-9) < 1e-12, `${fn}: ${r.get(fn)} s, want ${ns * 1e-9}`);
    }
    const rest = decoded.cpu.total - top5.reduce((a, [, v]) => a + v, 0);
    assert.ok(rest > 0);
    assert.ok(Math.abs(r.get(OTHER) - rest * 1e-9) < 1e-12);
  });

  it('rows that are not the service\'s own code carry their origin (the runtime\'s, the profiler\'s); they lose their series with the rest', async () => {
    const f = await fleet({ services: ['api'] });
    let listed = ['api'];
    const { bridge, clock } = bridgeOn(f.url, { topK: 100 });
    // the services Pyroscope lists, as the test says
    bridge.discover = async () => listed;
    await bridge.round();
    const costRows = async () => samples(await bridge.metrics()).filter((s) => Object.values(COST_METRICS).some((m) => m.name === s.name));
    const all = await costRows();
    const origin = (fn) => all.find((s) => s.labels.function === fn)?.labels;
    for (const [fn, want] of [
      ['runtime.futex', 'runtime'], // the scheduler's own sleep: no calling code
      ['runtime.nanotime', 'runtime'],
      ['runtime/pprof.allFrames', 'profiler'], // the heap profile being written
      ['github.com/google/pprof/profile.(*Profile).postDecode', 'profiler'],
      ['google.golang.org/protobuf/internal/encoding/text.appendString', undefined],
      ['compress/flate.NewWriter', undefined],
      ['net.(*netFD).Write', undefined], // its write(2) is charged to it, and it is the service's
      [OTHER, undefined],
    ]) {
      assert.ok(origin(fn), `${fn} has a row`);
      assert.equal(origin(fn).origin, want, `${fn}'s origin`);
    }
    // a row's labels are the same every round: the series continues
    clock.now += MIN;
    await bridge.round();
    assert.deepEqual((await costRows()).map((s) => s.labels), all.map((s) => s.labels));
    // a service no longer listed loses every row after a day, those with an origin too
    listed = [];
    clock.now += DAY_MS + MIN;
    await bridge.round();
    assert.deepEqual(await costRows(), []);
  });

  it('attribution moves plumbing self to the caller: the rows differ from the raw self', async () => {
    const { dataLayer } = await import('@hotpath/headless/data-node.mjs');
    const d = await dataLayer();
    const read = (await decodeProfile(FLEET_PROFILES.cpu, { sampleType: 'cpu' })).read;
    const raw = new Map(d.functionRows(read.tree).map((x) => [x.name, x.self]));
    const plumbingSelf = [...raw].filter(([fn, v]) => v > 0 && d.isPlumbing(fn));
    assert.ok(plumbingSelf.length > 0, 'the capture has runtime/syscall self');
    const gained = [...decoded.cpu.byFunction].filter(([fn, v]) => v > (raw.get(fn) ?? 0));
    assert.ok(gained.length > 0, 'some function is charged more than its own self');
    assert.equal(sum(decoded.cpu.byFunction), decoded.cpu.total);
  });
});

describe('the top set', () => {
  const costs = (o) => new Map(Object.entries(o));

  it('keeps a function for a day after it last ranked in the top K, then lets it go', () => {
    const s = new StickyTopSet({ k: 2 });
    assert.deepEqual(s.update(costs({ a: 10, b: 5, c: 1 }), 0).added.sort(), ['a', 'b']);
    // c and d take over; a and b stay members until a day after they last ranked
    for (let h = 1; h < 24; h++) {
      const { removed } = s.update(costs({ c: 1000, d: 900 }), h * 60 * MIN);
      assert.deepEqual(removed, [], `at ${h} h`);
    }
    assert.ok(s.has('a') && s.has('b') && s.has('c') && s.has('d'));
    const { removed } = s.update(costs({ c: 1000, d: 900 }), DAY_MS);
    assert.deepEqual(removed.sort(), ['a', 'b']);
    assert.ok(!s.has('a') && s.has('c'));
  });

  it('ranks by the last day of cost, not the last interval: a one-interval spike does not displace a steady function', () => {
    const s = new StickyTopSet({ k: 1, maxMembers: 1 });
    for (let i = 0; i < 60; i++) {
      s.update(costs({ steady: 10 }), i * MIN);
    }
    s.update(costs({ spike: 100 }), 60 * MIN);
    assert.ok(s.has('steady'));
    assert.ok(!s.has('spike'), 'a full set takes no newcomer before a member expires');
  });

  it('holds at most maxMembers however much the ranking churns', () => {
    const s = new StickyTopSet({ k: 3 });
    for (let i = 0; i < 50; i++) {
      s.update(costs({ [`f${i}`]: 1e6 * (i + 1), [`g${i}`]: 1e6 * (i + 1) }), i * MIN);
      assert.ok(s.members.size <= 6);
    }
  });

  it('in the bridge, members that left the top K a day ago lose their series; the new top K gets series', async () => {
    const epoll = gunzipSync(readFileSync(fixturePath('epoll-incident.cpu.pb.gz')));
    const epollCosts = functionCosts((await decodeProfile(epoll, { sampleType: 'cpu' })).read);
    let serve;
    const f = await fleet({ services: ['api'], answer: () => serve });
    const { bridge, clock } = bridgeOn(f.url, { services: ['api'], topK: 3, types: ['cpu'], maxCatchUpMs: 2 * 3600_000 });
    await bridge.round();
    const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([fn]) => fn);
    const println = top(decoded.cpu.byFunction);
    assert.deepEqual([...(await rows(bridge, COST_METRICS.cpu.name, 'api')).keys()].sort(), [...println, OTHER].sort());
    // the service now runs other code: hourly rounds for two days
    serve = { raw: epoll };
    for (let h = 1; h <= 48; h++) {
      clock.now += 3600_000;
      await bridge.round();
      const now = await rows(bridge, COST_METRICS.cpu.name, 'api');
      if (h < 24) {
        assert.deepEqual(println.filter((fn) => !now.has(fn)), [], `hour ${h}: a member stays at least a day`);
      }
    }
    // two days on, the members are the functions of the last day's top 3 only
    const afterDay = await rows(bridge, COST_METRICS.cpu.name, 'api');
    // (ranked by the decayed day: a function in both captures may edge out one of the epoll capture's own top 3)
    assert.equal(afterDay.size, 4);
    assert.ok(afterDay.has(top(epollCosts.byFunction)[0]) && afterDay.has(OTHER));
    assert.deepEqual([...afterDay.keys()].filter((fn) => fn !== OTHER && !epollCosts.byFunction.has(fn)), []);
    assert.deepEqual(println.filter((fn) => afterDay.has(fn)), []);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_series', { profile_type: 'cpu' }), afterDay.size);
  });
});

describe('fast entry in the bridge', () => {
  it('a function entering by its share of the last minutes is exported from the interval it enters', async () => {
    const epoll = gunzipSync(readFileSync(fixturePath('epoll-incident.cpu.pb.gz')));
    const epollCosts = functionCosts((await decodeProfile(epoll, { sampleType: 'cpu' })).read);
    const loop = [...epollCosts.byFunction].sort((a, b) => b[1] - a[1])[0][0];
    assert.ok(!decoded.cpu.byFunction.has(loop), `${loop} is new to the service`);
    let serve;
    const f = await fleet({ services: ['api'], answer: () => serve });
    // at a 10% entry share none of the println capture's functions past its top 3 enters fast: places are free
    const { bridge, clock } = bridgeOn(f.url, { services: ['api'], topK: 3, types: ['cpu'], entryShare: 0.1 });
    for (let m = 0; m < 60; m++) {
      await bridge.round();
      clock.now += MIN;
    }
    assert.equal((await rows(bridge, COST_METRICS.cpu.name, 'api')).size, 4);
    // a deploy: the service now runs the epoll code; its loop is ~16% of the last 10 minutes' decayed cost
    serve = { raw: epoll };
    await bridge.round();
    const r = await rows(bridge, COST_METRICS.cpu.name, 'api');
    assert.ok(Math.abs(r.get(loop) - epollCosts.byFunction.get(loop) * 1e-9) < 1e-12, `${loop}: ${r.get(loop)}`);
    assert.equal(r.size, 5);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_series', { profile_type: 'cpu' }), 5);
  });
});

/** A SelectSeries answer: one series per [labels, value] pair. */
const seriesAnswer = (groups) => ({ series: groups.map(([labels, value]) => ({ labels: Object.entries(labels).map(([name, v]) => ({ name, value: v })), points: [{ value, timestamp: String(T) }] })) });
const endpointRows = async (bridge, type, job) =>
  new Map(samples(await bridge.metrics()).filter((s) => s.name === ENDPOINT_METRICS[type].name && s.labels.job === job).map((s) => [s.labels.endpoint, s.value]));

describe('endpoint counters', () => {
  it('each endpoint its normalised route, `unlabelled` the samples without a label, `other` the rest of the top K; they add up to the profile', async () => {
    // CPU in nanoseconds: /search by its route and by a span name, a gRPC method, three small routes, unlabelled
    const groups = [
      [{ 'http.route': '/search' }, 4e9],
      [{ span_name: 'GET /search/' }, 1e9],
      [{ 'grpc.method': '/shop.Catalog/Get' }, 2e9],
      [{ 'http.route': '/a' }, 0.3e9],
      [{ 'http.route': '/b' }, 0.2e9],
      [{ 'http.route': '/c' }, 0.1e9],
      [{}, 2.4e9],
    ];
    const f = await fleet({ services: ['api'], seriesFor: (q) => (q.type === 'cpu' ? seriesAnswer(groups) : { series: [] }) });
    const { bridge, clock } = bridgeOn(f.url, { services: ['api'], endpointTopK: 3 });
    await bridge.round();
    const r = await endpointRows(bridge, 'cpu', 'api');
    const want = new Map([['/search', 5], ['/shop.Catalog/Get', 2], ['/a', 0.3], ['other', 0.3], ['unlabelled', 2.4]]);
    assert.deepEqual([...r.keys()].sort(), [...want.keys()].sort());
    for (const [e, v] of want) {
      assert.ok(Math.abs(r.get(e) - v) < 1e-9, `${e}: ${r.get(e)}, want ${v}`);
    }
    // the query: the window, grouped by the rule pack's endpoint labels and instance label, one step
    const q = f.seriesQueries.find((x) => x.type === 'cpu');
    assert.deepEqual(q.groupBy, ['http.route', 'grpc.method', 'span_name', 'instance']);
    assert.equal(q.end - q.start, MIN);
    assert.equal(q.step, 60);
    // a service whose series answer is empty (no samples) exports no endpoint rows
    assert.equal((await endpointRows(bridge, 'alloc_space', 'api')).size, 0);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_endpoint_series', { profile_type: 'cpu' }), 5);
    // the next window starts where this one ended
    clock.now += MIN;
    await bridge.round();
    const q2 = f.seriesQueries.filter((x) => x.type === 'cpu')[1];
    assert.deepEqual([q2.start, q2.end], [q.end, q.end + MIN]);
    assert.ok(Math.abs((await endpointRows(bridge, 'cpu', 'api')).get('/search') - 10) < 1e-9);
  });

  it('a failed endpoint query costs a counter and a log line; its window is asked again, the function rows go on', async () => {
    let fail = true;
    const f = await fleet({ services: ['api'], seriesFor: () => (fail ? { status: 503, body: '{"code":"unavailable"}' } : seriesAnswer([[{ span_name: '/x' }, 1e9]])) });
    const { bridge, clock, logs } = bridgeOn(f.url, { services: ['api'], types: ['cpu'] });
    await bridge.round();
    assert.equal(await value(bridge, 'hotpath_profile_metrics_endpoint_query_errors_total', { reason: 'error_answer' }), 1);
    assert.match(logs.join('\n'), /api cpu by endpoint: .*503/);
    assert.ok(sum(await rows(bridge, COST_METRICS.cpu.name, 'api')) > 0);
    fail = false;
    clock.now += MIN;
    await bridge.round();
    const q = f.seriesQueries.at(-1);
    assert.deepEqual([q.start, q.end], [T - MIN, T + MIN]);
  });

  it('each instance its profile cost, from the same query: the instances that were profiled; one without samples for 15 minutes loses its series', async () => {
    // a service of three pods whose profiles come from two, then one
    let groups = [
      [{ 'http.route': '/search', instance: 'pod-a' }, 3e9],
      [{ instance: 'pod-a' }, 1e9],
      [{ 'http.route': '/search', instance: 'pod-b' }, 2e9],
      [{ 'http.route': '/search' }, 5e9],
    ];
    const f = await fleet({ services: ['api'], seriesFor: (q) => (q.type === 'cpu' ? seriesAnswer(groups) : { series: [] }) });
    const { bridge, clock } = bridgeOn(f.url, { services: ['api'], types: ['cpu'] });
    const instanceRows = async () =>
      new Map(samples(await bridge.metrics()).filter((s) => s.name === INSTANCE_METRICS.cpu.name && s.labels.job === 'api').map((s) => [s.labels.instance, s.value]));
    await bridge.round();
    // samples without the label (the last group) count in no instance; the endpoints are summed over instances
    assert.deepEqual(await instanceRows(), new Map([['pod-a', 4], ['pod-b', 2]]));
    assert.ok(Math.abs((await endpointRows(bridge, 'cpu', 'api')).get('/search') - 10) < 1e-9);
    groups = [[{ 'http.route': '/search', instance: 'pod-a' }, 3e9]];
    for (let i = 0; i < 14; i++) {
      clock.now += MIN;
      await bridge.round();
    }
    // pod-b's last samples ended 14 minutes ago: its counter stays as it was
    const r = await instanceRows();
    assert.equal(r.get('pod-a'), 4 + 14 * 3);
    assert.equal(r.get('pod-b'), 2);
    clock.now += MIN;
    await bridge.round();
    assert.deepEqual([...(await instanceRows()).keys()], ['pod-a']);
  });

  it("with no instance label, the endpoint query groups by the endpoint labels alone and no instance row is exported", async () => {
    const f = await fleet({ services: ['api'], seriesFor: () => seriesAnswer([[{ 'http.route': '/search' }, 1e9]]) });
    const { bridge } = bridgeOn(f.url, { services: ['api'], types: ['cpu'], instanceLabel: '' });
    await bridge.round();
    assert.deepEqual(f.seriesQueries[0].groupBy, ['http.route', 'grpc.method', 'span_name']);
    assert.ok(!samples(await bridge.metrics()).some((s) => s.name === INSTANCE_METRICS.cpu.name));
  });

  it("with no endpoint labels, no endpoint query: the bridge's load on Pyroscope is the function rows' alone", async () => {
    const f = await fleet({ services: ['api'] });
    const { bridge } = bridgeOn(f.url, { services: ['api'], endpointLabels: [] });
    await bridge.round();
    assert.equal(f.seriesQueries.length, 0);
    assert.equal(f.queries.length, 2);
  });
});

describe('bounds', () => {
  it('at most `concurrency` queries at once, one per service and type a round, services past the cap skipped and counted', async () => {
    const services = Array.from({ length: 12 }, (_, i) => `svc-${String(i).padStart(2, '0')}`);
    const f = await fleet({ services, delayMs: () => 40 });
    const { bridge } = bridgeOn(f.url, { concurrency: 3, maxServices: 10 });
    await bridge.round();
    assert.equal(f.maxInFlight(), 3);
    assert.equal(f.labelCalls(), 1);
    assert.equal(f.queries.length, 20);
    assert.deepEqual([...new Set(f.queries.map((q) => q.service))].sort(), services.slice(0, 10));
    assert.equal(await value(bridge, 'hotpath_profile_metrics_services_skipped_total', { reason: 'cap' }), 2);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_services'), 10);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_series', { profile_type: 'cpu' }), 10 * 21);
    assert.equal(await value(bridge, 'hotpath_profile_metrics_query_duration_seconds_count', { profile_type: 'cpu' }), 10);
  });

  it('bad answers cost a log line and a counter each, never the round; the window is asked again', async () => {
    const faults = {
      down: 'down',
      stall: 'stall',
      error: { status: 503, body: '{"code":"unavailable","message":"ingester down"}' },
      garbage: { raw: Buffer.from('this is not a profile') },
      huge: { raw: gzipSync(Buffer.alloc(2 << 20)) },
      idle: 'empty',
    };
    const f = await fleet({ services: ['good', ...Object.keys(faults)], answer: (q) => (q.call === 0 ? faults[q.service] : undefined) });
    const { bridge, clock, logs } = bridgeOn(f.url, { types: ['cpu'], timeoutMs: 1500, maxBytes: 1 << 20 });
    await bridge.round();
    const reasons = { timeout: 1, unreachable: 1, error_answer: 1, unusable: 1, too_large: 1 };
    for (const [reason, n] of Object.entries(reasons)) {
      assert.equal(await value(bridge, 'hotpath_profile_metrics_query_errors_total', { reason }), n, `${reason}\n${logs.join('\n')}`);
    }
    assert.equal(await value(bridge, 'hotpath_profile_metrics_empty_answers_total'), 1);
    assert.equal(logs.length, 6, logs.join('\n'));
    const good = await rows(bridge, COST_METRICS.cpu.name, 'good');
    assert.ok(Math.abs(sum(good) - decoded.cpu.total * 1e-9) < 1e-9);
    assert.equal(sum(await rows(bridge, COST_METRICS.cpu.name, 'idle')), 0);
    // the next round asks the failed services for both intervals at once, in one query
    clock.now += MIN;
    await bridge.round();
    for (const s of ['down', 'stall', 'error', 'garbage', 'huge']) {
      const q = f.queries.filter((x) => x.service === s);
      assert.deepEqual([q[1].start, q[1].end], [T - MIN, T + MIN], `${s}: ${JSON.stringify(q)}\n${logs.join('\n')}`);
    }
    assert.deepEqual(f.queries.filter((x) => x.service === 'good').map((q) => q.start), [T - MIN, T]);
    assert.equal(logs.length, 6, 'an idle service logs once, not every round');
  });

  it('a source that is down: every query counted, the list of services kept', async () => {
    const f = await fleet({ services: ['api'] });
    const { bridge, clock, logs } = bridgeOn(f.url, { types: ['cpu'] });
    await bridge.round();
    bridge.cfg.profilesUrl = await downUrl();
    clock.now += MIN;
    await bridge.round();
    assert.equal(await value(bridge, 'hotpath_profile_metrics_discovery_errors_total'), 1, logs.join('\n'));
    assert.equal(await value(bridge, 'hotpath_profile_metrics_query_errors_total', { reason: 'unreachable' }), 1);
    assert.match(logs.join('\n'), /keeping the last list of 1/);
  });
});

describe('hotpath-profile-metrics', () => {
  const promtool = join(ROOT, '.tools', 'bin', 'promtool');

  it('serves /metrics that promtool check metrics accepts, with the services from LabelValues', { skip: !existsSync(promtool) && 'promtool is not built (make tools)' }, async () => {
    const f = await fleet({ services: ['api', 'checkout'] });
    const p = spawn(process.execPath, [join(ROOT, 'notify', 'profile-metrics.mjs'), '--profiles', f.url, '--listen', '127.0.0.1:0', '--interval', '1s', '--lag', '0s', '--catch-up', '10s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    p.stderr.on('data', (d) => (log += d));
    after(() => p.kill('SIGTERM'));
    const url = await waitFor(() => /serving (http:\/\/\S+)\/metrics/.exec(log)?.[1], 30_000, 'the bridge to listen');
    const text = await waitFor(async () => {
      const t = await (await fetch(`${url}/metrics`)).text();
      return /hotpath_profile_cpu_seconds_total\{job="checkout"/.test(t) && /hotpath_profile_alloc_bytes_total\{job="api"/.test(t) && t;
    }, 30_000, 'a round with both services');
    const check = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
    assert.equal((await fetch(`${url}/nothing`)).status, 404);
    p.kill('SIGTERM');
    const code = await new Promise((r) => p.on('exit', r));
    assert.equal(code, 0, log);
    assert.match(log, /SIGTERM: stopping after the running round/);
  });
});

describe('hotpath-profile-metrics flags', () => {
  /** Runs the command with bad flags; resolves { code, out } (it must exit before listening). */
  const refused = (args) =>
    new Promise((resolve) => {
      const p = spawn(process.execPath, [join(ROOT, 'notify', 'profile-metrics.mjs'), '--profiles', 'http://127.0.0.1:9', '--listen', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => p.kill('SIGKILL'), 30_000);
      p.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });

  it('refuses an entry share outside (0, 1) and an entry window that is not a duration above 0, naming the flag', async () => {
    for (const [flag, v, want] of [
      ['--entry-share', '0', /--entry-share 0: want a number above 0 and below 1/],
      ['--entry-share', '1', /--entry-share 1: want a number above 0 and below 1/],
      ['--entry-share', '1%', /--entry-share 1%: want a number above 0 and below 1/],
      ['--entry-window', '10', /--entry-window 10: want a duration/],
      ['--entry-window', '0s', /--entry-window 0s: want a duration above 0/],
    ]) {
      const r = await refused([flag, v]);
      assert.equal(r.code, 2, `${flag} ${v}: ${r.out}`);
      assert.match(r.out, want);
      assert.doesNotMatch(r.out, /serving/);
    }
  });
});

describe('the stand-ins read requests as the client writes them', () => {
  it('selectMergeRequest inverts encodeSelectMergeProfile', async () => {
    const { encodeSelectMergeProfile } = await import('../lib/pyroscope.mjs');
    const { selectMergeRequest } = await import('./select-request.mjs');
    const r = { profileTypeID: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', labelSelector: '{service_name="api é"}', start: T - MIN, end: T };
    assert.deepEqual(selectMergeRequest(encodeSelectMergeProfile(r)), r);
  });
});
