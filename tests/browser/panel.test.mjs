// Browser tests: the real plugin/dist/module.js in headless Chromium, through the host page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { fixturePath, pprofFrame } from './lib/frames.mjs';
import { settled } from './lib/settled.mjs';
import { openHost } from '@hotpath/headless/harness.mjs';
import { canvasColours as canvasColoursOf } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

let h;
const frames = {};

before(async () => {
  h = await openHost({
    onQuery: async (uid, request) => ({ data: [{ refId: request.targets?.[0]?.refId ?? 'A', fields: [{ name: 'uid', values: [uid] }] }] }),
  });
  frames.before = (await pprofFrame(h.page, fixturePath('println-baseline.cpu.pb.gz'), { sampleType: 'cpu', refId: 'B' })).frame;
  frames.after = (await pprofFrame(h.page, fixturePath('println-incident.cpu.pb.gz'), { sampleType: 'cpu', refId: 'A' })).frame;
  frames.heap = (await pprofFrame(h.page, fixturePath('gzip-incident.heap.pb.gz'), { sampleType: 'alloc_space', refId: 'B' })).frame;
});

after(async () => {
  await h?.close();
});

const byId = (id) => h.page.getByTestId(id);

const canvasColours = () => canvasColoursOf(h.page, TEST_IDS.canvas);

describe('profile', () => {
  it('renders the println incident from a real capture', async () => {
    await h.render({ series: [frames.after], width: 1000, height: 640 });
    await byId(TEST_IDS.canvas).waitFor();
    assert.ok((await canvasColours()) > 5, 'the canvas has a drawn graph');
    assert.match(await byId(TEST_IDS.topTable).innerText(), /fmt\.Println/);
    await h.screenshot('profile-println-incident');
    assert.deepEqual(h.pageErrors, []);
  });

  it('shows a tooltip on hover', async () => {
    const box = await byId(TEST_IDS.overlay).boundingBox();
    await h.page.mouse.move(box.x + 200, box.y + 10);
    const tip = byId(TEST_IDS.tooltip);
    await tip.waitFor();
    const text = await tip.innerText();
    assert.match(text, /^total/);
    assert.match(text, /100\.00%/);
    await h.page.mouse.move(box.x + 5, box.y + 30);
    await tip.waitFor();
    assert.match(await tip.innerText(), /Self/);
    // the outline is on the overlay canvas, prepared (sized) by the first hover, not before
    const outline = await byId(TEST_IDS.overlay).evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let drawn = 0;
      for (let i = 3; i < d.length; i += 4) drawn += d[i] > 0 ? 1 : 0;
      return { width: c.width, drawn };
    });
    assert.ok(outline.width > 300 && outline.drawn > 20, `the hover outline is drawn: ${JSON.stringify(outline)}`);
    await h.screenshot('profile-hover');
  });

  it('focuses on click and resets', async () => {
    const box = await byId(TEST_IDS.overlay).boundingBox();
    await h.page.mouse.click(box.x + 5, box.y + 30);
    assert.match(await byId(TEST_IDS.focusPath).innerText(), /^Focus: /);
    await h.screenshot('profile-focused');
    await byId(TEST_IDS.resetFocus).click();
    assert.equal(await byId(TEST_IDS.focusPath).innerText(), '');
  });

  it('searches and shows the share of samples matched', async () => {
    await byId(TEST_IDS.search).fill('fmt.Println');
    const share = await byId(TEST_IDS.searchShare).innerText();
    const pct = Number(/([\d.]+)% of samples/.exec(share)[1]);
    assert.ok(pct > 30 && pct < 100, `fmt.Println share ${pct}%`);
    await h.screenshot('profile-search');
    await byId(TEST_IDS.search).fill('');
  });

  it('switches to the flame layout', async () => {
    await byId(TEST_IDS.modeToggle).click();
    assert.equal(await byId(TEST_IDS.modeToggle).innerText(), 'Flame');
    const box = await byId(TEST_IDS.overlay).boundingBox();
    const graph = await byId(TEST_IDS.overlay).evaluate((el) => el.parentElement.parentElement.getBoundingClientRect().bottom);
    // the root row sits at the bottom of the visible graph
    await h.page.mouse.move(box.x + 200, graph - 10);
    assert.match(await byId(TEST_IDS.tooltip).innerText(), /^total/);
    await h.screenshot('profile-flame');
    await byId(TEST_IDS.modeToggle).click();
  });

  it('draws in the light theme', async () => {
    await h.render({ series: [frames.after], width: 1000, height: 640, theme: 'light' });
    assert.ok((await canvasColours()) > 5);
    await h.screenshot('profile-light');
  });
});

