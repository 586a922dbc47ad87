// Browser tests of per-request profiles: the real plugin/dist/module.js in Chromium,
// the overlay on the println captures (tests/fixtures) with a request-rate series (req/s, as the
// service dashboard's query D) on the strip. Asserts the three units, the load x per-request
// headline, the siblings baseline's queries and the sandwich view, on what the page renders.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { at, fixtureFrames, fixturePath, requestRateFrame, storySeries } from './lib/frames.mjs';
import { SNAPSHOT_CLI } from '@hotpath/headless/env.mjs';
import { openHost } from '@hotpath/headless/harness.mjs';
import { showView, topChanges, waitForWindows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

const RANGE = { from: at(0), to: at(60) };
const TARGETS = [
  { refId: 'A', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'job:cpu_seconds_per_request:ratio_rate5m{job="$job"}' },
  { refId: 'B', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'ALERTS{job="$job"}' },
  { refId: 'C', datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' }, queryType: 'profile', profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds', labelSelector: '{service_name="$job"}', groupBy: [] },
  { refId: 'D', datasource: { type: 'prometheus', uid: 'prom' }, expr: 'job:requests:rate5m{job="$job"}' },
];
const OPTIONS = { profileRefId: 'C', seriesRefIds: ['A', 'D'], anomalyRefId: 'B' };
// the selection after the incident, the baseline by hand well before it
const LINK = `/d/hotpath-service?var-job=api&hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=${at(5)}-${at(15)}`;

let h;
const frames = {};
const requests = [];
/** which frame answers a window's query: (from, labelSelector) -> frame name */
let answer;

/** req/s over the hour: `before` until minute 30, `after` from it (one series, or one per instance). */
const requestRate = (before, after, labels) =>
  requestRateFrame({ refId: 'D', name: labels ? `requests/s ${labels.instance}` : 'requests/s', ...RANGE, changeAt: at(30), before, after, labels });

before(async () => {
  h = await openHost({
    viewport: { width: 1100, height: 820 },
    onQuery: async (uid, request) => {
      const from = Date.parse(request.range.from);
      const target = request.targets[0];
      requests.push({ from, to: Date.parse(request.range.to), labelSelector: target.labelSelector });
      return { data: [frames[answer(from, target.labelSelector)]] };
    },
  });
  Object.assign(frames, await fixtureFrames(h.page, { baseline: 'println-baseline.cpu.pb.gz', incident: 'println-incident.cpu.pb.gz' }, { sampleType: 'cpu', refId: 'C' }));
  // the healthy profile under twice the traffic: every sample doubled, nothing else
  frames.doubled = await h.page.evaluate((frame) => {
    const d = window.hotpathHost.module.hotpathData;
    const t = d.readOrThrow(frame);
    const k = (a) => a.map((v) => v * 2);
    return d.treeToFrame({ ...t, total: k(t.total), self: k(t.self) }, { refId: 'C' });
  }, frames.baseline);
  await h.page.evaluate(() => window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }]));
});

after(async () => {
  await h?.close();
});

beforeEach(() => {
  requests.length = 0;
  answer = (from) => (from >= at(30) ? 'incident' : 'baseline');
});

const byId = (id) => h.page.getByTestId(id);
const search = async () => new URLSearchParams((await h.page.evaluate(() => window.hotpathHost.location())).split('?')[1] ?? '');
const checked = (group, label) => byId(group).getByLabel(label, { exact: true }).isChecked();

async function renderPanel({ url = LINK, rate = [requestRate(50, 50)] } = {}) {
  await h.page.evaluate(() => window.hotpathHost.unmount());
  await h.page.evaluate((u) => window.hotpathHost.setLocation(u), url);
  await h.render({
    series: [...storySeries({ from: RANGE.from, to: RANGE.to, incidentFrom: at(30), alertFrom: at(33) }), ...rate, frames.incident],
    targets: TARGETS,
    options: OPTIONS,
    variables: { job: 'api', profiles: 'pyro' },
    timeRange: RANGE,
    width: 1000,
    height: 720,
  });
  await byId(TEST_IDS.strip).waitFor();
  const w = await waitForWindows(h.page);
  assert.equal(w.comparison.status, 'done', w.comparison.text);
}

