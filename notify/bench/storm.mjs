#!/usr/bin/env node
// The storm benchmark (make bench-notify): one Alertmanager webhook with 200 alerts (a group, as
// Alertmanager sends it) to hotpath-notify, run as a process with its shipped defaults
// (--concurrency 2 renders, --deliver-within 5m), the println captures as the profile source, a
// Slack stand-in that enforces Slack's limits. Records the time to the last delivery, the
// latencies, how many messages had their picture, losses and duplicates, and memory: the
// receiver's peak RSS and the renders' (Chromium's) peak total RSS. Writes notify/BENCHMARK-storm.md
// and notify/bench/storm.json.
//
// The storm comes as soon as the receiver listens (--when listening, the default: Alertmanager sends
// again what it could not deliver the moment a restarted receiver is back, while its warm browser
// is still starting), or once the warm browser is open (--when warm).
//
//   node notify/bench/storm.mjs [--alerts 200] [--deliver-within 5m] [--renderer warm|cli] [--when listening|warm]
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { cli } from '@hotpath/headless/cli.mjs';
import { ROOT } from '@hotpath/headless/env.mjs';
import { renderPids, renderTmpRoot } from '../lib/render-gate.mjs';
import { alert, downUrl, post, waitFor, webhook } from '../test/helpers.mjs';
import { jsonLines, startProfileSource, startReceiver, startSlack } from '../test/standins.mjs';

const { args, fail } = cli('bench-storm', 'usage: node notify/bench/storm.mjs [--alerts 200] [--deliver-within 5m] [--renderer warm|cli] [--when listening|warm]', {
  alerts: { type: 'string', default: '200' },
  'deliver-within': { type: 'string', default: '5m' },
  renderer: { type: 'string', default: 'warm' },
  when: { type: 'string', default: 'listening' },
});
if (!['listening', 'warm'].includes(args.when)) {
  fail('--when: listening or warm');
}
// the snapshot CLI has no browser to wait for
const afterWarmUp = args.when === 'warm' && args.renderer === 'warm';
const N = Number(args.alerts);
if (!Number.isInteger(N) || N < 1) {
  fail('--alerts: a whole number');
}