describe('diff', () => {
  it('diffs the println incident against its baseline: text marshalling tops the changes', async () => {
    await h.render({ series: [frames.before, frames.after], options: { baselineRefId: 'B' }, width: 1000, height: 700 });
    const first = byId(TEST_IDS.changesTable).locator('tbody tr').first();
    assert.match(await first.innerText(), /google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString/);
    assert.match(await first.innerText(), /\+\d+\.\d\d pp/);
    await byId(TEST_IDS.legend).waitFor();
    await h.screenshot('diff-println');
  });

  it('diff tooltip shows baseline, comparison and change', async () => {
    const box = await byId(TEST_IDS.overlay).boundingBox();
    await h.page.mouse.move(box.x + 290, box.y + 12);
    await h.page.mouse.move(box.x + 300, box.y + 10);
    await h.screenshot('diff-hover');
    const text = await byId(TEST_IDS.tooltip).innerText();
    assert.match(text, /Baseline/);
    assert.match(text, /Comparison/);
    assert.match(text, /Change/);
  });

  it('uses the colour-blind palette when asked', async () => {
    await h.render({ series: [frames.before, frames.after], options: { baselineRefId: 'B', diffScheme: 'colorblind' }, width: 1000, height: 700 });
    await h.screenshot('diff-println-colorblind');
  });
});

