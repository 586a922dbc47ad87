// The picture and the biggest changes, from the snapshot CLI (plugin/scripts/snapshot.mjs: the built
// panel in headless Chromium), run as a subprocess through its command-line interface: it writes
// DIR/panel.png and DIR/summary.json. 720 px wide: Slack shows an image block at about half a
// screen, where a 1000 px picture's labels become too small to read. A render that takes longer
// than timeoutMs is killed (its whole process group: Chromium too) and reported as such.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

import { SNAPSHOT_CLI } from '@hotpath/headless/env.mjs';

import { RenderError } from './render-error.mjs';

export { RenderError };

// Renders run in process groups of their own (so that a timeout kills Chromium too), which a
// signal to the receiver's group does not reach: stopRenders() ends them when the receiver stops.
const running = new Set();

export function stopRenders() {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running.clear();
}

/**
 * `requests`: the windows' request counts: the picture's headline then splits load and per request.
 * `env` is added to the render's environment (render-gate.mjs gives it a TMPDIR of its own);
 * `nice` lowers its priority (and its Chromium's, which inherits it) below the receiver's;
 * `launcher` is an argv prefix the render runs under (render-gate.mjs: setpriv, so that Chromium
 * cannot raise that priority again).
 * @param {{ dir: string, incident: Uint8Array, baseline: Uint8Array, sampleType: string, timeoutMs?: number, width?: number, height?: number, requests?: { incident: number, baseline: number }, env?: object, nice?: number, launcher?: string[] }} r
 * @returns {Promise<{ png: string, summary: object }>}
 */
export function renderDiff({ dir, incident, baseline, sampleType, timeoutMs = 90_000, width = 720, height = 520, requests, env = {}, nice = 0, launcher = [] }) {
  const profile = join(dir, 'incident.pb');
  const base = join(dir, 'baseline.pb');
  writeFileSync(profile, incident);
  writeFileSync(base, baseline);
  const args = [SNAPSHOT_CLI, '--profile', profile, '--baseline', base, '--sample-type', sampleType, '--out', dir, '--width', String(width), '--height', String(height)];
  if (requests) {
    args.push('--requests', String(requests.incident), '--baseline-requests', String(requests.baseline));
  }
  return new Promise((resolve, reject) => {
    const [cmd, ...pre] = [...launcher, process.execPath];
    const child = spawn(cmd, [...pre, ...args], { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, INIT_CWD: dir, ...env } });
    if (child.pid) {
      running.add(child.pid);
      try {
        setPriority(child.pid, nice);
      } catch {
        // gone already: its exit is reported below
      }
    }
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr = (stderr + d).slice(-2000);
    });
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      reject(new RenderError(`render timed out after ${Math.round(timeoutMs / 1000)}s`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new RenderError(`render could not start: ${e.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child.pid);
      // the inputs are the render's only: the picture and summary.json are what is kept
      rmSync(profile, { force: true });
      rmSync(base, { force: true });
      if (code !== 0) {
        const last = stderr.trim().split('\n').find((l) => l.startsWith('snapshot:')) ?? stderr.trim().split('\n').pop() ?? '';
        reject(new RenderError(`render failed (${signal ?? `exit ${code}`}): ${last.replace(/^snapshot: /, '')}`));
        return;
      }
      try {
        resolve({ png: join(dir, 'panel.png'), summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) });
      } catch (e) {
        reject(new RenderError(`render wrote no summary: ${e.message}`));
      }
    });
  });
}
