// The picture from a renderer kept warm: one headless Chromium with the built panel's host page,
// opened once and reused for every alert (the snapshot CLI starts a Node process and a Chromium
// for each picture: seconds of every message's latency). The frames and the summary are made here
// with the panel's data layer, as the snapshot CLI makes them; the picture is the CLI's
// (snapshot-render.mjs). Up to `pages` renders run side by side, each in a tab of its own that is
// kept for the next picture (only the data changes).
//
// What can go wrong with a browser that outlives a render, and what happens then:
// - Chromium crashes or is killed mid-render: the render is tried once more in a new browser,
//   within the same timeout; a second failure is the message's one-line reason.
// - Chromium hangs: the render times out; the browser is closed, and killed (SIGKILL) if it has
//   not gone after closeGraceMs: a hung Chromium answers neither Browser.close nor SIGTERM. The
//   next render opens a new one.
// - the receiver stops: close() ends the browser the same way and resolves once it is gone;
//   renders under way fail, and none opens a browser again.
// Each browser runs with a TMPDIR of its own (under the render gate's root): that is how its
// processes are found to be killed here, and by the next start after the receiver was killed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { pictureHeadline } from '@hotpath/headless/headline.mjs';
import { removeTree } from '@hotpath/headless/remove-tree.mjs';
import { openSnapshotHost, renderSnapshot } from '@hotpath/headless/snapshot-render.mjs';

import { RenderError } from './render-error.mjs';
import { signalRenders } from './render-gate.mjs';

const d = await dataLayer();

const sleep = (ms, value) => new Promise((r) => setTimeout(r, ms, value));
const TIMEOUT = Symbol('timeout');
// what Playwright says when the page's renderer or the whole browser went away
const GONE = /Target crashed|Page crashed|has been closed|has disconnected|browser.*closed|Target closed/i;

export class WarmRenderer {
  /**
   * @param {{ tmpRoot: string, pages?: number, closeGraceMs?: number, log?: (line: string) => void }} o
   *   tmpRoot: where each browser gets its TMPDIR (w<n>); pages: renders at once (tabs);
   *   closeGraceMs: how long a browser may take to close before it is killed
   */
  constructor({ tmpRoot, pages = 2, closeGraceMs = 5000, log = () => {} }) {
    Object.assign(this, { tmpRoot, pages, closeGraceMs, log });
    this.seq = 0;
    this.browser = undefined; // the browser renders go to: { id, tmp, opening, host, idle, count, waiters, dead }
    this.ending = new Set(); // browsers being closed or killed
    this.closed = false;
    this.started = 0; // browsers opened (a restart opens another)
  }

  /**
   * Opens the browser and its `pages` tabs now, ahead of the first alert (the receiver's start):
   * otherwise the first picture of a burst waits for Chromium to start and every tab to load the
   * panel, seconds that every alert behind it waits too. Resolves when they are open; a failure
   * is logged, and the first render tries again.
   */
  async warmUp({ width = 720, height = 520, launch } = {}) {
    if (this.closed || this.browser) {
      return;
    }
    const t0 = performance.now();
    const b = this.open({ width, height, launch });
    try {
      await b.opening;
      while (b.count < this.pages && !b.dead) {
        b.count++; // counted before it opens: a render meanwhile opens no tab of its own for it
        let p;
        try {
          p = await b.host.newPage();
        } catch (e) {
          b.count--;
          throw e;
        }
        this.watch(b, p);
        b.idle.push(p);
        b.waiters.shift()?.();
      }
      if (!b.dead) {
        this.log(`warm renderer: the browser and its ${b.count} tab(s) are open (${((performance.now() - t0) / 1000).toFixed(1)}s)`);
      }
    } catch (e) {
      if (!this.closed) {
        this.log(`warm renderer: could not open the browser ahead of the alerts (${String(e.message).split('\n')[0]}); the first render tries again`);
        this.end(b);
      }
    }
  }

