// The receiver as a process, stopped in the middle of a render (the warm browser, or the snapshot
// CLI, in Chromium) by SIGTERM or SIGKILL, then started again on the same directories: every
// accepted alert is delivered exactly once, the dedupe state survives (a repeat stays silent, the
// resolve is sent), no render process or Chromium folder of the first process is left behind.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { renderPids, renderTmpRoot, signalRenders } from '../lib/render-gate.mjs';
import { alert, post, waitFor, webhook } from './helpers.mjs';
import { jsonLines, startProfileSource, startReceiver, startSlack } from './standins.mjs';

const dirs = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function setup(extra = []) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-restart-'));
  dirs.push(dir);
  const slack = await startSlack();
  const src = await startProfileSource();
  const args = ['--listen', '127.0.0.1:0', '--profiles', src.url, '--out-dir', join(dir, 'out'), '--slack-webhook', slack.url, '--pending', '1m', '--min-window', '1m', ...extra];
  const renderTmp = renderTmpRoot(join(dir, 'out', '.state', 'render-tmp')); // where the receiver puts it
  return { dir, slack, src, args, renderTmp, close: async () => { await slack.close(); await src.close(); } };
}

/** Waits until a render of the receiver has started Chromium (its profile folder is in the render's TMPDIR). */
function renderInFlight(renderTmp, r) {
  const started = () => {
    try {
      return readdirSync(renderTmp).some((d) => readdirSync(join(renderTmp, d)).some((f) => f.startsWith('hotpath-chromium-')));
    } catch {
      return false; // not there yet, or a folder removed as it was read
    }
  };
  return waitFor(started, 60_000, `a render in flight\n${r.log()}`);
}

/** Waits until no render process is left (a killed process takes a moment to go). */
function noRendersLeft(renderTmp, what, among = undefined) {
  return waitFor(() => renderPids(renderTmp).filter((p) => !among || among.includes(p)).length === 0, 10_000, `${what}: ${renderPids(renderTmp).join(' ')}`);
}

/** A free HOST:PORT for a receiver that is started twice on the same address. */
async function freeListen() {
  const { downUrl } = await import('./helpers.mjs');
  return new URL(await downUrl()).host;
}

