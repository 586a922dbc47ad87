#!/usr/bin/env node
// The receiver's latency, webhook to delivered message, over a burst of alerts: the replayed
// incidents (notify/test/replay-world.mjs) with their Prometheus series, N alerts posted in one
// webhook (the incidents in turn, each its own fingerprint), the real notifier with its
// renderer, a Slack-compatible sink. Prints p50/p95/max and where the time goes, and appends
// the run to notify/bench/RESULTS.md with the CPU model and the load average.
//
//   node notify/bench/latency.mjs [--alerts 20] [--concurrency 2] [--renderer warm|cli] [--no-record]
// (--renderer cli: the snapshot CLI per picture, as before the warm renderer; run both back to
// back to compare them at one load)
import { appendFileSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { stopRenders } from '../lib/render.mjs';
import { startPrometheus } from '../test/fake-prometheus.mjs';
import { post, startNotifier, startSink, waitFor, webhook } from '../test/helpers.mjs';
import { ALERTS, prometheusRules, startReplay, worldSpecs } from '../test/replay-world.mjs';

const { values: args } = parseArgs({ options: { alerts: { type: 'string', default: '20' }, concurrency: { type: 'string', default: '2' }, renderer: { type: 'string', default: 'warm' }, 'no-record': { type: 'boolean', default: false } } });
const N = Number(args.alerts);
const GOAL_P95_MS = 5000;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

const replay = await startReplay(worldSpecs());
const prom = await startPrometheus(prometheusRules());
const sink = await startSink();
const n = await startNotifier({ profilesUrl: replay.url, prometheusUrl: prom.url, slackUrl: sink.url, concurrency: Number(args.concurrency), renderer: args.renderer, queueMax: Math.max(100, N), warmAtStart: true });
// the receiver runs before the alerts come: its warm browser is open (the CLI has none to open)
await n.notifier.warmedUp;
const load = loadavg();
try {
  const alerts = Array.from({ length: N }, (_, i) => {
    const a = structuredClone(ALERTS[i % ALERTS.length].alert);
    a.fingerprint = `b${String(i).padStart(4, '0')}`;
    return a;
  });
  const t0 = Date.now();
  const res = await post(n.url, webhook(alerts));
  const answered = Date.now() - t0;
  const msgs = await waitFor(() => {
    try {
      const m = readFileSync(join(n.notifier.cfg.outDir, 'messages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      return m.length >= N && m;
    } catch {
      return false;
    }
  }, 30 * 60_000, `${N} messages`);
  const lat = msgs.map((m) => m.latencyMs).sort((a, b) => a - b);
  const failed = msgs.filter((m) => m.reason);
  const p50 = quantile(lat, 0.5);
  const p95 = quantile(lat, 0.95);
  const total = Date.now() - t0;
  // where the time goes: each stage's median over the messages
  const stages = {};
  for (const m of msgs) {
    for (const [k, v] of Object.entries(m.stagesMs ?? {})) {
      (stages[k] ??= []).push(v);
    }
    // the rest of its latency: the message built, posted to the sink and written
    (stages.deliver ??= []).push(m.latencyMs - Object.values(m.stagesMs ?? {}).reduce((a, b) => a + b, 0));
  }
  const where = Object.entries(stages)
    .map(([k, v]) => `${k} ${s(v.sort((a, b) => a - b)[Math.floor(v.length / 2)])}`)
    .join(', ');
  const line = `| ${new Date().toISOString().slice(0, 16)}Z | ${cpus()[0]?.model ?? '?'} × ${cpus().length} | ${load.map((x) => x.toFixed(1)).join(' ')} | ${N} | ${args.concurrency}, ${args.renderer} | ${s(p50)} | ${s(p95)} | ${s(lat.at(-1))} | ${s(total)} (${s(total / N)} per alert) | ${p95 <= GOAL_P95_MS ? 'met' : 'missed'} | ${args.renderer === 'warm' ? 'browser and tabs open before the webhook; ' : ''}median stages: ${where}${failed.length ? '; ' : ''}${failed.length ? `${failed.length} without a diff: ${failed[0].reason}` : ''} |`;
  process.stdout.write(`webhook answered in ${answered} ms (status ${res.status}); ${N} messages: p50 ${s(p50)}, p95 ${s(p95)}, max ${s(lat.at(-1))}; all delivered after ${s(total)}\n`);
  process.stdout.write(`median per stage: ${where}\n`);
  process.stdout.write(`load average at the start ${load.map((x) => x.toFixed(1)).join(' ')}; goal p95 <= ${s(GOAL_P95_MS)}: ${p95 <= GOAL_P95_MS ? 'met' : 'missed'}\n`);
  if (!args['no-record']) {
    appendFileSync(join(import.meta.dirname, 'RESULTS.md'), `${line}\n`);
  }
} finally {
  await n.close();
  await sink.close();
  await prom.close();
  replay.close();
  stopRenders();
}
