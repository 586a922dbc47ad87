// The call tree and Pyroscope's truncated trees in the built plugin/dist/module.js, in Chromium:
// the panes, the treegrid's keyboard, its step with the flame graph, a 1M-node profile, and the
// overlay's exact tables for a window Pyroscope cut (a stand-in datasource cutting each answer
// as Pyroscope does, to the maxNodes its query asks for).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { at, fixturePath, OVERLAY_TARGETS as TARGETS, pprofFrame, storySeries } from './lib/frames.mjs';
import { openHost } from '@hotpath/headless/harness.mjs';
import { focusPathEndsWith, focusPathIs, selectedCallTreeRow } from './lib/settled.mjs';
import { callTreeRows, dragWindow, showPanes, showView, topChanges, waitForWindows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

let h;
const frames = {};
const byId = (id) => h.page.getByTestId(id);
const DEFAULT_NODES = 2000;

before(async () => {
  h = await openHost({ viewport: { width: 1100, height: 820 } });
  frames.incident = (await pprofFrame(h.page, fixturePath('println-incident.cpu.pb.gz'), { sampleType: 'cpu', refId: 'A' })).frame;
});

after(async () => {
  await h?.close();
});

describe('the call tree', () => {
  it('a pane of its own or under the flame graph; an accessible treegrid of the real capture', async () => {
    await h.render({ series: [frames.incident], width: 1000, height: 700 });
    await byId(TEST_IDS.canvas).waitFor();
    await showPanes(h.page, 'Graph + tree');
    await byId(TEST_IDS.callTree).waitFor();
    assert.equal(await byId(TEST_IDS.canvas).count(), 1, 'the flame graph stays above');
    const grid = h.page.getByRole('treegrid');
    assert.equal(await grid.count(), 1);
    const rows = await callTreeRows(h.page);
    assert.equal(rows[0].name, 'total');
    assert.match(rows[0].cells[0], /\(100\.00%\)$/);
    assert.ok(rows.length > 3, `rows opened three levels deep: ${rows.length}`);
    // children sorted by total, heaviest first
    const kids = rows.filter((r) => r.level === 2);
    assert.ok(kids.length >= 1);
    await h.screenshot('call-tree-split');
    await showPanes(h.page, 'Call tree');
    assert.equal(await byId(TEST_IDS.canvas).count(), 0, 'the call tree alone');
    await showPanes(h.page, 'Table');
    assert.equal(await byId(TEST_IDS.callTree).count(), 0);
    assert.match(await byId(TEST_IDS.topTable).innerText(), /fmt\.Println/);
  });

  it('keyboard: arrows, Space, Enter focuses the flame graph; a click in the flame graph selects its row', async () => {
    await showPanes(h.page, 'Graph + tree');
    const grid = h.page.getByRole('treegrid');
    await grid.focus();
    await h.page.keyboard.press('ArrowDown');
    await h.page.keyboard.press('ArrowDown');
    const sel = await selectedCallTreeRow(h.page, (r) => r.level === 3);
    assert.equal(sel?.level, 3);
    await h.page.keyboard.press('Enter');
    await focusPathEndsWith(h.page, sel.name).catch(() => {}); // the assertion below names what it shows
    assert.match(await byId(TEST_IDS.focusPath).innerText(), new RegExp(`› ${sel.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await byId(TEST_IDS.resetFocus).click();
    await focusPathIs(h.page, true);
    // deep in the flame graph (row 6): the call tree opens down to it and selects it
    const box = await byId(TEST_IDS.overlay).boundingBox();
    await h.page.mouse.click(box.x + 20, box.y + 6 * 20 + 10);
    await focusPathIs(h.page, false).catch(() => assert.fail('a click in the flame graph focuses it: no focus path'));
    const path = (await byId(TEST_IDS.focusPath).innerText()).replace(/^Focus: /, '').split(' › ');
    const selected = await selectedCallTreeRow(h.page, (r) => r.name === path[path.length - 1]);
    assert.ok(selected, 'a row is selected');
    assert.deepEqual([selected.name, selected.level], [path[path.length - 1], path.length + 1], JSON.stringify((await callTreeRows(h.page)).map((r) => [r.name, r.level])));
    await grid.focus();
    await h.page.keyboard.press('ArrowLeft'); // a leaf or open: closes or goes to its parent
    await h.page.keyboard.press('Space');
    await h.screenshot('call-tree-focus');
    await byId(TEST_IDS.resetFocus).click();
    await byId(TEST_IDS.search).fill('prototext');
    const found = await selectedCallTreeRow(h.page, (r) => /prototext/.test(r.name));
    assert.match(found?.name ?? '', /prototext/, 'the search opens the tree down to its first match and selects it');
    await byId(TEST_IDS.search).fill('');
  });

  it('1M nodes: opens in the time of a frame or two, and puts only the rows in view into the DOM', async (t) => {
    const n = await h.page.evaluate(async () => {
      const d = window.hotpathHost.module.hotpathData;
      const frame = d.treeToFrame(d.generateTree(1_000_000, 3));
      await window.hotpathHost.render({ series: [frame], width: 1000, height: 700, options: { showTable: false } });
      return frame.length;
    });
    assert.ok(n >= 1_000_000, `${n} rows`);
    await byId(TEST_IDS.canvas).waitFor({ timeout: 60_000 });
    // the time from the click to the call tree's rows painted, measured in the page
    const open = await h.page.evaluate(async (ids) => {
      const labels = [...document.querySelectorAll(`[data-testid="${ids.panes}"] label`)];
      const label = labels.find((l) => l.textContent.trim() === 'Call tree');
      if (!label) {
        throw new Error(`no Call tree label among ${JSON.stringify(labels.map((l) => l.textContent))}: ${document.body.innerText.slice(0, 300)}`);
      }
      const t0 = performance.now();
      label.click();
      while (!document.querySelector(`[data-testid="${ids.callTreeRow}"]`)) {
        await new Promise((r) => setTimeout(r, 0));
      }
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, TEST_IDS);
    const deep = await h.page.evaluate(async (ids) => {
      const button = [...document.querySelectorAll(`[data-testid="${ids.callTreeDepth}"]`)].find((b) => b.getAttribute('data-depth') === '10');
      const t0 = performance.now();
      button.click();
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - t0;
    }, TEST_IDS);
    const shown = Number(await byId(TEST_IDS.callTree).getAttribute('data-rows'));
    const inDom = await byId(TEST_IDS.callTreeRow).count();
    t.diagnostic(`1M nodes: the call tree opens in ${open.toFixed(0)} ms, ten levels (${shown} rows) in ${deep.toFixed(0)} ms; ${inDom} rows in the DOM`);
    assert.ok(shown > 1000, `ten levels open ${shown} rows`);
    assert.ok(inDom < 80, `${inDom} rows in the DOM`);
    assert.ok(open < 1500, `opened in ${open} ms`);
    assert.ok(deep < 3000, `ten levels in ${deep} ms`);
    // scrolled to the end, the last rows are there (and still only those in view)
    await h.page.getByRole('treegrid').focus();
    await h.page.keyboard.press('End');
    // the list scrolls, then renders the rows now in view: the last row (aria-rowindex counts the
    // header as 1) is there and selected once that has happened
    const last = shown + 1;
    await h.page
      .waitForFunction(({ id, last }) => document.querySelector(`[data-testid="${id}"] [role=row][aria-selected=true]`)?.getAttribute('aria-rowindex') === String(last), { id: TEST_IDS.callTree, last }, { timeout: 10_000 })
      .catch(async () => assert.fail(`the last row (${last}) is not rendered and selected: ${JSON.stringify((await callTreeRows(h.page)).filter((r) => r.selected))}`));
    assert.ok((await byId(TEST_IDS.callTreeRow).count()) < 80);
    await h.screenshot('call-tree-1m');
    assert.deepEqual(h.pageErrors, []);
  });
});

describe("Pyroscope's truncated trees", () => {
  before(async () => {
    // the full profiles in the page, and a stand-in Pyroscope that cuts them as Pyroscope does
    await h.page.evaluate((defaultNodes) => {
      const d = window.hotpathHost.module.hotpathData;
      const full = { before: d.generateTree(40_000, 11), after: d.generateTree(40_000, 11, { perturb: 4 }) };
      const cut = (which, maxNodes) => d.treeToFrame(d.pyroscopeTruncate(full[which], maxNodes), { refId: 'C' });
      window.fullProfiles = {
        cut,
        top: (which, k) => d.topTable(full[which]).slice(0, k).map((r) => r.name),
        cutTop: (which, k) => d.topTable(d.pyroscopeTruncate(full[which], defaultNodes)).slice(0, k).map((r) => r.name),
        changes: (k) => d.biggestChanges(d.diffTrees(full.before, full.after)).slice(0, k).map((r) => r.name),
      };
      window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }], async (uid, request) => {
        const from = Date.parse(request.range.from);
        const to = Date.parse(request.range.to);
        const maxNodes = request.targets[0].maxNodes ?? defaultNodes;
        (window.cutRequests ??= []).push(maxNodes);
        return { data: [cut((from + to) / 2 >= window.incidentAt ? 'after' : 'before', maxNodes)] };
      });
    }, DEFAULT_NODES);
  });

  it('says how much is in "other"; the top table is the untruncated profile\'s', async () => {
    await h.page.evaluate(() => window.hotpathHost.unmount());
    await h.page.evaluate(() => window.hotpathHost.setLocation('/d/hotpath-service?var-job=api'));
    const series = storySeries({ from: at(0), to: at(60), incidentFrom: at(30), alertFrom: at(33) });
    await h.page.evaluate(
      async ([series, spec, incidentAt, defaultNodes]) => {
        window.incidentAt = incidentAt;
        await window.hotpathHost.render({ ...spec, series: [...series, window.fullProfiles.cut('after', defaultNodes)] });
      },
      [series, { targets: TARGETS, options: { profileRefId: 'C', seriesRefIds: ['A'], anomalyRefId: 'B', showTable: true }, variables: { job: 'api', profiles: 'pyro', datasource: 'prom' }, timeRange: { from: at(0), to: at(60) }, width: 1000, height: 760 }, at(30), DEFAULT_NODES]
    );
    const notice = byId(TEST_IDS.truncation);
    await h.page.waitForFunction((id) => /tables exact/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''), TEST_IDS.truncation, { timeout: 30_000 });
    assert.match(await notice.innerText(), /Pyroscope cut the profile: \d+\.\d% of it is in "other".*tables exact \(the complete profile, 40,000 nodes\)/);
    const expected = await h.page.evaluate(() => window.fullProfiles.top('after', 10));
    assert.notDeepEqual(await h.page.evaluate(() => window.fullProfiles.cutTop('after', 10)), expected, 'the cut tree\'s own table differs');
    const names = await byId(TEST_IDS.topTable).evaluate((t) => [...t.querySelectorAll('tbody tr')].slice(0, 10).map((r) => r.querySelector('td').getAttribute('title')));
    assert.deepEqual(names, expected);
    assert.deepEqual(await h.page.evaluate(() => window.cutRequests), [1_000_000]);
    await h.screenshot('truncated-range');
  });

  it('a window and its baseline: the changes table is the untruncated diff\'s', async () => {
    await dragWindow(h.page, at(40), at(55));
    const w = await waitForWindows(h.page);
    assert.equal(w.comparison.status, 'done', w.comparison.text);
    await showView(h.page, 'Diff');
    await h.page.waitForFunction((id) => /Selection: .*tables exact.*Baseline: .*tables exact/.test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''), TEST_IDS.truncation, { timeout: 30_000 });
    const expected = await h.page.evaluate(() => window.fullProfiles.changes(8));
    const rows = await topChanges(h.page, 8);
    assert.deepEqual(rows.map((r) => r.name), expected);
    await h.screenshot('truncated-diff');
    assert.deepEqual(h.pageErrors, []);
  });
});
