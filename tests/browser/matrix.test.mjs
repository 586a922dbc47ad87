// The compatibility matrix: the same built plugin/dist/module.js, loaded by SystemJS as Grafana
// loads it, in one host per supported Grafana line (tests/browser/hosts: 11.3 + React 18, the
// newest 12.x, the newest 13.x + React 19), each sharing exactly its release's modules from
// their npm releases, React's development build included. One Chromium for every host.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { CHROMIUM, requirePlugin } from '@hotpath/headless/env.mjs';
import { at, fixturePath, OVERLAY_TARGETS as TARGETS, pprofFrame, storySeries } from './lib/frames.mjs';
import { CHROMIUM_ARGS } from '@hotpath/headless/harness.mjs';
import { HOSTS, hostVersions, MATRIX_DIST, openMatrixHost } from './lib/hosts.mjs';
import { focusPathEndsWith, focusPathIs, selectedCallTreeRow } from './lib/settled.mjs';
import { canvasColours, dragWindow, showPanes, showView, topChanges, waitForWindows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');
const { chromium } = requirePlugin('playwright-core');


/** The AMD dependencies module.js asks its loader for (webpack's `define([...], ...)`). */
const moduleDeps = () => {
  const src = readFileSync(join(MATRIX_DIST, 'module.js'), 'utf8');
  const m = /define\((\[[^\]]*\])/.exec(src);
  return JSON.parse(m[1]).filter((d) => d !== 'module' && d !== 'exports' && d !== 'require');
};

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
});
after(async () => {
  await browser?.close();
});

