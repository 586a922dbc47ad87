// Browser tests of the overlay: the real plugin/dist/module.js in Chromium, a
// stand-in Pyroscope datasource (getDataSourceSrv) answering each window's query with frames
// built from the real pprof captures in tests/fixtures, windows dragged with the mouse.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';

import { at, fixturePath, OVERLAY_TARGETS as TARGETS, pprofFrame, storySeries, timeSeriesFrame } from './lib/frames.mjs';
import { openHost } from '@hotpath/headless/harness.mjs';
import { dragWindow, showView, shownWindows, topChanges, waitForWindows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

const RANGE = { from: at(0), to: at(60) };
// the dashboard's options (after the migration from its placeholder names)
const OPTIONS = { profileRefId: 'C', seriesRefIds: ['A'], anomalyRefId: 'B' };

let h;
const frames = {};
/** what the stand-in does with the next queries: 'ok' | 'error' | 'empty' | 'empty-before-range' | a delay in ms */
let behaviour = 'ok';
let story = 'println';
const requests = [];
const cancelled = [];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  h = await openHost({
    viewport: { width: 1100, height: 820 },
    onQuery: async (uid, request) => {
      const from = Date.parse(request.range.from);
      const to = Date.parse(request.range.to);
      requests.push({ uid, from, to, requestId: request.requestId, target: request.targets[0] });
      const b = behaviour;
      if (typeof b === 'number') {
        await sleep(b);
      }
      if (b === 'error') {
        throw new Error('pyroscope: 503 upstream unavailable');
      }
      if (b === 'empty' || (b === 'empty-before-range' && from < RANGE.from)) {
        return { data: [] };
      }
      // the window lies mostly after the incident started (minute 30): the incident capture
      const incident = (from + to) / 2 >= at(30);
      return { data: [frames[`${story}-${incident ? 'incident' : 'baseline'}`]] };
    },
    onCancel: (uid, requestId) => {
      cancelled.push(requestId);
    },
  });
  for (const [name, file, sampleType] of [
    ['println-baseline', 'println-baseline.cpu.pb.gz', 'cpu'],
    ['println-incident', 'println-incident.cpu.pb.gz', 'cpu'],
    ['epoll-baseline', 'epoll-baseline.cpu.pb.gz', 'cpu'],
    ['epoll-incident', 'epoll-incident.cpu.pb.gz', 'cpu'],
  ]) {
    const r = await pprofFrame(h.page, fixturePath(file), { sampleType, refId: 'C' });
    assert.ok(r.frame, r.error);
    frames[name] = r.frame;
  }
  await h.page.evaluate(() => window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }]));
});

after(async () => {
  await h?.close();
});

beforeEach(async () => {
  await installDrilldown(false);
  behaviour = 'ok';
  story = 'println';
  requests.length = 0;
  cancelled.length = 0;
});

const byId = (id) => h.page.getByTestId(id);

/** Installs Profiles Drilldown (or not) in Grafana's boot config, where Grafana lists the app plugins installed: config.apps. */
const installDrilldown = (installed) =>
  h.page.evaluate((on) => {
    window.hotpathHost.runtime.config.apps = on ? { 'grafana-pyroscope-app': { id: 'grafana-pyroscope-app', path: '', version: '1.0.0', preload: false } } : {};
  }, installed);

/** Renders the dashboard's overlay panel over the hour, with the whole-range profile from the query runner. */
async function renderPanel({ url = '/d/hotpath-service?var-job=api', series, options = OPTIONS, height = 720, width = 1000, targets = TARGETS, variables = { job: 'api', profiles: 'pyro', datasource: 'prom' } } = {}) {
  await h.page.evaluate(() => window.hotpathHost.unmount());
  await h.page.evaluate((u) => window.hotpathHost.setLocation(u), url);
  await h.render({
    series: series ?? [...storySeries({ from: RANGE.from, to: RANGE.to, incidentFrom: at(30), alertFrom: at(33) }), frames[`${story}-incident`]],
    targets,
    options,
    variables,
    timeRange: RANGE,
    width,
    height,
  });
  await byId(TEST_IDS.strip).waitFor();
}