  /** A new browser for the renders to come (the last one failed, or there was none). */
  open({ width, height, launch = {} }) {
    const id = ++this.seq;
    const tmp = join(this.tmpRoot, `w${id}`); // short: Chromium's socket path under it is bounded (renderTmpRoot)
    const b = { id, tmp, idle: [], count: 1, waiters: [], dead: false };
    this.started++;
    // the receiver handles its signals itself (it drains before it closes the browser)
    b.opening = openSnapshotHost({ width, height, launch: { ...launch, env: { ...launch.env, TMPDIR: tmp }, handleSignals: false } }).then((h) => {
      b.host = h;
      h.context.on('close', () => this.lost(b, 'the browser went away'));
      this.watch(b, h);
      b.idle.push({ page: h.page, pageErrors: h.pageErrors });
      return h;
    });
    b.opening.catch(() => this.end(b)); // a failed start: the next render starts another
    this.browser = b;
    return b;
  }

  watch(b, p) {
    p.page.on('crash', () => this.lost(b, 'a page crashed'));
  }

  /** The browser went away under its renders: they fail over to a new one. */
  lost(b, why) {
    if (!b.dead && !this.closed) {
      this.log(`warm renderer: ${why}; the next render starts a new browser`);
    }
    this.end(b);
  }

  /** A tab for one render: an idle one, a new one (up to `pages`), or the next one freed. */
  async acquire(b) {
    await b.opening;
    for (;;) {
      if (b.dead) {
        throw new Error('the browser has been closed');
      }
      const idle = b.idle.pop();
      if (idle) {
        return idle;
      }
      if (b.count < this.pages) {
        b.count++;
        try {
          const p = await b.host.newPage();
          this.watch(b, p);
          return p;
        } catch (e) {
          b.count--;
          throw e;
        }
      }
      await new Promise((r) => b.waiters.push(r));
    }
  }

  /** A tab back after a render; one whose render failed is closed (its state is unknown). */
  release(b, p, ok) {
    if (ok && !b.dead) {
      b.idle.push(p);
    } else if (!b.dead) {
      b.count--;
      p.page.close().catch(() => {});
    }
    b.waiters.shift()?.();
  }

  /**
   * Closes a browser; kills it (SIGKILL to every process with its TMPDIR) when it has not closed
   * within closeGraceMs, and removes its TMPDIR. Resolves when it is gone.
   */
  end(b) {
    if (b.ending) {
      return b.ending;
    }
    b.dead = true;
    if (this.browser === b) {
      this.browser = undefined;
    }
    b.waiters.splice(0).forEach((w) => w());
    b.ending = (async () => {
      // a browser that failed to open, or whose close failed, is ended all the same
      const graceful = b.opening.then((h) => h.close()).catch(() => {});
      const closed = await Promise.race([graceful.then(() => true), sleep(this.closeGraceMs, false)]);
      const killed = signalRenders(b.tmp, { exact: true });
      if (!closed) {
        this.log(`warm renderer: the browser did not close within ${this.closeGraceMs / 1000}s: killed ${killed} process(es)`);
        // killed, its connections end and Playwright's close returns; bounded all the same (a
        // receiver that drained for its grace has little of Kubernetes' 30 s left)
        await Promise.race([graceful, sleep(Math.min(this.closeGraceMs, 2000))]);
      }
      const left = await removeTree(b.tmp);
      if (left) {
        this.log(`warm renderer: could not remove the browser's folder (${left}): the next start removes it`);
      }
    })();
    this.ending.add(b.ending);
    b.ending.then(() => this.ending.delete(b.ending));
    return b.ending;
  }

  /** Stops: no render opens a browser again; resolves when every browser is closed or killed. */
  close() {
    this.closed = true;
    this.closing ??= (async () => {
      if (this.browser) {
        this.end(this.browser);
      }
      while (this.ending.size) {
        await Promise.all([...this.ending]);
      }
    })();
    return this.closing;
  }

