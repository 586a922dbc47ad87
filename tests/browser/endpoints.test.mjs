// Browser tests of the overlay's endpoint filter: the real plugin/dist/module.js in Chromium, a
// stand-in Pyroscope datasource answering the panel's profile query grouped by the endpoint labels
// (Grafana's `metrics` query type: one series per set of label values) and each window's profile
// (the println captures), and a per-endpoint request rate (the service dashboard's query G).
// Asserts the profile split the picker offers, the unlabelled share, the matcher both windows'
// queries carry, and values per request of the endpoint's own requests.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

import { at, fixtureFrames, requestRateFrame, storySeries } from './lib/frames.mjs';
import { openHost } from '@hotpath/headless/harness.mjs';
import { waitForWindows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

const RANGE = { from: at(0), to: at(60) };
const TARGETS = [
  { refId: 'A', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'job:cpu_seconds_per_request:ratio_rate5m{job="$job"}' },
  { refId: 'B', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'ALERTS{job="$job"}' },
  { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: 'pyro' }, queryType: 'profile', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', labelSelector: '{service_name="$job"}', groupBy: [] },
  { refId: 'D', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'job:requests:rate5m{job="$job"}' },
  { refId: 'G', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'sum by (endpoint) (job_endpoint:requests:rate5m{job="$job"})' },
];
const OPTIONS = { profileRefId: 'C', seriesRefIds: ['A', 'D'], anomalyRefId: 'B', requestsRefId: 'D', endpointLabels: 'http.route,grpc.method,span_name', endpointRequestsRefId: 'G' };
// the selection after the incident, the baseline by hand well before it
const WINDOWS = `hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=${at(5)}-${at(15)}&hotpath-view=diff`;

let h;
const frames = {};
const requests = [];

/** req/s over the hour: `before` until minute 30, `after` from it. */
const rate = (refId, name, before, after, labels) => requestRateFrame({ refId, name, ...RANGE, changeAt: at(30), before, after, labels });

/** The profile grouped by the endpoint labels: CPU nanoseconds a step, one frame per set of label values. */
function grouped(target) {
  const times = [];
  for (let t = RANGE.from; t <= RANGE.to; t += 60_000) {
    times.push(t);
  }
  const series = (labels, perStep) => ({
    refId: target.refId,
    name: Object.values(labels).join(',') || 'unlabelled',
    fields: [
      { name: 'time', type: 'time', values: times, config: {} },
      { name: 'value', type: 'number', values: times.map(() => perStep), labels, config: {} },
    ],
  });
  // /search by its route (and once as a span name, normalised to the same endpoint), /healthz by
  // its span name, a tenth of the profile without an endpoint label
  return [series({ 'http.route': '/search' }, 5e8), series({ span_name: 'GET /search/' }, 1e8), series({ span_name: 'GET /healthz' }, 3e8), series({}, 1e8)];
}

before(async () => {
  h = await openHost({
    viewport: { width: 1200, height: 820 },
    onQuery: async (uid, request) => {
      const target = request.targets[0];
      const from = Date.parse(request.range.from);
      requests.push({ uid, from, to: Date.parse(request.range.to), target });
      if (target.queryType === 'metrics') {
        return { data: grouped(target) };
      }
      return { data: [frames[from >= at(30) ? 'incident' : 'baseline']] };
    },
  });
  Object.assign(frames, await fixtureFrames(h.page, { baseline: 'println-baseline.cpu.pb.gz', incident: 'println-incident.cpu.pb.gz' }, { sampleType: 'cpu', refId: 'C' }));
  await h.page.evaluate(() => window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }]));
});

after(async () => {
  await h?.close();
});

beforeEach(() => {
  requests.length = 0;
});

const byId = (id) => h.page.getByTestId(id);

async function renderPanel(url, options = OPTIONS) {
  await h.page.evaluate(() => window.hotpathHost.unmount());
  await h.page.evaluate((u) => window.hotpathHost.setLocation(u), url);
  await h.render({
    series: [
      ...storySeries({ from: RANGE.from, to: RANGE.to, incidentFrom: at(30), alertFrom: at(33) }),
      frames.incident,
      // the service's requests flat; /search's halve and /healthz's grow at minute 30
      rate('D', 'requests/s', 10, 10),
      rate('G', '/search requests/s', 4, 2, { endpoint: '/search' }),
      rate('G', '/healthz requests/s', 6, 8, { endpoint: '/healthz' }),
    ],
    targets: TARGETS,
    options,
    variables: { job: 'api' },
    timeRange: RANGE,
    width: 1100,
    height: 720,
  });
  await byId(TEST_IDS.strip).waitFor();
}

const profileRequests = () => requests.filter((r) => r.target.queryType === 'profile');