/**
 * The text of the panel's status line and notices that runs past the panel's right edge, or past
 * the box that clips it (cut mid-word, where an ellipsis should end it): each element holding
 * text whose right edge lies beyond the panel's, or beyond an ancestor that clips its overflow.
 * Text that a box ends with an ellipsis (text-overflow: ellipsis) is not listed: the reader sees
 * where it is cut.
 */
const pastEdge = () =>
  h.page.evaluate((ids) => {
    const panel = document.querySelector(`[data-testid="${ids.panel}"]`);
    const out = [];
    for (const root of ids.roots.map((id) => panel.querySelector(`[data-testid="${id}"]`)).filter(Boolean)) {
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (![...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())) {
          continue;
        }
        let clip = panel.getBoundingClientRect().right;
        let right = e.getBoundingClientRect().right;
        for (let a = e.parentElement; a && a !== panel.parentElement; a = a.parentElement) {
          const style = getComputedStyle(a);
          if (style.overflowX === 'visible') {
            continue;
          }
          const box = a.getBoundingClientRect().right;
          if (style.textOverflow === 'ellipsis' && !/flex|grid/.test(style.display)) {
            right = Math.min(right, box); // hidden past here, and an ellipsis says so (a flex box ends no line)
          } else {
            clip = Math.min(clip, box);
          }
        }
        if (right > clip + 1) {
          out.push(`${e.textContent.trim().slice(0, 80)} (to x=${Math.round(right)}, cut at ${Math.round(clip)})`);
        }
      }
    }
    return out;
  }, { panel: TEST_IDS.overlayPanel, roots: [TEST_IDS.status, TEST_IDS.stripNotice, TEST_IDS.error] });

const search = async () => new URLSearchParams((await h.page.evaluate(() => window.hotpathHost.location())).split('?')[1] ?? '');

