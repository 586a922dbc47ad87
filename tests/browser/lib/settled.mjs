// The panel answers an event in a later frame (React's next render, a scroll event), so a test
// reads the page until it shows the answer, within a bound, and then asserts on what it read.
import { callTreeRows } from '@hotpath/headless/overlay.mjs';

const { TEST_IDS } = await import('@hotpath/headless/test-ids.mjs');

/** read() until ok(value) holds or timeoutMs has passed; returns the last value read. */
export async function settled(read, ok, { timeoutMs = 10_000, everyMs = 50 } = {}) {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() - t0 >= timeoutMs) {
      return v;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The call tree's selected row once wanted(row) holds for it (or the last one read after 10 s): a
 * key or a click in the flame graph opens and scrolls the tree to its row over a render or two.
 */
export const selectedCallTreeRow = (page, wanted) => settled(async () => (await callTreeRows(page)).find((r) => r.selected), (r) => r !== undefined && wanted(r));

/** Waits until the flame graph's focus path is empty (true) or names a frame (false). */
export const focusPathIs = (page, empty) =>
  page.waitForFunction(({ id, empty }) => (document.querySelector(`[data-testid="${id}"]`)?.innerText === '') === empty, { id: TEST_IDS.focusPath, empty }, { timeout: 10_000 });

/** Waits until the flame graph's focus path ends with the frame `name` (Enter on its row, a click). */
export const focusPathEndsWith = (page, name) =>
  page.waitForFunction(({ id, name }) => document.querySelector(`[data-testid="${id}"]`)?.innerText.endsWith(`› ${name}`), { id: TEST_IDS.focusPath, name }, { timeout: 10_000 });
