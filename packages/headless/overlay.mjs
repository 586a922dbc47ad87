// Playwright helpers for the overlay panel, shared by the browser tests and the demo's check
// (demo/sandbox/demo-check.mjs):
// drive the strip like a user (mouse drags at the pixels of given times) and read the views.
import { TEST_IDS } from './test-ids.mjs';

/** The strip's plot area: its page box and its time range (unix ms). */
export async function stripGeometry(page) {
  const area = page.getByTestId(TEST_IDS.stripArea);
  await area.waitFor({ timeout: 20_000 });
  const box = await area.boundingBox();
  const from = Number(await area.getAttribute('data-from'));
  const to = Number(await area.getAttribute('data-to'));
  return { box, from, to, x: (t) => box.x + ((t - from) / (to - from)) * box.width };
}

/**
 * Drags on the strip from time a to time b (unix ms), with Shift for the baseline, in small
 * steps as a hand would. Times outside the strip are clamped to its edges (and the panel
 * clamps too).
 */
export async function dragWindow(page, a, b, { shift = false, steps = 8 } = {}) {
  const g = await stripGeometry(page);
  const clampX = (t) => Math.min(g.box.x + g.box.width - 1, Math.max(g.box.x + 1, g.x(t)));
  const y = g.box.y + g.box.height / 2;
  const x0 = clampX(a);
  const x1 = clampX(b);
  if (shift) {
    await page.keyboard.down('Shift');
  }
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps });
  await page.mouse.up();
  if (shift) {
    await page.keyboard.up('Shift');
  }
  return { x0, x1 };
}

/** Waits until neither window is loading; returns each one's status and message. */
export async function waitForWindows(page, { timeout = 30_000, baseline = true } = {}) {
  const ids = baseline ? [TEST_IDS.statusComparison, TEST_IDS.statusBaseline] : [TEST_IDS.statusComparison];
  await page.waitForFunction(
    (ids) =>
      ids.every((id) => {
        const el = document.querySelector(`[data-testid="${id}"]`);
        return el && el.getAttribute('data-status') !== 'loading';
      }),
    ids,
    { timeout }
  );
  const read = async (id) => {
    const el = page.getByTestId(id);
    return { status: await el.getAttribute('data-status'), text: await el.innerText() };
  };
  return { comparison: await read(TEST_IDS.statusComparison), baseline: baseline ? await read(TEST_IDS.statusBaseline) : undefined };
}

/** Clicks a view (Flame graph, Diff, Side by side, Changes). */
export async function showView(page, label) {
  // Grafana's radio buttons lay the (transparent) input over its label: click the input
  await page.getByTestId(TEST_IDS.views).getByLabel(label, { exact: true }).click();
  // away from the buttons: their tooltips would cover the panel in screenshots
  await page.mouse.move(1, 1);
}

/**
 * The first n rows of the biggest-changes table, in the table's order (by |change| in the
 * panel's unit): { name, baseline, comparison (in that unit), change (of share, "+1.23 pp"),
 * perRequest, absolute (the other deltas; perRequest undefined without request counts), flagged }.
 */
export async function topChanges(page, n = 5) {
  const table = page.getByTestId(TEST_IDS.changesTable);
  await table.waitFor({ timeout: 20_000 });
  return table.evaluate(
    (t, n) =>
      [...t.querySelectorAll('tbody tr')].slice(0, n).map((tr) => {
        const td = [...tr.querySelectorAll('td')].map((x) => x.textContent);
        const col = (c) => tr.querySelector(`td[data-col="${c}"]`)?.textContent;
        return {
          name: td[0],
          baseline: td[1],
          comparison: td[2],
          change: col('share'),
          perRequest: col('per-request'),
          absolute: col('absolute'),
          flagged: tr.getAttribute('data-flagged') === 'true',
        };
      }),
    n
  );
}

/** The windows the strip shows (data-from / data-to of the selection and baseline). */
export async function shownWindows(page) {
  return page.evaluate((ids) => {
    const read = (id) => {
      const el = document.querySelector(`[data-testid="${id}"]`);
      return el ? { from: Number(el.getAttribute('data-from')), to: Number(el.getAttribute('data-to')) } : null;
    };
    return { selection: read(ids.selection), baseline: read(ids.baseline) };
  }, { selection: TEST_IDS.selection, baseline: TEST_IDS.baseline });
}

/** Distinct colours in the top 200 px of a canvas: a drawn graph has many, a blank one one. */
export async function canvasColours(page, testId) {
  return page.evaluate((id) => {
    const c = document.querySelector(`[data-testid="${id}"]`);
    const d = c.getContext('2d').getImageData(0, 0, c.width, Math.min(c.height, 200)).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 16) {
      seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    return seen.size;
  }, testId);
}

/** Picks the explorer's panes (Graph + table, Graph + tree, Graph, Call tree, Table). */
export async function showPanes(page, label) {
  await page.getByTestId(TEST_IDS.panes).first().getByLabel(label, { exact: true }).click();
  await page.mouse.move(1, 1);
}

/** The call tree's rows in the DOM, in order: { name, level, expanded, selected, cells }. */
export async function callTreeRows(page) {
  return page.getByTestId(TEST_IDS.callTree).first().evaluate((t) =>
    [...t.querySelectorAll('[role=row][aria-level]')]
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
      .map((r) => {
        const cells = [...r.querySelectorAll('[role=gridcell]')].map((c) => c.textContent);
        return {
          name: cells[0].replace(/^[▸▾]/, ''),
          level: Number(r.getAttribute('aria-level')),
          expanded: r.getAttribute('aria-expanded'),
          selected: r.getAttribute('aria-selected') === 'true',
          cells: cells.slice(1),
        };
      })
  );
}