describe('bad input never crashes the panel', () => {
  const cases = [
    ['no frames', { series: [] }, /No data/],
    ['a time series', { series: [{ refId: 'A', fields: [{ name: 'time', type: 'time', values: [1, 2] }, { name: 'cpu', type: 'number', values: [0.5, 0.7] }] }] }, /None of the 1 frame is a profile/],
    [
      'a string value field',
      { series: [{ fields: [{ name: 'level', type: 'number', values: [0] }, { name: 'value', type: 'string', values: ['1'] }, { name: 'self', type: 'number', values: [1] }, { name: 'label', type: 'string', values: ['x'] }] }] },
      /"value" has type string/,
    ],
    ['an empty profile', { series: [{ meta: { preferredVisualisationType: 'flamegraph' }, fields: [{ name: 'level', type: 'number', values: [] }, { name: 'value', type: 'number', values: [] }, { name: 'self', type: 'number', values: [] }, { name: 'label', type: 'string', values: [] }] }] }, /empty/],
    ['mismatched diff frames', () => ({ series: [frames.heap, frames.after], options: { baselineRefId: 'B' } }), /baseline is in "bytes" but the profile in "ns"/],
    ['a query error', { series: [], errors: [{ message: 'pyroscope: 503 upstream unavailable' }] }, /503 upstream unavailable/],
  ];
  for (const [name, spec, message] of cases) {
    it(name, async () => {
      await h.render({ width: 800, height: 300, ...(typeof spec === 'function' ? spec() : spec) });
      assert.match(await byId(TEST_IDS.error).innerText(), message);
    });
  }

  it('1M+ nodes: folds into "other" and says so', async () => {
    await h.page.evaluate(() => {
      const n = 1_000_001;
      const level = new Array(n);
      const value = new Array(n);
      const self = new Array(n);
      const label = new Array(n);
      const text = ['total'];
      level[0] = 0;
      value[0] = 0;
      self[0] = 0;
      label[0] = 0;
      for (let i = 1; i < n; i++) {
        level[i] = 1;
        value[i] = 1 + (i % 97);
        self[i] = value[i];
        label[i] = i;
        text.push(`pkg${i % 50}.fn${i}`);
        value[0] += value[i];
      }
      window.__big = { meta: { preferredVisualisationType: 'flamegraph' }, fields: [
        { name: 'level', type: 'number', values: level, config: {} },
        { name: 'value', type: 'number', values: value, config: { unit: 'short' } },
        { name: 'self', type: 'number', values: self, config: {} },
        { name: 'label', type: 'enum', values: label, config: { type: { enum: { text } } } },
      ] };
    });
    await h.page.evaluate(() => window.hotpathHost.render({ series: [window.__big], width: 1000, height: 500 }));
    assert.match(await byId(TEST_IDS.notice).innerText(), /1,000,001 nodes: the [\d,]+ lightest are folded into "other"/);
    assert.ok((await canvasColours()) > 3);
    await h.screenshot('big-1m-folded');
  });

  it('scrolls a 300-deep stack in a canvas the size of its window', async () => {
    // JVM-like depth: the canvas stays the window's size (not 300 rows tall) and scrolling redraws it
    const depth = 300;
    const level = Array.from({ length: depth }, (_, i) => i);
    const label = level.map((i) => (i === 0 ? 'total' : `com.example.Frame${i}.call`));
    await h.render({
      series: [{ fields: [
        { name: 'level', type: 'number', values: level },
        { name: 'value', type: 'number', values: level.map(() => 100) },
        { name: 'self', type: 'number', values: level.map((i) => (i === depth - 1 ? 100 : 0)) },
        { name: 'label', type: 'string', values: label },
      ] }],
      options: { showTable: false },
      width: 900,
      height: 500,
    });
    const canvas = await byId(TEST_IDS.canvas).evaluate((c) => ({ css: c.getBoundingClientRect().height, px: c.height, scroll: c.parentElement.parentElement.scrollHeight }));
    assert.ok(canvas.css < 500 && canvas.px < 500 * 3, `canvas ${JSON.stringify(canvas)}: the window's size`);
    assert.equal(canvas.scroll, depth * 20, 'the scroll area holds every row');
    const hoverAt = async (dy) => {
      const box = await byId(TEST_IDS.overlay).boundingBox();
      await h.page.mouse.move(box.x + 300, box.y + (dy < 0 ? box.height + dy : dy));
      return (await byId(TEST_IDS.tooltip).innerText()).split('\n')[0];
    };
    assert.equal(await hoverAt(10), 'total');
    const pixels = () => byId(TEST_IDS.canvas).evaluate((c) => c.toDataURL());
    const atTop = await pixels();
    await byId(TEST_IDS.canvas).evaluate((c) => { c.parentElement.parentElement.scrollTop = 1e6; });
    await h.page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`).parentElement.parentElement.scrollTop > 0, TEST_IDS.canvas);
    // the panel takes the new position from the scroll event, which comes with a later frame
    const want = `com.example.Frame${depth - 1}.call`;
    const deepest = await settled(() => hoverAt(-10), (v) => v === want, { timeoutMs: 5000, everyMs: 100 });
    assert.equal(deepest, want, 'the deepest frame at the bottom of the scrolled window');
    assert.notEqual(await pixels(), atTop, 'the scrolled window is redrawn (other frames, other labels)');
    // flame mode opens on the root, at the bottom of the window
    await byId(TEST_IDS.modeToggle).click();
    assert.equal(await hoverAt(-10), 'total');
    await h.screenshot('deep-300-flame');
    assert.deepEqual(h.pageErrors, []);
  });

  it('very long, unicode and hostile names are shown as text', async () => {
    const long = 'github.com/very/long/package/path/' + 'ä'.repeat(3000) + '.Func';
    const hostile = '<img src=x onerror="window.__pwned=1">';
    await h.render({
      series: [{ fields: [
        { name: 'level', type: 'number', values: [0, 1, 1, 1] },
        { name: 'value', type: 'number', values: [30, 10, 10, 10] },
        { name: 'self', type: 'number', values: [0, 10, 10, 10] },
        { name: 'label', type: 'string', values: ['total', long, hostile, '処理.関数🔥'] },
      ] }],
      width: 900,
      height: 400,
    });
    assert.equal(await h.page.evaluate(() => window.__pwned), undefined);
    assert.equal(await h.page.locator('#root img').count(), 0);
    assert.match(await byId(TEST_IDS.topTable).innerText(), /<img src=x/);
    assert.match(await byId(TEST_IDS.topTable).innerText(), /処理\.関数🔥/);
    await h.screenshot('names-unicode');
  });
});

describe('host page hooks for the overlay', () => {
  it('supplies a stand-in getDataSourceSrv() answered from Node', async () => {
    const got = await h.page.evaluate(async () => {
      window.hotpathHost.useStandInDataSources([{ uid: 'pyro', type: 'grafana-pyroscope-datasource' }]);
      const ds = await window.hotpathHost.runtime.getDataSourceSrv().get('pyro');
      return new Promise((resolve, reject) =>
        ds.query({ targets: [{ refId: 'P' }], range: {} }).subscribe({ next: (r) => resolve(r.data.map((f) => [f.refId, f.fields[0].values[0]])), error: reject })
      );
    });
    assert.deepEqual(got, [['P', 'pyro']]);
  });

  it("drives Grafana's locationService", async () => {
    const loc = await h.page.evaluate(() => {
      window.hotpathHost.setLocation('/d/hotpath-service?from=now-6h');
      window.hotpathHost.runtime.locationService.partial({ 'var-window': '100-200' });
      return window.hotpathHost.location();
    });
    assert.match(loc, /^\/d\/hotpath-service\?/);
    assert.match(loc, /var-window=100-200/);
    assert.match(await h.page.evaluate(() => window.location.search), /var-window=100-200/);
  });
});

