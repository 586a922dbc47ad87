// The picture and the biggest changes, from the snapshot CLI (plugin/scripts/snapshot.mjs: the built
// panel in headless Chromium), run as a subprocess through its command-line interface: it writes
// DIR/panel.png and DIR/summary.json. A render that takes longer than timeoutMs is killed (its
// whole process group: Chromium too) and reported as such.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { SNAPSHOT_CLI } from '../../plugin/scripts/headless/env.mjs';

export class RenderError extends Error {}

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
 * @param {{ dir: string, incident: Uint8Array, baseline: Uint8Array, sampleType: string, timeoutMs?: number, width?: number, height?: number }} r
 * @returns {Promise<{ png: string, summary: object }>}
 */
export function renderDiff({ dir, incident, baseline, sampleType, timeoutMs = 90_000, width = 1000, height = 560 }) {
  const profile = join(dir, 'incident.pb');
  const base = join(dir, 'baseline.pb');
  writeFileSync(profile, incident);
  writeFileSync(base, baseline);
  const args = [SNAPSHOT_CLI, '--profile', profile, '--baseline', base, '--sample-type', sampleType, '--out', dir, '--width', String(width), '--height', String(height)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, INIT_CWD: dir } });
    if (child.pid) {
      running.add(child.pid);
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