describe('per-request profiles in Chromium', () => {
  it('println with load flat: per request by default, the headline says per request, the three units switch', async () => {
    await renderPanel();
    await showView(h.page, 'Diff');
    assert.equal(await checked(TEST_IDS.units, 'Per request'), true);
    const headline = byId(TEST_IDS.headline);
    assert.match(await headline.innerText(), /^CPU \+\d+% = load ~0% × per request \+\d+%/);
    assert.equal(await headline.getAttribute('data-driver'), 'per request');
    const ratios = await headline.evaluate((e) => ['totalRatio', 'loadRatio', 'perRequestRatio'].map((k) => Number(e.dataset[k])));
    assert.ok(Math.abs(ratios[1] * ratios[2] - ratios[0]) < 1e-9 * ratios[0], `the split multiplies back: ${ratios}`);
    const top = await topChanges(h.page, 3);
    assert.match(top[0].name, /internal\/encoding\/text|prototext|protobuf|fmt\./);
    assert.match(top[0].perRequest, /^\+[\d.]+ [µnm]?s\/req$/);
    assert.match(top[0].absolute, /^\+[\d.]+ (ms|s|min)$/);
    assert.match(top[0].change, /^\+\d+\.\d\d pp$/);
    assert.equal(top[0].flagged, true);
    assert.match(await byId(TEST_IDS.legend).innerText(), /per request/);
    await h.screenshot('per-request-diff-println');

    // the unit is in the URL; the table ranks by it and shows the sides in it
    await byId(TEST_IDS.units).getByLabel('Absolute', { exact: true }).click();
    assert.equal((await search()).get('hotpath-unit'), 'absolute');
    assert.equal(await byId(TEST_IDS.changesTable).getAttribute('data-unit'), 'absolute');
    await byId(TEST_IDS.units).getByLabel('Share', { exact: true }).click();
    assert.equal(await byId(TEST_IDS.changesTable).getAttribute('data-unit'), 'share');
    assert.match((await topChanges(h.page, 1))[0].comparison, /^\d+\.\d\d%$/);

    // search totals speak the unit too
    await byId(TEST_IDS.units).getByLabel('Per request', { exact: true }).click();
    await byId(TEST_IDS.search).fill('Println');
    assert.match(await byId(TEST_IDS.searchShare).innerText(), /frames: [\d.]+ [µnm]?s\/req \([\d.]+% of samples\) \(baseline\) → [\d.]+ [µnm]?s\/req/);
    await showView(h.page, 'Changes');
    await byId(TEST_IDS.headline).waitFor();
    await h.screenshot('per-request-changes-println');
    assert.deepEqual(h.pageErrors, []);
  });

  it('a traffic doubling that CPU follows reads load +100%, per request ~0%, with no function flagged', async () => {
    answer = (from) => (from >= at(30) ? 'doubled' : 'baseline');
    await renderPanel({ rate: [requestRate(50, 100)] });
    await showView(h.page, 'Changes');
    const headline = byId(TEST_IDS.headline);
    assert.match(await headline.innerText(), /^CPU \+100% = load \+100% × per request ~0%.*No function flagged\./s);
    assert.equal(await headline.getAttribute('data-driver'), 'load');
    const rows = await topChanges(h.page, 50);
    assert.ok(rows.length > 5);
    assert.deepEqual(rows.filter((r) => r.flagged), []);
    await h.screenshot('per-request-traffic-doubling');
  });

  it('without a request-rate series: the panel says so and shows shares', async () => {
    await renderPanel({ rate: [] });
    await showView(h.page, 'Diff');
    assert.equal(await checked(TEST_IDS.units, 'Share'), true);
    assert.equal(await byId(TEST_IDS.units).getByLabel('Per request', { exact: true }).isDisabled(), true);
    assert.match(await byId(TEST_IDS.unitNotice).innerText(), /No request-rate series/);
    assert.match(await byId(TEST_IDS.headline).innerText(), /No load vs per-request split/);
  });

  it("siblings: the outlier alert's link compares the instance with every other one, in the same window", async () => {
    // the slow instance answers with the incident, its siblings with the healthy profile
    answer = (_from, selector) => (selector.includes('instance="catalog-2"') ? 'incident' : 'baseline');
    const rate = ['catalog-1', 'catalog-2', 'catalog-3'].map((instance) => requestRate(30, 30, { instance }));
    await renderPanel({ url: `/d/hotpath-service?var-job=api&hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-instance=catalog-2&hotpath-view=diff`, rate });
    assert.deepEqual(
      requests.map((r) => [r.from, r.to, r.labelSelector]),
      [
        // the datasource replaces $job, as Grafana's does
        [at(40), at(50), '{service_name="$job", instance="catalog-2"}'],
        [at(40), at(50), '{service_name="$job", instance!="catalog-2"}'],
      ]
    );
    assert.equal(await checked(TEST_IDS.baselineMode, 'Siblings'), true);
    assert.equal(await byId(TEST_IDS.instance).inputValue(), 'catalog-2');
    // a third of the traffic against two thirds: load −50%, the rest is per request
    assert.match(await byId(TEST_IDS.headline).innerText(), /^CPU [+−]\d+% = load −50% × per request \+\d+%/);
    assert.match((await topChanges(h.page, 1))[0].name, /internal\/encoding\/text|prototext|protobuf|fmt\./);
    await h.screenshot('per-request-siblings');
  });

  it('sandwich: a function picked in the diff shows its callers above and callees below, drawn', async () => {
    await renderPanel({ url: `${LINK}&hotpath-view=diff` });
    await byId(TEST_IDS.topTable).locator('tbody tr', { hasText: /^fmt\.Fprintln/ }).first().click();
    await byId(TEST_IDS.sandwichToggle).click();
    const sw = byId(TEST_IDS.sandwich);
    assert.equal(await sw.getAttribute('data-function'), 'fmt.Fprintln');
    assert.ok(Number(await sw.getAttribute('data-occurrences')) >= 1);
    // both halves hold pixels: callers (flame, growing up) and callees (icicle)
    for (const id of [TEST_IDS.sandwichCallers, TEST_IDS.sandwichCallees]) {
      const painted = await byId(id)
        .locator(`[data-testid="${TEST_IDS.canvas}"]`)
        .evaluate((c) => {
          const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < px.length; i += 4) n += px[i] > 0 ? 1 : 0;
          return n;
        });
      assert.ok(painted > 1000, `${id}: ${painted} painted pixels`);
    }
    // a caller's tooltip in the diff carries its change per request
    // the callers' half shows its bottom rows (the function, then its direct callers)
    const box = await byId(TEST_IDS.sandwichCallers).boundingBox();
    assert.ok(box.x >= 0, `the panel fits its width: ${JSON.stringify(box)}`);
    await h.page.mouse.move(box.x + 20, box.y + box.height - 30);
    assert.match(await byId(TEST_IDS.tooltip).innerText(), /Change\s+[+−±][\d.]+ [µnm]?s\/req/);
    await h.screenshot('per-request-sandwich');
    assert.deepEqual(h.pageErrors, []);
  });
});

