// An alert's diff, one step at a time: fetch (windows, the two windows' decoded profiles with
// their fallbacks, the load from Prometheus) against the profile source and Prometheus stand-ins,
// compute on decoded profiles alone, and render's note when there is no picture.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { decodeProfile } from '../lib/decode.mjs';
import { computeDiff, fixedCostNumbers } from '../lib/diff-compute.mjs';
import { diffSubject, fetchDiffInputs } from '../lib/diff-fetch.mjs';
import { renderPicture } from '../lib/diff-render.mjs';
import { DEFAULTS } from '../lib/notifier.mjs';
import { SourceError } from '../lib/pyroscope.mjs';
import { RenderGate } from '../lib/render-gate.mjs';
import { RenderError } from '../lib/render.mjs';
import { DAY, MINUTE } from '../lib/windows.mjs';
import { startPrometheus } from './fake-prometheus.mjs';
import { alert, downUrl } from './helpers.mjs';
import { CAPTURES, startProfileSource } from './standins.mjs';

const COPY = DEFAULTS.profileLabels;
const cfg = (o) => ({ ...DEFAULTS, fetchTimeoutMs: 5000, ...o });

/** The stages a step reported, in order. */
function laps() {
  const names = [];
  const lap = (name) => names.push(name);
  lap.names = names;
  return lap;
}

