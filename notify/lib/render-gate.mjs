// The renders (Chromium) are the receiver's bottleneck: a few seconds each, `slots` at a time.
// In a storm (Alertmanager sends a group of 200 alerts) the last picture would come many minutes
// after its webhook. The gate keeps every message due within budgetMs of its webhook: an alert
// whose render would end later than that (the renders ahead of it, at the average render time
// measured so far) goes without its picture (Degraded: the message lists the same changes as
// text and says why). It checks again when the alert's turn comes, in case the estimate was wrong.
// The last marginMs of the budget are for the messages that go without a picture.
//
// Each render gets a TMPDIR of its own under tmpRoot, removed when it ends (Chromium's profile
// folder of a killed render stays otherwise), and runs at a lower priority (nice) than the receiver.
// Chromium sets its own threads' priority (its browser process to -8) when it may, that is as
// root: there the render runs under `setpriv` without CAP_SYS_NICE, so it keeps the nice it
// inherits (a user without that capability cannot raise a priority anyway).
// That TMPDIR also marks the render's processes: at start, those a killed receiver left behind
// (SIGKILL gives it no chance to end them) are found by it and ended.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { removeTree } from '@hotpath/headless/remove-tree.mjs';

import { releaseWorker } from './queue.mjs';

/** The argv prefix that keeps a render from raising its priority: setpriv without CAP_SYS_NICE, for root. */
export function priorityLauncher() {
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  return process.getuid?.() === 0 && setpriv ? [setpriv, '--bounding-set=-sys_nice', '--inh-caps=-sys_nice', '--'] : [];
}

/**
 * The processes (pids) whose environment has TMPDIR under root (`exact`: TMPDIR is root itself,
 * or under it), this process aside: a receiver's renders and their Chromium. Linux /proc; none
 * elsewhere.
 */