describe('the overlay narrowed to one endpoint', () => {
  it("an endpoint alert's link (hotpath-endpoint): both windows' queries carry the endpoint's label matcher, per request counts its own requests", async () => {
    await renderPanel(`/d/hotpath-service?var-job=api&${WINDOWS}&hotpath-endpoint=%2Fsearch`);
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'done', w.comparison.text);
    assert.equal(w.baseline.status, 'done', w.baseline.text);
    // one query for the split, over the dashboard range, grouped by the endpoint labels
    const split = requests.filter((r) => r.target.queryType === 'metrics');
    assert.equal(split.length, 1, JSON.stringify(requests.map((r) => r.target)));
    assert.deepEqual(split[0].target.groupBy, ['http.route', 'grpc.method', 'span_name']);
    assert.deepEqual([split[0].from, split[0].to], [RANGE.from, RANGE.to]);
    // the windows waited for the matcher: no whole-profile fetch first; /search's costliest
    // source is its route label
    const selectors = profileRequests().map((r) => r.target.labelSelector);
    assert.equal(selectors.length, 2, JSON.stringify(selectors));
    for (const s of selectors) {
      assert.match(s, /^\{service_name="(\$job|api)", "http\.route"="\/search"\}$/);
    }
    // the picker: the endpoint picked, the profile's tenth without an endpoint label
    assert.match(await byId(TEST_IDS.endpoint).innerText(), /\/search/);
    assert.equal(await byId(TEST_IDS.endpointUnlabelled).innerText(), '10% unlabelled');
    // per request of /search's own requests: 4 req/s in the baseline, 2 in the selection (the
    // service's stayed at 10): load is x0.5
    const headline = byId(TEST_IDS.headline);
    await headline.waitFor();
    const load = Number(await headline.evaluate((e) => e.dataset.loadRatio));
    assert.ok(Math.abs(load - 0.5) < 0.01, `load ratio ${load}: the service's requests were counted, not the endpoint's`);
    assert.equal(await byId(TEST_IDS.units).getByLabel('Per request').isChecked(), true);
    await h.screenshot('overlay-endpoint');
    assert.deepEqual(h.pageErrors, []);
  });

  it('picking an endpoint in the header narrows both windows; All endpoints widens them again', async () => {
    await renderPanel(`/d/hotpath-service?var-job=api&${WINDOWS}`);
    await waitForWindows(h.page);
    assert.deepEqual(
      profileRequests().map((r) => r.target.labelSelector.replace('$job', 'api')),
      ['{service_name="api"}', '{service_name="api"}'],
      'no endpoint picked: the query as it is'
    );
    await byId(TEST_IDS.endpoint).locator('input').click();
    await h.page.getByText('/healthz', { exact: true }).click();
    await h.page.waitForFunction(() => new URLSearchParams(window.hotpathHost.location().split('?')[1] ?? '').get('hotpath-endpoint') === '/healthz');
    await waitForWindows(h.page);
    const narrowed = profileRequests().slice(2).map((r) => r.target.labelSelector.replace('$job', 'api'));
    // /healthz only ever came as a span name with a method: the raw value, exactly
    assert.deepEqual(narrowed, ['{service_name="api", span_name="GET /healthz"}', '{service_name="api", span_name="GET /healthz"}']);
    await byId(TEST_IDS.endpoint).locator('input').click();
    await h.page.getByText('All endpoints', { exact: true }).click();
    await h.page.waitForFunction(() => !new URLSearchParams(window.hotpathHost.location().split('?')[1] ?? '').get('hotpath-endpoint'));
    await waitForWindows(h.page);
    assert.equal(profileRequests().length, 4, 'back to the cached whole-profile windows: no new fetch');
    assert.deepEqual(h.pageErrors, []);
  });

  it('an endpoint the range does not have: says so, and the windows show the whole profile', async () => {
    await renderPanel(`/d/hotpath-service?var-job=api&${WINDOWS}&hotpath-endpoint=%2Fcheckout`);
    await waitForWindows(h.page);
    assert.match(await byId(TEST_IDS.endpointNotice).innerText(), /^No samples of endpoint \/checkout in the dashboard range/);
    assert.deepEqual(
      profileRequests().map((r) => r.target.labelSelector.replace('$job', 'api')),
      ['{service_name="api"}', '{service_name="api"}']
    );
  });

  it('without endpoint labels there is no picker and no extra query', async () => {
    await renderPanel(`/d/hotpath-service?var-job=api&${WINDOWS}`, { ...OPTIONS, endpointLabels: '' });
    await waitForWindows(h.page);
    assert.equal(await byId(TEST_IDS.endpoint).count(), 0);
    assert.equal(requests.filter((r) => r.target.queryType === 'metrics').length, 0);
  });
});