describe('the overlay in Chromium', () => {
  it('drag a window: its profile and the baseline load; the diff tops with the fixture\'s text marshalling', async () => {
    await renderPanel();
    assert.ok((await h.page.locator(`[data-testid="${TEST_IDS.anomaly}"]`).count()) >= 1, 'the ALERTS windows are shaded');
    await h.screenshot('overlay-strip');
    await dragWindow(h.page, at(40), at(55));
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'done', w.comparison.text);
    assert.equal(w.baseline.status, 'done', w.baseline.text);
    // automatic baseline: 15 minutes ending where the alert went pending (minute 33)
    const shown = await shownWindows(h.page);
    assert.ok(Math.abs(shown.selection.from - at(40)) < 10_000 && Math.abs(shown.selection.to - at(55)) < 10_000, JSON.stringify(shown));
    assert.equal(shown.baseline.to, at(33));
    assert.equal(shown.baseline.to - shown.baseline.from, shown.selection.to - shown.selection.from);
    assert.match(w.baseline.text, /before the anomaly/);
    assert.deepEqual(
      requests.map((r) => [r.uid, r.target.refId, r.target.queryType, r.from === shown.selection.from || r.from === shown.baseline.from]),
      [
        ['pyro', 'C', 'profile', true],
        ['pyro', 'C', 'profile', true],
      ]
    );
    await h.screenshot('overlay-selected');

    await showView(h.page, 'Diff');
    const top = await topChanges(h.page, 3);
    assert.match(top[0].name, /google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString/);
    assert.match(top[0].change, /^\+\d+\.\d\d pp$/);
    await byId(TEST_IDS.legend).waitFor();
    await h.screenshot('overlay-diff');
    assert.equal((await search()).get('hotpath-view'), 'diff');

    await showView(h.page, 'Side by side');
    await byId(TEST_IDS.sideBySide).waitFor();
    await h.screenshot('overlay-side-by-side');
    await showView(h.page, 'Changes');
    assert.match((await topChanges(h.page, 1))[0].name, /text\.appendString/);
    await h.screenshot('overlay-changes');
    await showView(h.page, 'Flame graph');
    assert.equal(requests.length, 2, 'switching views does not re-fetch');
    assert.deepEqual(h.pageErrors, []);
  });

  it('the windows are in the URL: a link reproduces the view', async () => {
    const url = await h.page.evaluate(() => window.hotpathHost.location());
    const q = new URLSearchParams(url.split('?')[1]);
    assert.match(q.get('hotpath-window'), /^\d{13}-\d{13}$/);
    assert.equal(q.get('var-job'), 'api', 'the dashboard\'s own parameters stay');
    // a fresh panel on that URL, as after following the link
    await h.page.evaluate((u) => window.hotpathHost.setLocation(u), url.replace('hotpath-view=flame', '') + '&hotpath-view=diff');
    await renderPanel({ url: `${url}&hotpath-view=diff` });
    await waitForWindows(h.page);
    assert.match((await topChanges(h.page, 1))[0].name, /text\.appendString/);
    await h.screenshot('overlay-from-link');
  });

  it("an alert's dashboard_url (hotpath-at) opens the panel on the anomaly, diffed against the window before it", async () => {
    // what jsonnet/lib/alert-links.libsonnet renders for an evaluation at minute 45
    await renderPanel({ url: `/d/hotpath-service?var-job=api&from=${at(45) - 3 * 3600_000}&to=${at(45) + 1800_000}&hotpath-at=${at(45)}&hotpath-view=diff` });
    const w = await waitForWindows(h.page);
    assert.equal(w.baseline.status, 'done');
    const q = await search();
    assert.equal(q.get('hotpath-at'), null);
    const shown = await shownWindows(h.page);
    // the alert's ALERTS series starts (pending) at minute 33 and runs to the end of the range
    assert.deepEqual(shown.selection, { from: at(33), to: at(60) });
    assert.equal(shown.baseline.to, at(33));
    assert.match((await topChanges(h.page, 1))[0].name, /text\.appendString/);
    await h.screenshot('overlay-alert-link');
  });

  it('Shift-drag picks the baseline by hand; dragging a window edge adjusts it', async () => {
    await renderPanel();
    await dragWindow(h.page, at(40), at(50));
    await dragWindow(h.page, at(5), at(15), { shift: true });
    const w = await waitForWindows(h.page);
    assert.equal(w.baseline.status, 'done');
    assert.match(w.baseline.text, /chosen by hand/);
    assert.match((await search()).get('hotpath-baseline'), /^\d{13}-\d{13}$/);
    const before = await shownWindows(h.page);
    // grab the selection's right edge and pull it to minute 58
    await dragWindow(h.page, before.selection.to, at(58));
    const afterDrag = await shownWindows(h.page);
    assert.equal(afterDrag.selection.from, before.selection.from);
    assert.ok(Math.abs(afterDrag.selection.to - at(58)) < 10_000, JSON.stringify(afterDrag));
    assert.deepEqual(afterDrag.baseline, before.baseline, 'the hand-picked baseline stays');
    await waitForWindows(h.page);
    await h.screenshot('overlay-manual-baseline');
  });

  it('a new window cancels the fetch it supersedes', async () => {
    await renderPanel();
    behaviour = 1500;
    await dragWindow(h.page, at(40), at(45));
    await h.page.waitForFunction(() => true);
    await dragWindow(h.page, at(46), at(58));
    await waitForWindows(h.page, { timeout: 20_000 });
    const first = requests.find((r) => r.from < at(45) && r.from >= at(39));
    assert.ok(first, JSON.stringify(requests));
    assert.ok(cancelled.includes(first.requestId), `the first window's request ${first.requestId} was cancelled (${cancelled})`);
  });

  it('the epoll story: the diff tops with the busy epoll loop', async () => {
    story = 'epoll';
    await renderPanel();
    await dragWindow(h.page, at(40), at(55));
    await waitForWindows(h.page);
    await showView(h.page, 'Diff');
    const top = await topChanges(h.page, 3);
    assert.match(top.map((r) => r.name).join('\n'), /EpollWait|Syscall6|epoll/, JSON.stringify(top));
    await h.screenshot('overlay-diff-epoll');
  });
});