/** kB -> MiB of a /proc/<pid>/status field; 0 when the process is gone. */
function statusMiB(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The summed RSS (MiB) of the processes whose TMPDIR is under root: the renders and their Chromium. */
function rendersRssMiB(root) {
  return renderPids(root).reduce((sum, pid) => sum + statusMiB(pid, 'VmRSS'), 0);
}

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-storm-'));
const slack = await startSlack();
const src = await startProfileSource();
const listen = new URL(await downUrl()).host;
const receiver = startReceiver(['--listen', listen, '--profiles', src.url, '--out-dir', join(dir, 'out'), '--slack-webhook', slack.url, '--deliver-within', args['deliver-within'], '--renderer', args.renderer, '--pending', '1m', '--min-window', '1m']);
const renderTmp = renderTmpRoot(join(dir, 'out', '.state', 'render-tmp')); // where the receiver puts it
let rendersPeak = 0;
const sampler = setInterval(() => {
  rendersPeak = Math.max(rendersPeak, rendersRssMiB(renderTmp));
}, 1000);
const load0 = loadavg()[0];
try {
  await receiver.ready();
  if (afterWarmUp) {
    await waitFor(() => /warm renderer: the browser and its \d+ tab\(s\) are open/.test(receiver.log()), 120_000, `the warm browser\n${receiver.log()}`);
  }
  const alerts = Array.from({ length: N }, (_, i) => alert({ fingerprint: (0x100000 + i).toString(16), job: 'api', labels: { instance: `10.0.${i >> 8}.${i & 255}:8080` } }));
  const t0 = Date.now();
  const res = await post(`http://${listen}`, webhook(alerts));
  const answerMs = Date.now() - t0;
  const counts = await res.json();
  if (counts.accepted !== N) {
    throw new Error(`accepted ${JSON.stringify(counts)}`);
  }
  const file = join(dir, 'out', 'messages.jsonl');
  await waitFor(() => slack.received.length >= N, 30 * 60_000, `${N} messages\n${receiver.log()}`);
  const lastMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 2000)); // anything sent twice would come now
  const receiverPeak = statusMiB(receiver.p.pid, 'VmHWM');
  const m = jsonLines(file);
  const keys = m.map((x) => x.key);
  const lat = m.map((x) => x.latencyMs).sort((a, b) => a - b);
  const pictures = m.filter((x) => x.imageUrl).length;
  const r = {
    alerts: N,
    deliverWithin: args['deliver-within'],
    renderer: args.renderer,
    postedWhen: afterWarmUp ? 'once the warm browser was open' : 'as soon as the receiver listened',
    webhookAnsweredMs: answerMs,
    lastDeliverySeconds: +(lastMs / 1000).toFixed(1),
    latencySeconds: { median: +(pct(lat, 50) / 1000).toFixed(1), p95: +(pct(lat, 95) / 1000).toFixed(1), max: +(lat.at(-1) / 1000).toFixed(1) },
    withPicture: pictures,
    textOnly: m.length - pictures,
    withChanges: m.filter((x) => x.changes?.length).length,
    // why the text-only ones have no picture: their notes, numbers masked, counted
    noPictureBecause: Object.fromEntries(
      Object.entries(m.filter((x) => !x.imageUrl).reduce((o, x) => {
        const k = String(x.note ?? x.reason ?? 'no note').replace(/\d+(\.\d+)?/g, 'N').split(';')[0];
        o[k] = (o[k] ?? 0) + 1;
        return o;
      }, {}))
    ),
    slackReceived: slack.received.length,
    slackRefused: slack.refused.length,
    lost: N - new Set(keys).size,
    duplicates: keys.length - new Set(keys).size + (slack.received.length - N),
    receiverPeakRssMiB: Math.round(receiverPeak),
    rendersPeakRssMiB: Math.round(rendersPeak),
    cpu: execSync("lscpu | grep 'Model name' | sed 's/Model name:\\s*//'", { encoding: 'utf8' }).trim(),
    cores: Number(execSync('nproc', { encoding: 'utf8' })),
    loadAverage: { atStart: +load0.toFixed(1), atEnd: +loadavg()[0].toFixed(1) },
    node: process.version,
    date: new Date().toISOString(),
  };
  writeFileSync(join(ROOT, 'notify', 'bench', 'storm.json'), JSON.stringify(r, null, 2) + '\n');
  writeFileSync(
    join(ROOT, 'notify', 'BENCHMARK-storm.md'),
    `# hotpath-notify: a storm of ${N} alerts

\`make bench-notify\` (notify/bench/storm.mjs): one webhook with ${N} alerts of one group, the receiver
as a process with its shipped defaults (\`--renderer ${r.renderer}\`, \`--concurrency 2\` renders, \`--workers 8\`,
\`--deliver-within ${r.deliverWithin}\`), the println captures as the profile source, a Slack stand-in
that refuses what Slack refuses. Measured ${r.date.slice(0, 16)} UTC on ${r.cpu}, ${r.cores} cores shared
with other work (load average ${r.loadAverage.atStart} at the start, ${r.loadAverage.atEnd} at the end), Node ${r.node}.

| measure | value |
|---|---|
| the webhook posted | ${r.postedWhen} |
| webhook answered (all ${N} on disk) | ${r.webhookAnsweredMs} ms |
| **last message delivered** | **${r.lastDeliverySeconds} s** after the webhook |
| latency webhook -> message: median, p95, max | ${r.latencySeconds.median} s, ${r.latencySeconds.p95} s, ${r.latencySeconds.max} s |
| messages with their picture / as text (the same changes, "No picture: ..." line) | ${r.withPicture} / ${r.textOnly} |
| why without a picture (notes, numbers as N) | ${Object.entries(r.noPictureBecause).map(([k, v]) => `${v}: ${k}`).join('; ') || 'none'} |
| messages listing the biggest changes | ${r.withChanges} of ${N} |
| lost, duplicated, refused by the Slack stand-in | ${r.lost}, ${r.duplicates}, ${r.slackRefused} |
| receiver peak RSS | ${r.receiverPeakRssMiB} MiB |
| renders (${r.renderer === 'warm' ? 'the warm Chromium and its tabs' : 'snapshot CLI + Chromium'}) peak total RSS | ${r.rendersPeakRssMiB} MiB |

Before the render gate every message waited for its picture: the same storm took 749 s to the
last delivery (median 353 s), on the same kind of shared 2-core machine. With the snapshot CLI per
picture (\`--renderer cli\`: a Node process and a Chromium started for each, seconds a picture) it
took 178.7 s, 52 of 200 messages with their picture (2026-11-26T10:46 UTC, Intel(R) Xeon(R)
Processor, 2 shared cores, load 7.5). The gate sends the alerts whose picture would miss the
deadline as text, at once, and keeps the pictures for the first ones. It measures a render from
when the render has its browser tab: before, the warm browser's start (seconds, once) counted as
render time, and this storm posted as the receiver started sent 24 of 200 as text ("N alert(s)
were waiting for the renderer") with the last message out after 13.8 s (2026-11-26T18:50 UTC, AMD
EPYC, load 3.5).
`
  );
  process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  if (r.lost || r.duplicates || r.lastDeliverySeconds > 300) {
    process.exitCode = 1;
  }
} finally {
  clearInterval(sampler);
  await receiver.stop('SIGTERM');
  await slack.close();
  await src.close();
  rmSync(dir, { recursive: true, force: true });
}
