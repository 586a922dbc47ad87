#!/usr/bin/env node
// node notify/bench/profile-metrics.mjs [--services 1000] [--interval 60s] [--rounds 4]
//   [--median-ms 150] [--concurrency 16] [--write]          (make bench-profile-metrics)
//
// Benchmark (not a test): hotpath-profile-metrics, the command as deployed, against a stand-in
// Pyroscope of --services services answering in realistic time (fleet-server.mjs, a process of
// its own). Measured on the bridge's process over --rounds rounds after a first one (which
// fills the top sets): its CPU (utime + stime from /proc, decode worker threads included), its
// resident memory (VmRSS, and the peak VmHWM), the queries per second it puts on Pyroscope, the
// time a round takes, and what Prometheus gets: series and the size of one scrape.
// --write appends the result to notify/bench/RESULTS-profile-metrics.md.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ROOT } from '@hotpath/headless/env.mjs';

import { parseDuration } from '../lib/flags.mjs';
import { waitFor } from '../test/helpers.mjs';

const { values: args } = parseArgs({
  options: {
    services: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '60s' },
    rounds: { type: 'string', default: '4' },
    'median-ms': { type: 'string', default: '150' },
    concurrency: { type: 'string', default: '16' },
    write: { type: 'boolean', default: false },
  },
});
const log = (line) => process.stderr.write(`bench-profile-metrics: ${line}\n`);
const intervalMs = parseDuration(args.interval);
const rounds = Number(args.rounds);
const children = [];
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

function start(argv, stream) {
  const p = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(p);
  let out = '';
  p[stream].on('data', (d) => (out += d));
  p.stderr.on('data', (d) => stream === 'stdout' && process.stderr.write(d));
  return { p, out: () => out };
}

const loadAtStart = loadavg()[0];
const fleet = start([join(ROOT, 'notify/bench/fleet-server.mjs'), args.services, args['median-ms']], 'stdout');
const fleetUrl = await waitFor(() => /^(http:\S+)/.exec(fleet.out())?.[1], 60_000, 'the stand-in');
log(`stand-in of ${args.services} services at ${fleetUrl}, answers around ${args['median-ms']} ms`);
const bridge = start([join(ROOT, 'notify/profile-metrics.mjs'), '--profiles', fleetUrl, '--listen', '127.0.0.1:0', '--interval', args.interval, '--lag', '0s', '--concurrency', args.concurrency, '--max-services', String(Math.max(2000, Number(args.services)))], 'stderr');
const url = await waitFor(() => /serving (http:\/\/\S+)\/metrics/.exec(bridge.out())?.[1], 60_000, 'the bridge');

const TICK = Number((await import('node:child_process')).execSync('getconf CLK_TCK').toString()) || 100;
const cpuSeconds = () => {
  const f = readFileSync(`/proc/${bridge.p.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / TICK; // utime, stime (fields 14, 15)
};
const memory = () => {
  const s = readFileSync(`/proc/${bridge.p.pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
};
const scrape = async () => {
  const t0 = performance.now();
  const text = await (await fetch(`${url}/metrics`)).text();
  const ms = performance.now() - t0;
  const get = (re) => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0);
  return {
    text,
    ms,
    lastRound: get(/^hotpath_profile_metrics_last_round_timestamp_seconds (\S+)$/gm),
    roundSeconds: get(/^hotpath_profile_metrics_round_duration_seconds (\S+)$/gm),
    queries: get(/^hotpath_profile_metrics_query_duration_seconds_count\{[^}]*\} (\S+)$/gm),
    errors: get(/^hotpath_profile_metrics_query_errors_total\{[^}]*\} (\S+)$/gm),
    series: get(/^hotpath_profile_metrics_series\{[^}]*\} (\S+)$/gm),
  };
};
let rss = [];
const sampler = setInterval(() => rss.push(memory().rss), 1000);
const roundDone = async (after) => waitFor(async () => ((s) => s.lastRound > after && s)(await scrape()), Math.max(intervalMs * 3, 600_000), 'a round');

let s = await roundDone(0);
log(`first round: ${s.roundSeconds.toFixed(1)} s, ${s.queries} queries, ${s.series} series`);
const cpu0 = cpuSeconds();
const t0 = Date.now();
const q0 = s.queries;
rss = [];
const roundTimes = [];
for (let i = 0; i < rounds; i++) {
  s = await roundDone(s.lastRound);
  roundTimes.push(s.roundSeconds);
  log(`round ${i + 2}: ${s.roundSeconds.toFixed(1)} s, RSS ${memory().rss.toFixed(0)} MiB`);
}
// up to the end of the last measured round: whole intervals, the idle time between rounds included
const elapsed = s.lastRound - t0 / 1000;
const cpu = cpuSeconds() - cpu0;
clearInterval(sampler);
const mem = memory();
const scrapeBytes = Buffer.byteLength(s.text);
const cpuModel = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown';
const costSeries = (s.text.match(/^hotpath_profile_(cpu_seconds|alloc_bytes)_total\{/gm) ?? []).length;
const result = {
  services: Number(args.services),
  interval: args.interval,
  rounds,
  cpuPerRound: cpu / rounds,
  cores: cpu / elapsed,
  rssMean: rss.reduce((a, b) => a + b, 0) / rss.length,
  rssMax: Math.max(...rss),
  hwm: mem.hwm,
  qps: (s.queries - q0) / elapsed,
  roundMax: Math.max(...roundTimes),
  errors: s.errors,
  costSeries,
  scrapeBytes,
  scrapeMs: s.ms,
};
const line = `| ${new Date().toISOString().slice(0, 16)}Z | ${cpuModel} (${cpus().length} threads) | ${loadAtStart.toFixed(1)}-${loadavg()[0].toFixed(1)} | ${result.services} | ${result.interval} | ${args.concurrency} | ${args['median-ms']} ms | ${result.cpuPerRound.toFixed(1)} s (${result.cores.toFixed(2)} cores) | ${result.rssMean.toFixed(0)} / ${result.rssMax.toFixed(0)} MiB (peak ${result.hwm.toFixed(0)}) | ${result.qps.toFixed(1)} | ${result.roundMax.toFixed(1)} s | ${result.errors} | ${result.costSeries} (${(result.costSeries / result.services).toFixed(0)}/service) | ${(result.scrapeBytes / 1048576).toFixed(1)} MiB, ${result.scrapeMs.toFixed(0)} ms |`;
process.stdout.write(`${JSON.stringify(result)}\n${line}\n`);
if (args.write) {
  appendFileSync(join(ROOT, 'notify/bench/RESULTS-profile-metrics.md'), `${line}\n`);
}
process.exit(0);