export function renderPids(root, { exact = false } = {}) {
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return []; // no /proc: not Linux
  }
  return pids.map(Number).filter((pid) => {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      return env.some((e) => e.startsWith(`TMPDIR=${root}/`) || (exact && e === `TMPDIR=${root}`));
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

/** Sends signal to the processes renderPids(root, { exact }) finds; returns how many it reached. */
export function signalRenders(root, { signal = 'SIGKILL', exact = false } = {}) {
  let hit = 0;
  for (const pid of renderPids(root, { exact })) {
    try {
      process.kill(pid, signal);
      hit++;
    } catch {
      // gone
    }
  }
  return hit;
}

/** Ends the processes whose environment has TMPDIR under root (renders of an earlier process). */
export function killOrphanRenders(root) {
  return signalRenders(root);
}

/**
 * Where the renders' TMPDIRs go. Chromium makes its singleton socket under TMPDIR
 * (`<TMPDIR>/<render>/.org.chromium.Chromium.XXXXXX/SingletonSocket`, <render> a number or the warm
 * browser's w<n>), and a unix socket's path
 * holds at most 107 bytes, so Chromium cannot start under a deep state directory: there the
 * TMPDIRs go under the system's temp folder instead, named after the state directory (the same
 * name across restarts, so a killed receiver's renders are still found).
 */
export function renderTmpRoot(wanted) {
  // a render's folder name: its number (the 99,999,999th still fits), or the warm browser's w<n>
  const socketTail = '/NNNNNNNN/.org.chromium.Chromium.XXXXXX/SingletonSocket'.length;
  if (wanted.length + socketTail <= 107) {
    return wanted;
  }
  return join(tmpdir(), `hotpath-render-${createHash('sha256').update(wanted).digest('hex').slice(0, 12)}`);
}

export class Degraded extends Error {
  constructor(ahead, estimateMs) {
    super(`${ahead} alert(s) were waiting for the renderer; a picture would have come about ${Math.round(estimateMs / 1000)}s after the webhook`);
    this.ahead = ahead;
  }
}

export class RenderGate {
  /** @param {{ slots: number, budgetMs: number, marginMs?: number, initialRenderMs?: number, tmpRoot: string, nice?: number, now?: () => number }} opts */
  constructor({ slots, budgetMs, marginMs = Math.round(budgetMs / 5), initialRenderMs = 10_000, tmpRoot, nice = 10, now = Date.now }) {
    Object.assign(this, { slots, budgetMs, marginMs, avgMs: initialRenderMs, tmpRoot: renderTmpRoot(tmpRoot), nice, now });
    this.launcher = priorityLauncher();
    this.busy = 0; // slots in use (a slot passes straight to the next waiting render)
    this.started = new Map(); // render number -> start time, of the running renders
    this.waiting = []; // { receivedAt, go(ok) }
    this.seq = 0;
    this.orphansKilled = killOrphanRenders(this.tmpRoot);
    // what renders killed with the last process left. The renders just killed may still be
    // exiting (Chromium writing its profile as the signal lands): the removal then meets a folder
    // that is not empty yet, and is tried again; a folder it still cannot remove is left for the
    // next start, never a reason not to start
    try {
      rmSync(this.tmpRoot, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } catch (e) {
      this.leftBehind = e.message;
    }
    mkdirSync(this.tmpRoot, { recursive: true });
  }

  /**
   * A render's expected length: the measured average, or longer while a running one already takes
   * longer. A render waiting for its browser to start (the warm browser, once per start) is not
   * drawing: that wait is neither in the average nor in a running render's length, or a storm
   * right after a start would go as text for the seconds Chromium takes to start once.
   */
  renderMs() {
    const t = this.now();
    return Math.max(this.avgMs, ...[...this.started.values()].filter((s) => s !== undefined).map((s) => t - s));
  }

  /** When a picture would be ready, in ms after receivedAt, for a render with `ahead` waiting before it. */
  estimate(receivedAt, ahead) {
    const r = this.renderMs();
    const rounds = this.busy < this.slots ? 0 : Math.ceil((ahead + 1) / this.slots);
    return this.now() + rounds * r + r - receivedAt;
  }

  get limit() {
    return this.budgetMs - this.marginMs;
  }

  /**
   * Runs render({ env, nice, launcher, starting, drawing }) when a slot is free and the picture can
   * still be in time; otherwise rejects with Degraded. While it waits, its queue worker is free for
   * other alerts. A render that waits for a browser to start calls starting(), then drawing() once
   * it has one: the render's measured length starts there.
   */
  async run(receivedAt, render) {
    const asked = this.now();
    const est = this.estimate(receivedAt, this.waiting.length);
    if (est > this.limit) {
      throw new Degraded(this.waiting.length + this.busy, est);
    }
    releaseWorker();
    if (this.busy >= this.slots) {
      const ahead = this.waiting.length + this.busy;
      const ok = await new Promise((go) => {
        this.waiting.push({ receivedAt, go });
        this.watch();
      });
      if (!ok) {
        throw new Degraded(ahead, this.estimate(receivedAt, 0));
      }
    } else {
      this.busy++;
    }
    const t0 = this.now();
    const id = ++this.seq;
    this.started.set(id, t0);
    const tmp = join(this.tmpRoot, String(id));
    mkdirSync(tmp, { recursive: true });
    const starting = () => this.started.set(id, undefined);
    const drawing = () => this.started.set(id, this.now());
    try {
      const r = await render({ env: { TMPDIR: tmp }, nice: this.nice, launcher: this.launcher, starting, drawing });
      this.avgMs = Math.round(0.7 * this.avgMs + 0.3 * (this.now() - (this.started.get(id) ?? t0)));
      return { ...r, waitedMs: t0 - asked }; // the time it waited for a slot (where latency goes)
    } finally {
      await removeTree(tmp);
      this.started.delete(id);
      this.reconsider();
      const next = this.waiting.shift();
      if (next) {
        next.go(true); // the slot passes on
      } else {
        this.busy--;
      }
    }
  }

  /** Sends the waiting alerts whose picture can no longer be in time on without it (now, not at their turn). */
  reconsider() {
    const keep = [];
    for (const w of this.waiting) {
      if (this.estimate(w.receivedAt, keep.length) > this.limit) {
        w.go(false);
      } else {
        keep.push(w);
      }
    }
    this.waiting = keep;
  }

  /** Reconsiders every second while alerts wait (a slow render shows before it ends). */
  watch() {
    if (!this.timer) {
      this.timer = setInterval(() => {
        this.reconsider();
        if (!this.waiting.length) {
          clearInterval(this.timer);
          this.timer = undefined;
        }
      }, 1000);
      this.timer.unref();
    }
  }
}