describe('bad input: clear states, no crash', () => {
  it('a profile query that errors says what failed and offers a retry', async () => {
    await renderPanel();
    behaviour = 'error';
    await dragWindow(h.page, at(40), at(50));
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'error');
    assert.match(w.comparison.text, /failed/);
    assert.match(await byId(TEST_IDS.error).innerText(), /could not be loaded\s+The profile query failed in .*pyroscope: 503 upstream unavailable/);
    await h.screenshot('overlay-query-error');
    behaviour = 'ok';
    await byId(TEST_IDS.error).getByTestId(TEST_IDS.retry).click();
    await h.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-status') === 'done', TEST_IDS.statusComparison);
  });

  it('a window with no samples says so', async () => {
    await renderPanel();
    behaviour = 'empty';
    await dragWindow(h.page, at(40), at(50));
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'empty');
    assert.match(w.comparison.text, /no samples/);
    assert.match(await byId(TEST_IDS.error).innerText(), /No samples in the selected window\s+No samples in 2026-01-15 10:40:00/);
    await h.screenshot('overlay-no-samples');
  });

  it('time series with gaps and NaN, no anomaly series, the profile query failed in the query runner', async () => {
    const times = Array.from({ length: 241 }, (_, i) => RANGE.from + i * 15_000);
    const values = times.map((t, i) => (i % 40 < 5 ? null : i % 17 === 0 ? 'NaN' : 0.003 + (t > at(30) ? 0.004 : 0)));
    await h.page.evaluate(() => window.hotpathHost.unmount());
    await h.page.evaluate(() => window.hotpathHost.setLocation('/d/hotpath-service?var-job=api'));
    await h.render({
      series: [timeSeriesFrame({ refId: 'A', name: 'CPU per request', times, values, unit: 's' })],
      errors: [{ message: 'pyroscope: bad gateway', refId: 'C' }],
      targets: TARGETS,
      options: OPTIONS,
      variables: { job: 'api', profiles: 'pyro' },
      timeRange: RANGE,
      width: 1000,
      height: 500,
    });
    assert.equal(await h.page.locator(`[data-testid="${TEST_IDS.anomaly}"]`).count(), 0);
    assert.match(await byId(TEST_IDS.error).innerText(), /Query C: pyroscope: bad gateway/);
    const path = await byId(TEST_IDS.strip).locator('path').first().getAttribute('d');
    assert.ok((path.match(/M/g) ?? []).length > 3, 'the line breaks at the gaps');
    await dragWindow(h.page, at(40), at(50));
    assert.equal((await waitForWindows(h.page)).comparison.status, 'done');
    await h.screenshot('overlay-gaps');
    assert.deepEqual(h.pageErrors, []);
  });

  it("the service dashboard's deploy annotation is a mark on the strip, at the rollout, not a window", async () => {
    // What Grafana hands the panel for the `deploys` annotation (useValueForTime: the rollout's
    // time is the series' value): the Prometheus datasource's processEvents makes one event of
    // the repeated value, time == timeEnd, and the dashboard turns it into a frame whose isRegion
    // is false (timeEnd equals time).
    const rollout = at(25);
    const annotations = [
      {
        fields: [
          { name: 'time', type: 'time', values: [rollout] },
          { name: 'timeEnd', type: 'time', values: [rollout] },
          { name: 'title', type: 'string', values: ['deploy 1.42'] },
          { name: 'text', type: 'string', values: ['1.41 → 1.42'] },
          { name: 'tags', type: 'other', values: [['1.42']] },
          { name: 'color', type: 'string', values: ['blue'] },
          { name: 'isRegion', type: 'boolean', values: [false] },
        ],
      },
    ];
    await h.page.evaluate(() => window.hotpathHost.unmount());
    await h.page.evaluate(() => window.hotpathHost.setLocation('/d/hotpath-service?var-job=api'));
    await h.render({
      series: [...storySeries({ from: RANGE.from, to: RANGE.to, incidentFrom: at(30), alertFrom: at(33) }), frames['println-incident']],
      annotations,
      targets: TARGETS,
      options: OPTIONS,
      variables: { job: 'api', profiles: 'pyro', datasource: 'prom' },
      timeRange: RANGE,
      width: 1000,
      height: 720,
    });
    const marks = h.page.locator(`[data-testid="${TEST_IDS.annotation}"]`);
    assert.equal(await marks.count(), 1);
    assert.equal(await marks.first().locator('title').textContent(), 'deploy 1.42');
    // a point: a dashed line, no shaded region
    assert.equal(await marks.first().locator('line').count(), 1);
    // Grafana's named colour, resolved by the theme (a bare 'blue' is near black on the dark theme)
    assert.match(await marks.first().locator('line').getAttribute('stroke'), /^#[0-9a-f]{6}$/i);
    const strip = await byId(TEST_IDS.strip).boundingBox();
    const line = await marks.first().locator('line').boundingBox();
    const share = (line.x - strip.x) / strip.width;
    assert.ok(Math.abs(share - 25 / 60) < 0.05, `the mark sits at ${share.toFixed(3)} of the strip; the rollout is at ${(25 / 60).toFixed(3)}`);
    // the automatic baseline still ends where the alert went pending: a deploy is not an anomaly window
    await dragWindow(h.page, at(40), at(55));
    await waitForWindows(h.page);
    assert.equal((await shownWindows(h.page)).baseline.to, at(33));
    await h.screenshot('overlay-deploy-mark');
    assert.deepEqual(h.pageErrors, []);
  });

  it("the dashboard's placeholder options are migrated (timeSeriesRefId)", async () => {
    await renderPanel({ options: { profileRefId: 'C', timeSeriesRefId: 'A', anomalyRefId: 'B' } });
    assert.equal(await byId(TEST_IDS.strip).locator('path').count(), 1, 'one series: A');
    assert.ok((await h.page.locator(`[data-testid="${TEST_IDS.anomaly}"]`).count()) >= 1);
  });
});