describe('fetch', () => {
  const servers = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const keep = (s) => (servers.push(s), s);

  it('the two windows\' decoded profiles and their request rates, after the windows', async () => {
    const src = keep(await startProfileSource());
    // flat: no onset, so the alert's times place the windows: the incident from the rules' for:
    // before it fired, the baseline before that; 60 req/s in the incident, 40 before
    const a = alert();
    const boundary = Date.parse(a.startsAt) - DEFAULTS.pendingMs;
    const prom = keep(await startPrometheus([[/ratio_rate5m/, () => 0.004], [/requests:rate5m/, (t) => (t > boundary ? 60 : 40)]]));
    const lap = laps();
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: src.url, prometheusUrl: prom.url }), { now: Date.now(), lap });
    assert.equal(f.failure, undefined, f.failure?.message);
    assert.deepEqual(lap.names, ['windows', 'profiles']);
    assert.equal(src.calls(), 2);
    assert.equal(f.type.sampleType, 'cpu');
    assert.deepEqual(f.selectors, { incident: '{service_name="api"}', baseline: '{service_name="api"}' });
    assert.deepEqual(Buffer.from(f.incident.bytes), CAPTURES.incident, 'the incident window gets the later capture');
    assert.deepEqual(Buffer.from(f.baseline.bytes), CAPTURES.baseline);
    assert.ok(f.incident.samples > 0 && f.incident.total > 0 && f.incident.read.tree.size > 0);
    assert.ok(f.windows.baseline.to <= boundary && f.windows.incident.from >= boundary, JSON.stringify(f.windows));
    // the mean of each window's rate series (floating point: within a rounding)
    assert.ok(Math.abs(f.load.value.incident.rate - 60) < 1e-9, String(f.load.value.incident.rate));
    assert.ok(Math.abs(f.load.value.baseline.rate - 40) < 1e-9, String(f.load.value.baseline.rate));
    assert.ok(prom.queries.some((q) => /^sum\(job:requests:rate5m\{job="api"\}\)$/.test(q.query)), JSON.stringify(prom.queries.map((q) => q.query)));
  });

  it("a traffic step read through a 5-minute rate: the incident window's rate is the step's, not the ramp's mean", async () => {
    const src = keep(await startProfileSource());
    const a = alert();
    const boundary = Date.parse(a.startsAt) - DEFAULTS.pendingMs;
    // what Prometheus records for job:requests:rate5m when 40 req/s become 60 at the boundary:
    // the mean of the 5 minutes before each point, a ramp over the first 5 minutes
    const rate5m = (t) => 40 + 20 * Math.min(1, Math.max(0, (t - boundary) / (5 * MINUTE)));
    const prom = keep(await startPrometheus([[/ratio_rate5m/, () => 0.004], [/requests:rate5m/, rate5m]]));
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: src.url, prometheusUrl: prom.url }), { now: Date.now() });
    assert.equal(f.failure, undefined, f.failure?.message);
    assert.ok(f.windows.incident.from >= boundary, JSON.stringify(f.windows));
    // the points' mean over the 16-minute window from the boundary is 56.9 req/s: load +42%, and
    // +5% per request that is not there; read at 16 s points, a range's end falls between two
    // (one on the ramp), so within 0.5%
    assert.ok(Math.abs(f.load.value.incident.rate - 60) < 0.3, String(f.load.value.incident.rate));
    assert.ok(Math.abs(f.load.value.baseline.rate - 40) < 0.01, String(f.load.value.baseline.rate));
  });

  it('without Prometheus: approximate windows, and the load says why it is missing', async () => {
    const src = keep(await startProfileSource());
    const a = alert();
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: src.url }), { now: Date.now() });
    assert.equal(f.failure, undefined, f.failure?.message);
    assert.equal(f.windows.approximate, true);
    assert.deepEqual(f.load, { why: 'no Prometheus (--prometheus) to count the requests of each window' });
  });

  it('an outlier instance against its siblings: the baseline selects every other instance', async () => {
    const src = keep(await startProfileSource());
    const a = alert({ alertname: 'CPUPerRequestOutlier', labels: { namespace: 'shop', instance: '10.0.0.7:8080' } });
    const subject = diffSubject(a, COPY);
    assert.equal(subject.siblings, true);
    const f = await fetchDiffInputs(a, subject, cfg({ profilesUrl: src.url }), { now: Date.now() });
    assert.deepEqual(f.selectors, {
      incident: '{service_name="api", namespace="shop", instance="10.0.0.7:8080"}',
      baseline: '{service_name="api", namespace="shop", instance!="10.0.0.7:8080"}',
    });
  });

  it('a fixed cost with no profiles a day earlier: the next windows in turn, saying so', async () => {
    // an empty answer (no samples) for any window that ends more than half a day ago
    const src = keep(await startProfileSource((i, { end }) => (end < Date.now() - DAY / 2 ? { raw: Buffer.alloc(0) } : 'captures')));
    const a = alert({ alertname: 'CPUNotTrackingLoad' });
    const subject = diffSubject(a, COPY);
    assert.equal(subject.fixedCost, true);
    const f = await fetchDiffInputs(a, subject, cfg({ profilesUrl: src.url }), { now: Date.now() });
    assert.equal(f.failure, undefined, f.failure?.message);
    assert.equal(src.calls(), 4, 'the day-earlier windows, then the fallback');
    assert.match(f.windows.reason, /^no profiles the same hour a day earlier, so before the anomaly; approximate: no Prometheus/);
    assert.ok(f.windows.baseline.to > Date.now() - DAY / 2);
    assert.ok(f.baseline.samples > 0);
  });

  it('a fixed cost whose day-earlier windows have profiles keeps them', async () => {
    const src = keep(await startProfileSource());
    const a = alert({ alertname: 'CPUNotTrackingLoad' });
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: src.url }), { now: Date.now() });
    assert.equal(src.calls(), 2);
    assert.match(f.windows.reason, /^the same hour a day earlier/);
    assert.equal(f.windows.baseline.to, f.windows.incident.to - DAY);
  });

  it('an alert without a job label: the reason, and no request to the profile source', async () => {
    const src = keep(await startProfileSource());
    const a = alert({ job: '' });
    const lap = laps();
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: src.url }), { now: Date.now(), lap });
    assert.equal(f.reason, 'the alert has no job label to select its profiles by');
    assert.ok(f.windows.incident);
    assert.equal(src.calls(), 0);
    assert.deepEqual(lap.names, ['windows']);
  });

  it('a profile source that is down: the failure with its one-line reason, and the windows it asked for', async () => {
    const url = await downUrl();
    const a = alert();
    const lap = laps();
    const f = await fetchDiffInputs(a, diffSubject(a, COPY), cfg({ profilesUrl: url }), { now: Date.now(), lap });
    assert.ok(f.failure instanceof SourceError, String(f.failure));
    assert.match(f.failure.message, /^profile source http:\/\/127\.0\.0\.1:\d+ unreachable: ECONNREFUSED$/);
    assert.ok(f.windows.incident && f.windows.baseline);
    assert.deepEqual(lap.names, ['windows'], 'no profiles stage for profiles that never came');
  });
});