for (const name of HOSTS) {
  const versions = hostVersions(name);
  describe(`${name} (@grafana/ui ${versions.grafanaUi}, React ${versions.react})`, () => {
    let h;
    const frames = {};
    const byId = (id) => h.page.getByTestId(id);
    before(async () => {
      h = await openMatrixHost(browser, name, {
        onQuery: async (uid, request) => {
          const from = Date.parse(request.range.from);
          const to = Date.parse(request.range.to);
          return { data: [(from + to) / 2 >= at(30) ? frames.incidentC : frames.baselineC] };
        },
      });
    });
    after(async () => {
      await h?.close();
    });

    it('shares exactly its release\'s modules: module.js loads, and needs none it lacks', async () => {
      const shared = await h.page.evaluate(() => window.hotpathHost.sharedModules);
      const missing = moduleDeps().filter((d) => !shared.includes(d));
      assert.deepEqual(missing, [], `module.js imports modules ${name} does not share; its loader says: ${h.loadError}`);
      assert.equal(h.loadError, undefined, `module.js did not load: ${h.loadError}`);
      assert.equal(typeof h.page, 'object');
      assert.equal(await h.page.evaluate(() => window.hotpathHost.React.version), versions.react);
      // the loader is as strict as Grafana's: a module that needs react/jsx-runtime loads only where it is shared
      const jsx = await h.page.evaluate(async () => {
        const url = URL.createObjectURL(new Blob(["define(['react/jsx-runtime'], function (j) { return { jsx: typeof j.jsx }; });"], { type: 'text/javascript' }));
        return window.hotpathHost.loadModule(url).then((m) => m.jsx, (e) => `error: ${e.message}`);
      });
      if (shared.includes('react/jsx-runtime')) {
        assert.equal(jsx, 'function');
      } else {
        assert.match(jsx, /^error: Unable to resolve bare specifier 'react\/jsx-runtime'/);
      }
    });

    it('first render: the println incident from a real capture', async () => {
      assert.equal(h.loadError, undefined, h.loadError);
      frames.incident = (await pprofFrame(h.page, fixturePath('println-incident.cpu.pb.gz'), { sampleType: 'cpu', refId: 'A' })).frame;
      frames.incidentC = { ...frames.incident, refId: 'C' };
      frames.baselineC = (await pprofFrame(h.page, fixturePath('println-baseline.cpu.pb.gz'), { sampleType: 'cpu', refId: 'C' })).frame;
      await h.render({ series: [frames.incident], width: 1000, height: 640 });
      await byId(TEST_IDS.canvas).waitFor();
      const colours = await canvasColours(h.page, TEST_IDS.canvas);
      assert.ok(colours > 5, `the canvas has a drawn graph (${colours} colours)`);
      assert.match(await byId(TEST_IDS.topTable).innerText(), /fmt\.Println/);
      await h.screenshot('1-render');
    });

    it('hover tooltip, zoom (focus) and reset, search', async () => {
      const box = await byId(TEST_IDS.overlay).boundingBox();
      await h.page.mouse.move(box.x + 200, box.y + 10);
      await byId(TEST_IDS.tooltip).waitFor();
      assert.match(await byId(TEST_IDS.tooltip).innerText(), /^total[\s\S]*100\.00%/);
      await h.page.mouse.click(box.x + 5, box.y + 30);
      assert.match(await byId(TEST_IDS.focusPath).innerText(), /^Focus: /);
      await byId(TEST_IDS.resetFocus).click();
      assert.equal(await byId(TEST_IDS.focusPath).innerText(), '');
      await byId(TEST_IDS.search).fill('fmt.Println');
      const pct = Number(/([\d.]+)% of samples/.exec(await byId(TEST_IDS.searchShare).innerText())[1]);
      assert.ok(pct > 30 && pct < 100, `fmt.Println share ${pct}%`);
      await h.screenshot('2-search');
      await byId(TEST_IDS.search).fill('');
    });

    it('the call tree: its pane, the keyboard, in step with the flame graph', async () => {
      await showPanes(h.page, 'Graph + tree');
      await byId(TEST_IDS.callTree).waitFor();
      const grid = h.page.getByRole('treegrid');
      assert.equal(await grid.count(), 1);
      await grid.focus();
      await h.page.keyboard.press('ArrowDown');
      await h.page.keyboard.press('ArrowDown');
      const picked = await selectedCallTreeRow(h.page, (r) => r.level === 3);
      assert.equal(picked?.level, 3);
      await h.page.keyboard.press('Enter');
      const focusPath = () => byId(TEST_IDS.focusPath).innerText();
      await focusPathEndsWith(h.page, picked.name).catch(async () => assert.fail(`Enter focuses the flame graph on the row ${picked.name}: ${await focusPath()}`));
      // the focus path is empty once the reset has rendered, and holds the clicked node's after the click
      await byId(TEST_IDS.resetFocus).click();
      await focusPathIs(h.page, true);
      const box = await byId(TEST_IDS.overlay).boundingBox();
      await h.page.mouse.click(box.x + 20, box.y + 4 * 20 + 10);
      await focusPathIs(h.page, false).catch(() => assert.fail('a click in the flame graph focuses it: no focus path'));
      const path = (await focusPath()).replace(/^Focus: /, '').split(' › ');
      const selected = await selectedCallTreeRow(h.page, (r) => r.name === path[path.length - 1]);
      assert.deepEqual([selected?.name, selected?.level], [path[path.length - 1], path.length + 1], 'a click in the flame graph selects its row');
      await h.screenshot('2b-call-tree');
      await byId(TEST_IDS.resetFocus).click();
      await showPanes(h.page, 'Graph + table');
    });

    it('drag a window on the strip: diff view and the changes table', async () => {
      await h.page.evaluate(() => window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }]));
      await h.page.evaluate(() => window.hotpathHost.unmount());
      await h.page.evaluate(() => window.hotpathHost.setLocation('/d/hotpath-service?var-job=api'));
      await h.render({
        series: [...storySeries({ from: at(0), to: at(60), incidentFrom: at(30), alertFrom: at(33) }), frames.incidentC],
        targets: TARGETS,
        options: { profileRefId: 'C', seriesRefIds: ['A'], anomalyRefId: 'B' },
        variables: { job: 'api', profiles: 'pyro', datasource: 'prom' },
        timeRange: { from: at(0), to: at(60) },
        width: 1000,
        height: 720,
      });
      await byId(TEST_IDS.strip).waitFor();
      await dragWindow(h.page, at(40), at(55));
      const w = await waitForWindows(h.page);
      assert.equal(w.comparison.status, 'done', w.comparison.text);
      assert.equal(w.baseline.status, 'done', w.baseline.text);
      await showView(h.page, 'Diff');
      await byId(TEST_IDS.legend).waitFor();
      const top = await topChanges(h.page, 3);
      assert.match(top[0].name, /google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString/);
      assert.match(top[0].change, /^\+\d+\.\d\d pp$/);
      await h.screenshot('3-diff');
      await showView(h.page, 'Changes');
      const rows = await topChanges(h.page, 5);
      assert.equal(rows.length, 5);
      assert.equal(rows[0].name, top[0].name);
      await h.screenshot('4-changes');
    });

    it('options editor: every option with its default, edits reach the options', async () => {
      const list = await h.page.evaluate(() => window.hotpathHost.optionList());
      assert.deepEqual(
        list.map((o) => o.path),
        ['profileRefId', 'seriesRefIds', 'anomalyRefId', 'baselineRefId', 'requestsRefId', 'instanceRequestsRefId', 'endpointRequestsRefId', 'baselineMode', 'siblingLabel', 'endpointLabels', 'stripHeight', 'graphMode', 'colorScheme', 'maxNodes', 'showTable']
      );
      assert.deepEqual(list.find((o) => o.path === 'baselineMode'), { path: 'baselineMode', name: 'Baseline window', category: ['Windows'], defaultValue: 'auto' });
      await h.page.evaluate(() => window.hotpathHost.renderOptionsEditor({}));
      const editor = h.page.getByTestId('host-options-editor');
      await editor.waitFor();
      await h.page.getByTestId('host-option-baselineMode').getByLabel('1 day earlier', { exact: true }).click();
      assert.equal(await h.page.evaluate(() => window.hotpathHost.editedOptions?.baselineMode), 'day');
      await h.page.getByTestId('host-option-stripHeight').locator('input').fill('120');
      assert.equal(await h.page.evaluate(() => window.hotpathHost.editedOptions?.stripHeight), 120);
      await h.page.getByTestId('host-option-siblingLabel').locator('input').fill('pod');
      assert.equal(await h.page.evaluate(() => window.hotpathHost.editedOptions?.siblingLabel), 'pod');
      await h.screenshot('5-options', editor);
    });

    it('no page errors, no console errors, no React warnings', async (t) => {
      assert.deepEqual(h.pageErrors.map((e) => e.message), []);
      assert.deepEqual(h.console, []);
      if (h.missingIcons.size) {
        t.diagnostic(`icons Grafana serves that @grafana/ui ${versions.grafanaUi}'s package lacks (the host served empty ones): ${[...h.missingIcons].join(', ')}`);
      }
    });
  });
}