describe('empty states: what is missing, and the setting that fixes it', () => {
  const strip = () => storySeries({ from: RANGE.from, to: RANGE.to, incidentFrom: at(30), alertFrom: at(33) });
  const [, , profileTarget] = TARGETS;
  /** The hour's request rate (req/s), as the service dashboard's query D. */
  const requestRate = () => {
    const times = Array.from({ length: 241 }, (_, i) => RANGE.from + i * 15_000);
    return timeSeriesFrame({ refId: 'D', name: 'requests/s', times, values: times.map(() => 10), unit: 'reqps' });
  };

  it('no profiles datasource selected (the profiles variable found none): says so and where to choose one; a window fetches nothing', async () => {
    // the query runner returns the time series and no profile frame
    await renderPanel({ series: strip(), variables: { job: 'api', profiles: '', datasource: 'prom' } });
    const text = await byId(TEST_IDS.error).innerText();
    assert.match(text, /^No profiles datasource selected\s+Query C reads its profiles from \$\{profiles\}, which names no datasource\. Choose a Pyroscope datasource in the dashboard's profiles variable/);
    assert.match(text, /add one under Connections → Data sources → Grafana Pyroscope/);
    assert.doesNotMatch(text, /Not a profile frame|None of the/);
    assert.equal(await byId(TEST_IDS.exploreLink).count(), 0);
    await h.screenshot('overlay-no-profiles-datasource');
    await dragWindow(h.page, at(40), at(50));
    assert.match(await byId(TEST_IDS.error).innerText(), /^No profiles datasource selected/);
    await sleep(200);
    assert.deepEqual(requests, []);
    assert.deepEqual(await pastEdge(), [], 'after the drag, nothing runs past the panel\'s edge');
    // a panel of half a dashboard's width, where the notice is longest against it
    await renderPanel({ series: strip(), variables: { job: 'api', profiles: '', datasource: 'prom' }, width: 560 });
    await dragWindow(h.page, at(40), at(50));
    await byId(TEST_IDS.error).waitFor();
    await h.screenshot('overlay-no-profiles-datasource-narrow');
    assert.deepEqual(await pastEdge(), [], 'a narrow panel after the drag: nothing runs past its edge');
    // the status line names what is missing, the whole reason its tooltip
    assert.equal(await byId(TEST_IDS.statusNoTarget).innerText(), 'No profiles datasource selected');
    assert.match(await byId(TEST_IDS.statusNoTarget).getAttribute('title'), /^Query C reads its profiles from \$\{profiles\}, which names no datasource/);
  });

  it('no profile query: says how to add one', async () => {
    await renderPanel({ series: strip(), targets: TARGETS.filter((t) => t.refId !== 'C') });
    assert.match(await byId(TEST_IDS.error).innerText(), /^No profile query\s+The panel has no query C \(Profile query option\); its queries: A, B\. Add a Pyroscope \(profiles\) query C/);
  });

  it('no profile type: names the query and its menu', async () => {
    await renderPanel({ series: strip(), targets: [...TARGETS.filter((t) => t.refId !== 'C'), { ...profileTarget, profileTypeId: '' }] });
    assert.match(await byId(TEST_IDS.error).innerText(), /^No profile type\s+Query C names no profile type: pick one in its Profile type menu/);
    await h.screenshot('overlay-no-profile-type');
  });

  it('no samples in the dashboard range: names the query, its labels and profile type', async () => {
    const f = frames['println-baseline'];
    const empty = { ...f, fields: f.fields.map((x) => (x.name === 'value' || x.name === 'self' ? { ...x, values: x.values.map(() => 0) } : x)) };
    await renderPanel({ series: [...strip(), empty] });
    assert.match(
      await byId(TEST_IDS.error).innerText(),
      /^No samples in the dashboard range\s+Query C found no samples of process_cpu:cpu:nanoseconds:cpu:nanoseconds for \{service_name="api"\} in this range: widen the time range/
    );
  });

  it('a baseline a day earlier with no samples: says so, and why the unit is share', async () => {
    behaviour = 'empty-before-range';
    await renderPanel({ url: `/d/hotpath-service?var-job=api&hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=day&hotpath-view=diff`, series: [...strip(), frames['println-incident'], requestRate()] });
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'done');
    assert.equal(w.baseline.status, 'empty');
    assert.match(await byId(TEST_IDS.error).innerText(), /^No samples in the baseline window\s+No samples in .*Choose another baseline: a baseline mode above, or Shift-drag on the strip\./s);
    const notice = await byId(TEST_IDS.unitNotice).innerText();
    assert.match(notice, /^Showing shares: no request count for the baseline \(1 day earlier\), outside the dashboard range\. Widen the time range to include it, or pick a baseline on the strip\.$/);
    assert.equal(await byId(TEST_IDS.units).getByLabel('Share').isChecked(), true);
    await h.screenshot('overlay-baseline-day-empty');
  });

  it('Siblings without an instance: says siblings need one and where to type it; typing it loads the baseline', async () => {
    await renderPanel({ url: `/d/hotpath-service?var-job=api&hotpath-window=${at(40)}-${at(50)}&hotpath-baseline=siblings&hotpath-view=diff` });
    const text = await byId(TEST_IDS.error).innerText();
    assert.match(text, /^Siblings need an instance\s+Type the instance to compare in the box next to the baseline modes/);
    assert.doesNotMatch(text, /pick a baseline mode/);
    await h.screenshot('overlay-siblings-no-instance');
    await byId(TEST_IDS.instance).fill('catalog-2');
    await byId(TEST_IDS.instance).press('Enter');
    await h.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-status') === 'done', TEST_IDS.statusBaseline);
    assert.ok(requests.some((r) => /instance!="catalog-2"/.test(r.target.labelSelector)), JSON.stringify(requests.map((r) => r.target.labelSelector)));
  });

  it('the Profiles Drilldown link only where the app is installed', async () => {
    await renderPanel();
    assert.equal(await byId(TEST_IDS.exploreLink).count(), 1);
    assert.equal(await byId(TEST_IDS.drilldownLink).count(), 0, 'no link to an app that is not installed');
    await installDrilldown(true);
    await renderPanel();
    assert.match(await byId(TEST_IDS.drilldownLink).getAttribute('href'), /^\/a\/grafana-pyroscope-app\/explore\?/);
  });
});