describe('the snapshot CLI per request', () => {
  it('--requests and --baseline-requests: summary.json carries the split and per-request values; bad counts are refused', async () => {
    const out = mkdtempSync(join(tmpdir(), 'hotpath-snapshot-'));
    const cli = SNAPSHOT_CLI;
    const run = (...flags) => promisify(execFile)(process.execPath, [cli, '--profile', fixturePath('println-incident.cpu.pb.gz'), '--baseline', fixturePath('println-baseline.cpu.pb.gz'), '--sample-type', 'cpu', '--out', out, ...flags]);
    try {
      await run('--requests', '30000', '--baseline-requests', '30000');
      const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).perRequest;
      assert.equal(s.unit, 'ns/req');
      assert.equal(s.decomposition.driver, 'per request');
      assert.equal(s.decomposition.loadRatio, 1);
      assert.match(s.decomposition.headline, /^CPU \+\d+% = load ~0% × per request \+\d+%$/);
      assert.ok(Math.abs(s.totalPerRequest / s.baselineTotalPerRequest - s.decomposition.perRequestRatio) < 1e-9);
      assert.match(s.diff.top[0].function, /internal\/encoding\/text|prototext|protobuf|fmt\./);
      assert.ok(s.diff.top[0].perRequestDelta > 0 && s.diff.top[0].flagged);
      await assert.rejects(run('--requests', '30000'), (e) => e.code === 2 && /needs --baseline-requests/.test(e.stderr));
      await assert.rejects(run('--requests', '0', '--baseline-requests', '5'), (e) => e.code === 2 && /--requests is the window's request count/.test(e.stderr));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