describe('compute', () => {
  const T = Date.parse('2026-03-02T10:00:00Z');
  const windows = { incident: { from: T - 15 * MINUTE, to: T }, baseline: { from: T - 45 * MINUTE, to: T - 30 * MINUTE }, reason: 'test' };
  const selectors = { incident: '{service_name="api"}', baseline: '{service_name="api"}' };
  const subject = { kind: 'cpu', siblings: false, fixedCost: false };
  let incident;
  let baseline;
  let empty;
  before(async () => {
    [incident, baseline, empty] = await Promise.all([decodeProfile(CAPTURES.incident, { sampleType: 'cpu' }), decodeProfile(CAPTURES.baseline, { sampleType: 'cpu' }), decodeProfile(new Uint8Array(0), { sampleType: 'cpu' })]);
  });
  const fetched = (o = {}) => ({ windows, selectors, incident, baseline, load: { value: { incident: { rate: 60 }, baseline: { rate: 40 } } }, ...o });

  it('per request when both windows\' request rates are known', () => {
    const c = computeDiff(subject, fetched());
    assert.deepEqual(c.requests, { incident: 60 * 900, baseline: 40 * 900 });
    assert.equal(c.answer.rankedBy, 'per-request');
    assert.equal(c.answer.unit, 'ns');
    assert.ok(c.answer.changes.length > 0);
    assert.equal(c.answer.incidentTotal, incident.total);
    assert.equal(c.requestsWhy, undefined);
    assert.equal(c.fixed, undefined);
  });

  it('absolute, saying why, when the load is missing or a rate is zero', () => {
    const c = computeDiff(subject, fetched({ load: { why: 'Prometheus answered 503' } }));
    assert.equal(c.requests, undefined);
    assert.equal(c.answer.rankedBy, 'absolute');
    assert.equal(c.requestsWhy, 'Prometheus answered 503');
    const zero = computeDiff(subject, fetched({ load: { value: { incident: { rate: 60 }, baseline: { rate: 0 } } } }));
    assert.equal(zero.requests, undefined);
    assert.equal(zero.requestsWhy, 'no request-rate samples in a window');
  });

  it('an outlier against its siblings: shares, with no reason to give for requests', () => {
    const c = computeDiff({ ...subject, siblings: true }, fetched({ load: { why: 'unused' } }));
    assert.equal(c.answer.rankedBy, 'share');
    assert.equal(c.requestsWhy, undefined);
  });

  it('a window without samples: a SourceError naming the window, its selector and its times', () => {
    assert.throws(() => computeDiff(subject, fetched({ incident: empty })), (e) => e instanceof SourceError && e.message === 'no cpu samples for {service_name="api"} in the incident window (2026-03-02T09:45:00.000Z to 2026-03-02T10:00:00.000Z)' && e.fixed === undefined);
    assert.throws(() => computeDiff(subject, fetched({ baseline: empty })), { message: 'no cpu samples for {service_name="api"} in the baseline window (2026-03-02T09:15:00.000Z to 2026-03-02T09:30:00.000Z)' });
  });

  it('a fixed cost keeps its own answer when the baseline is empty: where the CPU goes now', () => {
    let thrown;
    assert.throws(() => computeDiff({ ...subject, fixedCost: true }, fetched({ baseline: empty, load: { why: 'no Prometheus' } })), (e) => (thrown = e) instanceof SourceError);
    // without Prometheus, the profile's CPU over the 15-minute window
    assert.equal(thrown.fixed.incident.cores, incident.total / 1e9 / 900);
    assert.equal(thrown.fixed.baseline, undefined);
    assert.equal(thrown.fixed.baselineName, 'before the onset');
    assert.ok(thrown.fixed.share > 0 && thrown.fixed.path.length > 0, JSON.stringify(thrown.fixed));
  });

  it('a fixed cost\'s numbers: Prometheus\'s cores when given, the day-earlier baseline named', () => {
    const day = { ...windows, baseline: { from: windows.incident.from - DAY, to: windows.incident.to - DAY } };
    const f = fixedCostNumbers(incident.read.tree, day, { incident: { rate: 60, cores: 1.5 }, baseline: { rate: 58, cores: 0.5 } });
    assert.deepEqual({ ...f, share: undefined, path: undefined }, { incident: { cores: 1.5, rate: 60 }, baseline: { cores: 0.5, rate: 58 }, baselineName: 'the same hour a day earlier', share: undefined, path: undefined });
  });
});

