// The snapshot CLI's picture: the built panel in headless Chromium with the given frames, as a
// post-mortem image: a headline (what was profiled, against what, the total), then the panel's
// flame graph (or diff, with its legend) and tables. The panel's interactive controls (view and
// baseline buttons, links, the status line about dashboard windows, the search/focus toolbar)
// mean nothing in a picture and are hidden; the panel itself is not changed. The changes table
// charges runtime time to the calling code, as the alert messages do.
import { openHost } from './harness.mjs';
import { TEST_IDS } from './test-ids.mjs';

const HEADLINE_ID = 'snapshot-headline';

/** Starts Chromium with the host page; pass the promise to renderSnapshot (start it while Node still converts). */
export function openSnapshotHost({ width, height, launch }) {
  const opening = openHost({ viewport: { width: width + 40, height: height + 80 }, launch });
  opening.catch(() => {}); // awaited (and its error reported) by renderSnapshot
  return opening;
}

/** Resolves to { png, text, close }: the PNG bytes, the text visible in it, and closing Chromium (after the files are written: it takes a while). */
export async function renderSnapshot(opening, { series, diff, headline, width, height, theme }) {
  const h = await opening;
  try {
    const spec = {
      series,
      // no strip: a snapshot has no time series, and the strip's prompt is about dragging
      options: { ...(diff ? { baselineRefId: 'B' } : {}), stripHeight: 0 },
      width,
      height,
      theme,
    };
    // one JSON string: Playwright serialises an object argument value by value (40 s for 400k rows)
    await h.page.evaluate((json) => window.hotpathHost.render(JSON.parse(json)), JSON.stringify(spec));
    await h.page.getByTestId(TEST_IDS.canvas).waitFor({ timeout: 20_000 });
    if (h.pageErrors.length) {
      throw new Error(h.pageErrors[0].message);
    }
    const errorView = h.page.getByTestId(TEST_IDS.error);
    if (await errorView.count()) {
      throw new Error((await errorView.first().innerText()).replace(/\s+/g, ' '));
    }
    // the changes table charges runtime and libc time to the code that asked for it, as the alert
    // messages do: the picture's first row is then the caller to fix, the one its message names
    const toggle = h.page.getByTestId(TEST_IDS.attributionToggle);
    if ((await toggle.count()) && !(await toggle.isChecked())) {
      await toggle.check();
      await h.page.locator(`[data-testid="${TEST_IDS.changesTable}"][data-attributed="true"]`).waitFor({ timeout: 20_000 });
    }
    await h.page.evaluate(
      ({ ids, headline, headlineId }) => {
        const byId = (id) => document.querySelector(`[data-testid="${id}"]`);
        /** the ancestor of el that is a direct child of container */
        const childOf = (el, container) => {
          while (el && container && el.parentElement !== container) {
            el = el.parentElement;
          }
          return el;
        };
        const hide = (el) => el && (el.style.display = 'none');
        hide(byId(ids.status));
        hide(byId(ids.views)?.parentElement); // the overlay's header: views, baseline mode, links
        hide(childOf(byId(ids.search), byId(ids.panel))); // the explorer's search/focus toolbar
        hide(byId(ids.attributionToggle)?.parentElement); // the changes table's attribution toggle
        document.getElementById(headlineId)?.remove(); // a host kept open renders again
        const line = document.createElement('div');
        line.id = headlineId;
        line.textContent = headline;
        Object.assign(line.style, { padding: '8px 8px 0', font: '600 14px Inter, Helvetica, Arial, sans-serif' });
        document.body.insertBefore(line, document.getElementById('root'));
      },
      { ids: TEST_IDS, headline, headlineId: HEADLINE_ID }
    );
    const top = await h.page.locator(`#${HEADLINE_ID}`).boundingBox();
    const panel = await h.page.getByTestId('host-panel').boundingBox();
    const png = await h.page.screenshot({
      clip: { x: 0, y: top.y, width: panel.x * 2 + panel.width, height: panel.y + panel.height - top.y },
    });
    // what the picture says in words (hidden elements have no innerText): for the tests
    const text = await h.page.evaluate((id) => `${document.getElementById(id).innerText}\n${document.querySelector('[data-testid="host-panel"]').innerText}`, HEADLINE_ID);
    return { png, text, close: h.close };
  } catch (e) {
    await h.close();
    throw e;
  }
}