  /**
   * Same arguments and result as render.mjs renderDiff: writes DIR/panel.png and DIR/summary.json.
   * @param {{ dir, incident, baseline, sampleType, timeoutMs?, width?, height?, requests?, names?, trees?, launch? }} r
   *   names: what the headline calls the two sides (default "incident" and "baseline");
   *   trees: the two profiles already decoded ({ incident, baseline }: the data layer's
   *   pprofToTree results), to save decoding them again;
   *   launch: how a browser this render opens runs ({ env, nice, launcher }: the render gate's
   *   priority, harness.mjs openHost), and the gate's starting() and drawing(): called when the
   *   render waits for a browser to start, and when it has its tab
   */
  async render({ dir, incident, baseline, sampleType, timeoutMs = 90_000, width = 720, height = 520, requests, names = ['incident', 'baseline'], trees, launch: { starting, drawing, ...launch } = {} }) {
    if (this.closed) {
      throw new RenderError('render not started: the receiver is stopping');
    }
    const t0 = performance.now();
    let p;
    let b;
    try {
      p = trees?.incident ?? d.pprofToTree(incident, sampleType);
      b = trees?.baseline ?? d.pprofToTree(baseline, sampleType);
    } catch (e) {
      throw new RenderError(`render failed: ${e.message}`);
    }
    const frame = (t, refId) => d.flamebearerToFrame(d.treeToFlamebearer(t.tree), t.unit, { refId });
    const summary = d.summarize(p.tree, b.tree);
    if (requests) {
      summary.perRequest = d.perRequestSummary(p.tree, b.tree, requests.incident, requests.baseline);
    }
    const headline = pictureHeadline({ sampleType: p.sampleType, unit: p.unit, sides: `${names[0]} against ${names[1]}`, total: summary.total, decomposition: summary.perRequest?.decomposition });
    const spec = { series: [frame(b, 'B'), frame(p, 'A')], diff: true, headline, width, height, theme: 'dark' };
    const prepareMs = Math.round(performance.now() - t0); // the frames, on the receiver's thread
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(TIMEOUT), timeoutMs);
    });
    try {
      for (let attempt = 1; ; attempt++) {
        if (this.closed) {
          throw new RenderError('render stopped: the receiver is stopping');
        }
        const browser = this.browser ?? this.open({ width, height, launch });
        try {
          const { png } = await Promise.race([this.attempt(browser, spec, { starting, drawing }), timeout]);
          writeFileSync(join(dir, 'panel.png'), png);
          writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
          return { png: join(dir, 'panel.png'), summary, attempts: attempt, prepareMs };
        } catch (e) {
          if (e === TIMEOUT) {
            // hung: this browser is not trusted with another picture
            this.log(`warm renderer: a render took longer than ${Math.round(timeoutMs / 1000)}s: closing its browser`);
            this.end(browser);
            throw new RenderError(`render timed out after ${Math.round(timeoutMs / 1000)}s`);
          }
          if (this.closed) {
            throw new RenderError('render stopped: the receiver is stopping');
          }
          const msg = String(e.message ?? e).split('\n')[0];
          const lost = browser.dead || GONE.test(msg);
          if (lost) {
            this.end(browser);
            if (attempt === 1) {
              continue; // once more, in a new browser
            }
          }
          // (a browser that did not start has no host: its error says why)
          throw new RenderError(`render failed: ${lost && browser.host ? `the browser went away twice: ${msg}` : msg}`);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** One render in a tab of browser b: { png }. */
  async attempt(b, spec, { starting, drawing } = {}) {
    if (!b.host) {
      starting?.();
    }
    const tab = await this.acquire(b);
    drawing?.();
    tab.pageErrors.length = 0; // an earlier picture's page errors are not this one's
    let ok = false;
    try {
      const r = await renderSnapshot(Promise.resolve({ ...tab, close: async () => {} }), spec);
      ok = true;
      return r;
    } finally {
      this.release(b, tab, ok);
    }
  }
}
