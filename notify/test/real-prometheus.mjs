// A real Prometheus (.tools/bin/prometheus, the pinned build) serving series backfilled with
// `promtool tsdb create-blocks-from openmetrics`, on a free 127.0.0.1 port: the receiver's
// queries run against the engine that answers them in production, not a stand-in.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from '@hotpath/headless/env.mjs';

const run = promisify(execFile);
const tool = (name) => join(ROOT, '.tools', 'bin', name);

/** A port nobody listens on now (the OS picks it); a race with another test is retried by the caller. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * OpenMetrics text of `series`: [{ name, labels, points: [[unix ms, value], ...] }], points in
 * time order. Every family is typed unknown (no _total rules), and each family's series sit together.
 */
export function openMetrics(series) {
  const byName = new Map();
  for (const s of series) {
    byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  }
  const lines = [];
  for (const [name, list] of byName) {
    lines.push(`# TYPE ${name} unknown`);
    for (const s of list) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
        .join(',');
      for (const [t, v] of s.points) {
        lines.push(`${name}{${labels}} ${v} ${(t / 1000).toFixed(3)}`);
      }
    }
  }
  lines.push('# EOF', '');
  return lines.join('\n');
}

/**
 * Backfills `series` (see openMetrics) and starts Prometheus on them: { url, close }. The log is in
 * the returned dir (prometheus.log) and printed when the start fails. Options: `groups`, rule groups
 * Prometheus evaluates (written as a rule file; JSON is YAML), `evaluationInterval`, and `targets`,
 * host:port addresses scraped every second with their own labels kept (honor_labels, as a
 * federation or kube-state-metrics job is).
 */
export async function startRealPrometheus(series, { groups = [], targets = [], evaluationInterval = '1m' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hotpath-prom-'));
  const data = join(dir, 'data');
  mkdirSync(data);
  const om = join(dir, 'series.om');
  writeFileSync(om, openMetrics(series));
  await run(tool('promtool'), ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', om, data], { timeout: 120_000 });
  const config = { global: { scrape_interval: '15s', evaluation_interval: evaluationInterval } };
  if (groups.length > 0) {
    writeFileSync(join(dir, 'rules.yml'), JSON.stringify({ groups }));
    config.rule_files = [join(dir, 'rules.yml')];
  }
  if (targets.length > 0) {
    config.scrape_configs = [{ job_name: 'targets', scrape_interval: '1s', honor_labels: true, static_configs: [{ targets }] }];
  }
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const log = join(dir, `prometheus-${attempt}.log`);
    const child = spawn(
      tool('prometheus'),
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${data}`, `--web.listen-address=127.0.0.1:${port}`, '--storage.tsdb.retention.time=30d', '--no-storage.tsdb.allow-overlapping-compaction'],
      { stdio: ['ignore', 'ignore', 'pipe'] }
    );
    const chunks = [];
    child.stderr.on('data', (c) => chunks.push(c));
    let exited = false;
    child.on('exit', () => (exited = true));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (!exited && Date.now() < deadline) {
      const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
      if (ready) {
        const close = () =>
          new Promise((resolve) => {
            if (exited) return resolve();
            child.on('exit', () => {
              rmSync(dir, { recursive: true, force: true });
              resolve();
            });
            child.kill('SIGTERM');
          });
        return { url, close, dir };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    writeFileSync(log, Buffer.concat(chunks));
    child.kill('SIGKILL');
    if (attempt >= 3 || !/address already in use/.test(readFileSync(log, 'utf8'))) {
      throw new Error(`prometheus did not start (log ${log}):\n${readFileSync(log, 'utf8').slice(-2000)}`);
    }
  }
}
