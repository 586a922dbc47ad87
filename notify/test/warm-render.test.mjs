// The warm renderer's failure paths, with the real browser: Chromium killed mid-render (the
// picture is tried again in a new browser), Chromium hung (SIGSTOP: the render times out, the
// browser that does not close is killed, the next render gets a new one), close() while Chromium
// hangs (resolves after the grace, nothing left, no browser opened again), and a process that
// closes its renderer exits by itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { RenderError } from '../lib/render-error.mjs';
import { signalRenders } from '../lib/render-gate.mjs';
import { WarmRenderer } from '../lib/warm-render.mjs';
import { alert, post, startNotifier, waitFor, webhook } from './helpers.mjs';
import { CAPTURES, jsonLines, startProfileSource } from './standins.mjs';

const dirs = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** How many processes run with the browser's TMPDIR (signal 0 only checks). */
const alive = (tmp) => signalRenders(tmp, { signal: 0, exact: true });
const PNG = [0x89, 0x50, 0x4e, 0x47];

function setup(opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-warm-'));
  dirs.push(dir);
  const logs = [];
  const r = new WarmRenderer({ tmpRoot: join(dir, 'tmp'), pages: 2, closeGraceMs: 1000, log: (l) => logs.push(l), ...opts });
  const render = (o = {}) => r.render({ dir, incident: CAPTURES.incident, baseline: CAPTURES.baseline, sampleType: 'cpu', timeoutMs: 60_000, ...o });
  return { dir, r, render, logs };
}

/** Marks a promise's settling, to tell a render still under way. */
function track(p) {
  const t = { settled: false };
  t.p = p.finally(() => (t.settled = true));
  t.p.catch(() => {});
  return t;
}