/** Holds the render in flight: stops its processes (Chromium, and the CLI's Node), those it starts meanwhile too. */
async function hangRenders(renderTmp) {
  await waitFor(() => renderPids(renderTmp).length > 0, 60_000, 'a render process');
  for (let i = 0; i < 5; i++) {
    signalRenders(renderTmp, { signal: 'SIGSTOP' });
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The nice of every thread of the receiver's render processes. */
function renderNices(renderTmp) {
  return renderPids(renderTmp).flatMap((pid) => {
    try {
      return readdirSync(`/proc/${pid}/task`).map((t) => Number(readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
    } catch {
      return [];
    }
  });
}

// warm (the default): the browser outlives a render, so the render is held in flight by stopping
// its processes (SIGSTOP: a hung Chromium, which must not hang the shutdown either), and the
// priority is read from the browser kept open after the restart's picture. cli: the snapshot CLI
// takes seconds, long enough to read its priority mid-render.
for (const [renderer, signal] of [
  ['warm', 'SIGTERM'],
  ['warm', 'SIGKILL'],
  ['cli', 'SIGKILL'],
]) {
  it(`${renderer} renderer, ${signal} mid-render, then a restart: delivered once; the repeat is skipped, the resolve sent; nothing left behind`, async () => {
    const s = await setup(['--shutdown-grace', '0s', '--renderer', renderer]);
    const listen = await freeListen();
    const args = s.args.map((a) => (a === '127.0.0.1:0' ? listen : a));
    const url = `http://${listen}`;
    const niceEnough = (nices) => assert.ok(nices.length && nices.every((v) => v >= 10), `every render thread at nice 10 or lower priority: ${nices.join(' ')}`);
    try {
      const first = startReceiver(args);
      await first.ready();
      assert.equal((await post(url, webhook([alert({ fingerprint: 'aa01' })]))).status, 200);
      await renderInFlight(s.renderTmp, first);
      if (renderer === 'warm') {
        await hangRenders(s.renderTmp);
      } else {
        // Chromium sets its threads' priorities as it starts: wait (bounded) until they are set
        let nices = [];
        await waitFor(() => (nices = renderNices(s.renderTmp)).length > 0 && nices.every((v) => v >= 10), 30_000, 'the render threads at nice 10 or lower priority').catch((e) => {
          throw new Error(`${e.message}; their nices: ${nices.join(' ') || 'no render thread'}`);
        });
      }
      const pids = renderPids(s.renderTmp);
      assert.ok(pids.length > 0, 'the render runs');
      const t = Date.now();
      await first.stop(signal);
      if (signal === 'SIGTERM') {
        assert.match(first.log(), /CPUPerRequestRegression aa01-\d+ firing: interrupted by SIGTERM, kept in the journal/);
        // the hung browser did not close: killed after the grace, and the process exited
        assert.match(first.log(), /warm renderer: the browser did not close within 5s: killed \d+ process/);
        assert.ok(Date.now() - t < 30_000, `exited ${Date.now() - t} ms after SIGTERM`);
        await noRendersLeft(s.renderTmp, 'no render process outlives the receiver');
      }
      assert.equal(s.slack.received.length, 0, 'nothing was sent by the stopped process');

      const second = startReceiver(args);
      await second.ready();
      assert.match(second.log(), /CPUPerRequestRegression job=api firing: resumed from the journal/);
      if (signal === 'SIGKILL' && renderer === 'warm') {
        // the stopped browser cannot go by itself: the start ends it. The CLI renderer's processes
        // may finish or exit on their own first (on a busy machine the start takes seconds); that
        // none of them outlives the restart is checked below for both.
        assert.match(second.log(), /ended \d+ render process\(es\) left by an earlier process/);
      }
      // the message is recorded after Slack has taken it, with its delivery
      const messages = () => jsonLines(join(s.dir, 'out', 'messages.jsonl'));
      await waitFor(() => s.slack.received.length >= 1 && messages().length >= 1, 120_000, `the resumed message\n${second.log()}`);
      const m = messages();
      assert.equal(m.length, 1);
      assert.equal(m[0].reason, undefined, m[0].reason);
      assert.equal(m[0].note, undefined, m[0].note);
      assert.ok(m[0].imageUrl, 'rendered after the restart');
      await noRendersLeft(s.renderTmp, 'the first process\'s render is gone', pids);
      if (renderer === 'warm') {
        niceEnough(renderNices(s.renderTmp)); // the browser kept open for the next picture
      }
      // Alertmanager repeats the firing alert, then resolves it
      assert.deepEqual(await (await post(url, webhook([alert({ fingerprint: 'aa01' })]))).json(), { accepted: 0, skipped: 1, refused: 0 });
      await post(url, webhook([alert({ fingerprint: 'aa01', status: 'resolved' })]));
      await waitFor(() => s.slack.received.length >= 2, 30_000, `the resolve\n${second.log()}`);
      await second.stop('SIGTERM');
      await noRendersLeft(s.renderTmp, 'the warm browser closed with the receiver');
      assert.deepEqual(s.slack.received.map((x) => x.text.split(' ')[1]), ['FIRING', 'RESOLVED']);

      // a third start: nothing left to do, nothing sent again
      const third = startReceiver(args);
      await third.ready();
      await new Promise((r) => setTimeout(r, 1000));
      await third.stop('SIGTERM');
      assert.equal(s.slack.received.length, 2);
      assert.doesNotMatch(third.log(), /resumed/);
      assert.deepEqual(existsSync(s.renderTmp) ? readdirSync(s.renderTmp) : [], [], 'no Chromium folder left');
    } finally {
      await s.close();
    }
  });
}

it('SIGTERM with a grace period drains the running render: delivered before the exit, not again after', async () => {
  const s = await setup(['--shutdown-grace', '120s']);
  const listen = await freeListen();
  const args = s.args.map((a) => (a === '127.0.0.1:0' ? listen : a));
  try {
    const first = startReceiver(args);
    await first.ready();
    // the render to drain is one in the warm browser: stopping Chromium's processes while that
    // browser is still starting would time its start out instead (60s) and the drain with it
    await waitFor(() => /warm renderer: the browser and its \d+ tab\(s\) are open/.test(first.log()), 90_000, `the warm browser\n${first.log()}`);
    await post(`http://${listen}`, webhook([alert({ fingerprint: 'bb02' })]));
    await renderInFlight(s.renderTmp, first);
    // held until the receiver has started draining: the render must end after the SIGTERM, in
    // the browser the receiver keeps open for it
    await hangRenders(s.renderTmp);
    const exiting = first.stop('SIGTERM');
    await waitFor(() => /SIGTERM: draining 1 running alert/.test(first.log()), 30_000, `the drain\n${first.log()}`);
    signalRenders(s.renderTmp, { signal: 'SIGCONT' });
    const exit = await exiting;
    assert.equal(exit.code, 0);
    assert.equal(s.slack.received.length, 1, first.log());
    const [m] = jsonLines(join(s.dir, 'out', 'messages.jsonl'));
    assert.ok(m.imageUrl, `rendered during the drain: ${m.note}`);
    await noRendersLeft(s.renderTmp, 'the warm browser closed after the drain');
    const second = startReceiver(args);
    await second.ready();
    await new Promise((r) => setTimeout(r, 1000));
    await second.stop('SIGTERM');
    assert.equal(s.slack.received.length, 1, 'not sent again');
  } finally {
    await s.close();
  }
});