describe('render', () => {
  const root = mkdtempSync(join(tmpdir(), 'hotpath-notify-render-step-'));
  let inputs;
  before(async () => {
    const [incident, baseline] = await Promise.all([decodeProfile(CAPTURES.incident, { sampleType: 'cpu' }), decodeProfile(CAPTURES.baseline, { sampleType: 'cpu' })]);
    inputs = { fetched: { type: { sampleType: 'cpu' }, incident, baseline }, computed: { answer: { trees: undefined }, requests: undefined } };
  });

  it('a storm (the picture would come too late): no picture, a note that says why, the render stage timed', async () => {
    const gate = new RenderGate({ slots: 1, budgetMs: 1000, initialRenderMs: 10_000, tmpRoot: join(root, 'storm') });
    const dir = join(root, 'storm-alert');
    const r = await renderPicture({ dir, ...inputs, gate, receivedAt: Date.now(), timeoutMs: 60_000, stopping: () => false });
    assert.equal(r.note, 'No picture: 0 alert(s) were waiting for the renderer; a picture would have come about 10s after the webhook. The changes come from the same profiles.');
    assert.equal(r.png, undefined);
    assert.deepEqual(Object.keys(r.stagesMs), ['render'], 'no wait for a renderer that was never asked');
    assert.ok(existsSync(dir));
  });

  it('a render that fails: no picture, the render\'s one-line reason in the note, the render stage timed', async () => {
    const gate = new RenderGate({ slots: 1, budgetMs: 300_000, tmpRoot: join(root, 'fails') });
    // the snapshot CLI, ended by its bound long before it can draw
    const r = await renderPicture({ dir: join(root, 'fails-alert'), ...inputs, gate, receivedAt: Date.now(), timeoutMs: 1, stopping: () => false });
    assert.equal(r.note, 'No picture: render timed out after 0s. The changes come from the same profiles.');
    assert.equal(r.png, undefined);
    assert.deepEqual(Object.keys(r.stagesMs), ['render']);
    assert.ok(r.stagesMs.render >= 0);
  });

  it('a render that fails while the receiver stops is thrown, not noted: its job stays in the journal', async () => {
    const gate = new RenderGate({ slots: 1, budgetMs: 300_000, tmpRoot: join(root, 'stopping') });
    await assert.rejects(renderPicture({ dir: join(root, 'stopping-alert'), ...inputs, gate, receivedAt: Date.now(), timeoutMs: 1, stopping: () => true }), (e) => e instanceof RenderError && e.message === 'render timed out after 0s');
  });
});