describe('the warm renderer', () => {
  it('Chromium killed mid-render: the picture is drawn again in a new browser', async () => {
    const { r, render } = setup();
    try {
      assert.equal((await render()).attempts, 1);
      const first = r.browser.tmp;
      assert.ok(alive(first) > 0);
      signalRenders(first, { signal: 'SIGSTOP', exact: true }); // it cannot finish this picture
      const t = track(render());
      await sleep(1000);
      assert.equal(t.settled, false, 'the render waits on the stopped browser');
      signalRenders(first, { signal: 'SIGKILL', exact: true });
      const x = await t.p;
      assert.equal(x.attempts, 2);
      assert.equal(r.started, 2, 'a second browser');
      assert.notEqual(r.browser.tmp, first);
      assert.equal(x.summary.total > 0, true);
      assert.deepEqual([...readFileSync(x.png).subarray(0, 4)], PNG);
      await waitFor(() => alive(first) === 0 && !existsSync(first), 10_000, 'the first browser gone');
    } finally {
      await r.close();
    }
  });

  it('Chromium hung: the render times out, the browser is killed after the grace, the next render gets a new one', async () => {
    const { r, render, logs } = setup();
    try {
      await render();
      const first = r.browser.tmp;
      signalRenders(first, { signal: 'SIGSTOP', exact: true });
      const t0 = Date.now();
      await assert.rejects(render({ timeoutMs: 2000 }), (e) => e instanceof RenderError && e.message === 'render timed out after 2s');
      assert.ok(Date.now() - t0 < 4000, `rejected after ${Date.now() - t0} ms`);
      await waitFor(() => alive(first) === 0, 10_000, 'the hung browser killed');
      await waitFor(() => logs.some((l) => /the browser did not close within 1s: killed [1-9]\d* process/.test(l)), 10_000, `the kill logged\n${logs.join('\n')}`);
      const x = await render();
      assert.equal(x.attempts, 1);
      assert.equal(r.started, 2);
      await waitFor(() => !existsSync(first), 10_000, 'its folder removed');
    } finally {
      await r.close();
    }
  });

  it('two renders side by side in two tabs of one browser', async () => {
    const { r, render } = setup();
    try {
      const [a, b] = await Promise.all([render(), render()]);
      assert.deepEqual([a.attempts, b.attempts], [1, 1]);
      assert.equal(r.started, 1);
      assert.equal(r.browser.count, 2, 'two tabs');
      await Promise.all([render(), render(), render()]);
      assert.equal(r.browser.count, 2, 'never more tabs than pages');
      assert.equal(r.started, 1);
    } finally {
      await r.close();
    }
  });

  it('warmUp() opens the browser and its tabs before the first alert; the renders then open nothing', async () => {
    const { r, render } = setup();
    try {
      await r.warmUp();
      assert.equal(r.started, 1);
      assert.equal(r.browser.count, 2);
      assert.equal(r.browser.idle.length, 2, 'both tabs open and idle');
      await Promise.all([render(), render(), render()]);
      assert.equal(r.started, 1);
      assert.equal(r.browser.count, 2);
    } finally {
      await r.close();
    }
  });

  it('close() while the browser is still starting: resolves, nothing left', async () => {
    const { r, dir } = setup();
    const warming = r.warmUp();
    await waitFor(() => r.browser && alive(r.browser.tmp) > 0, 30_000, 'Chromium started');
    const tmp = r.browser.tmp;
    await r.close();
    await warming;
    assert.equal(alive(tmp), 0);
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
  });

  it('close() while Chromium hangs mid-render: resolves after the grace, nothing left; no browser opens again', async () => {
    const { r, render, dir } = setup();
    await render();
    const tmp = r.browser.tmp;
    signalRenders(tmp, { signal: 'SIGSTOP', exact: true });
    const t = track(render());
    await sleep(500);
    const t0 = Date.now();
    await r.close();
    assert.ok(Date.now() - t0 < 6000, `close took ${Date.now() - t0} ms`);
    assert.equal(alive(tmp), 0);
    await assert.rejects(t.p, /render stopped: the receiver is stopping/);
    await assert.rejects(render(), /render not started: the receiver is stopping/);
    assert.equal(r.started, 1);
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
  });

  for (const hung of [false, true]) {
    it(`a process that closes its renderer exits by itself${hung ? ' (Chromium hung, a render under way)' : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hotpath-warm-exit-'));
      dirs.push(dir);
      const lib = new URL('../lib/', import.meta.url).href;
      const script = `
        import { signalRenders } from '${lib}render-gate.mjs';
        import { WarmRenderer } from '${lib}warm-render.mjs';
        import { CAPTURES } from '${new URL('./standins.mjs', import.meta.url).href}';
        const r = new WarmRenderer({ tmpRoot: ${JSON.stringify(join(dir, 'tmp'))}, closeGraceMs: 1000 });
        const args = { dir: ${JSON.stringify(dir)}, incident: CAPTURES.incident, baseline: CAPTURES.baseline, sampleType: 'cpu' };
        await r.render(args);
        if (${hung}) {
          signalRenders(r.browser.tmp, { signal: 'SIGSTOP', exact: true });
          r.render(args).catch((e) => console.log(e.message));
          await new Promise((ok) => setTimeout(ok, 500));
        }
        await r.close();
        console.log('closed');
      `;
      const p = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (out += d));
      const exited = new Promise((ok) => p.on('exit', (code, signal) => ok({ code, signal })));
      const timer = setTimeout(() => p.kill('SIGKILL'), 90_000);
      const exit = await exited;
      clearTimeout(timer);
      assert.deepEqual(exit, { code: 0, signal: null }, `it exited by itself\n${out}`);
      assert.match(out, /closed/);
      if (hung) {
        assert.match(out, /render stopped: the receiver is stopping/);
      }
      assert.deepEqual(readdirSync(join(dir, 'tmp')), [], 'its browser folder removed');
      assert.equal(signalRenders(join(dir, 'tmp'), { signal: 0 }), 0, 'no browser process left');
    });
  }
});

describe('the notifier with the warm renderer', () => {
  it('close() resolves once its browser is gone; a Chromium killed between alerts is replaced', async () => {
    const src = await startProfileSource();
    const n = await startNotifier({ profilesUrl: src.url, pendingMs: 60_000, minWindowMs: 60_000 });
    const root = n.notifier.renders.tmpRoot;
    const file = join(n.notifier.cfg.outDir, 'messages.jsonl');
    try {
      await post(n.url, webhook([alert({ fingerprint: 'c001' })]));
      await waitFor(() => jsonLines(file).length >= 1, 60_000, 'the first message');
      assert.ok(signalRenders(root, { signal: 0 }) > 0, 'the browser is kept open');
      signalRenders(root, { signal: 'SIGKILL' }); // a crash while idle
      await post(n.url, webhook([alert({ fingerprint: 'c002' })]));
      const m = await waitFor(() => jsonLines(file).length >= 2 && jsonLines(file), 60_000, 'the second message');
      assert.deepEqual(m.map((x) => [x.reason, x.note, Boolean(x.imageUrl)]), [[undefined, undefined, true], [undefined, undefined, true]]);
      assert.equal(n.notifier.warm.started, 2);
    } finally {
      await n.close();
      await src.close();
    }
    assert.equal(signalRenders(root, { signal: 0 }), 0, 'nothing left once close() resolved');
  });
});
