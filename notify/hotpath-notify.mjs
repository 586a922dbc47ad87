#!/usr/bin/env node
// hotpath-notify: an Alertmanager webhook receiver that attaches the alert's answer: the diff of
// the service's profile in the alert's window against the window before it (a picture and the
// five biggest changes), delivered to a Slack-compatible incoming webhook and/or a directory.
// README.md next to this file explains it; `--help` lists the flags.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import './lib/core-ready.mjs';
import { cli } from '@hotpath/headless/cli.mjs';
import { redactUrl } from './lib/deliver.mjs';
import { flagReaders } from './lib/flags.mjs';
import { DEFAULTS, Notifier, RENDERERS } from './lib/notifier.mjs';
import { renderingMissing } from './lib/prerequisites.mjs';
import { stopRenders } from './lib/render.mjs';
import { keepDiskBounded } from './lib/retention.mjs';
import { createWebhookServer } from './lib/server.mjs';
import { sanitize } from './lib/slack-limits.mjs';

const USAGE = `usage: hotpath-notify --profiles URL [--out-dir DIR] [--slack-webhook URL] [flags]
  --profiles URL        Pyroscope (or the playground's profile-store): its querier API is called
                        (default $HOTPATH_PROFILES_URL)
  --prometheus URL      Prometheus (or Thanos Query): the alert's series says where the incident
                        started, and its request rate gives per-request units; without it the
                        windows follow --pending and the message says they are approximate
                        (default $HOTPATH_PROMETHEUS_URL)
  --listen ADDR         where Alertmanager posts (default 127.0.0.1:9095; POST /webhook)
  --public-url URL      how Slack reaches this receiver, for image links (default http://<listen>)
  --out-dir DIR         write each message to DIR/<alert>/ and DIR/messages.jsonl
  --slack-webhook URL   POST each message to this Slack-compatible incoming webhook (a secret:
                        logs show only its host; prefer --slack-webhook-file or the variable)
                        (default $HOTPATH_SLACK_WEBHOOK_URL: keeps the URL's secret out of argv)
  --slack-webhook-file FILE  the same, read from a file (keeps the secret out of ps and the manifest)
  --images-dir DIR      where pictures are kept (default: --out-dir, else .cache/notify/images)
  --state-dir DIR       the journal: accepted alerts, what was announced, Slack deliveries to
                        retry; kept across restarts (default: <images-dir>/.state)
  --token-file FILE     require "Authorization: Bearer <token>" (or $HOTPATH_NOTIFY_TOKEN); an
                        empty file or variable is refused at start
  --pending DURATION    the alert rules' for: (default 15m: the shipped rule pack)
  --min-window DURATION the shortest incident window (default 5m)
  --max-window DURATION the longest incident window (default 1h)
  --profile-labels L,L  alert labels copied into the profile selector besides job -> service_name
                        (default namespace,instance; '' for none)
  --concurrency N       renders at once (default 2): tabs of the warm browser, or snapshot CLIs
  --renderer warm|cli   warm: one Chromium, opened at start and kept open for every picture
                        (default; restarted after a crash or a hang); cli: the snapshot CLI per
                        picture (a Chromium each, seconds slower a message)
  --workers N           alerts fetched, decoded and delivered at once (default 8; an alert
                        waiting for a render frees its worker); --queue N waiting (default 1000)
  --deliver-within DURATION  a message's deadline after its webhook (default 5m): in a storm,
                        alerts whose picture would come later go as text, saying so
  --render-timeout DURATION  (default 90s); --fetch-timeout DURATION (default 20s);
  --decode-timeout DURATION  (default 20s): decoding one profile answer, in a worker thread
  --give-up-after DURATION   keep retrying a Slack delivery this long (default 24h)
  --shutdown-grace DURATION  on SIGTERM, let running alerts finish this long (default 20s);
                        what is left resumes from the journal at the next start
  --retention DURATION  remove alert folders (pictures, message.json) older than this
                        (default 14d; messages.jsonl is kept whole)`;

const { args, fail } = cli('hotpath-notify', USAGE, {
  profiles: { type: 'string', default: process.env.HOTPATH_PROFILES_URL },
  prometheus: { type: 'string', default: process.env.HOTPATH_PROMETHEUS_URL },
  renderer: { type: 'string', default: DEFAULTS.renderer },
  listen: { type: 'string', default: '127.0.0.1:9095' },
  'public-url': { type: 'string' },
  'out-dir': { type: 'string' },
  'slack-webhook': { type: 'string', default: process.env.HOTPATH_SLACK_WEBHOOK_URL || undefined },
  'slack-webhook-file': { type: 'string' },
  'images-dir': { type: 'string' },
  'state-dir': { type: 'string' },
  'token-file': { type: 'string' },
  pending: { type: 'string', default: '15m' },
  'min-window': { type: 'string', default: '5m' },
  'max-window': { type: 'string', default: '1h' },
  'profile-labels': { type: 'string', default: 'namespace,instance' },
  concurrency: { type: 'string', default: String(DEFAULTS.concurrency) },
  workers: { type: 'string', default: String(DEFAULTS.workers) },
  queue: { type: 'string', default: String(DEFAULTS.queueMax) },
  'deliver-within': { type: 'string', default: '5m' },
  'render-timeout': { type: 'string', default: '90s' },
  'fetch-timeout': { type: 'string', default: '20s' },
  'decode-timeout': { type: 'string', default: '20s' },
  'give-up-after': { type: 'string', default: '24h' },
  'shutdown-grace': { type: 'string', default: '20s' },
  retention: { type: 'string', default: '14d' },
});

const { duration, count } = flagReaders(args, fail);

if (!args.profiles || !/^https?:\/\//.test(args.profiles)) {
  fail('--profiles URL is required (Pyroscope, or the playground profile-store: http://127.0.0.1:9190)');
}
if (!RENDERERS.includes(args.renderer)) {
  fail(`--renderer ${args.renderer}: want ${RENDERERS.join(' or ')}`);
}
const cannotDraw = renderingMissing();
if (cannotDraw) {
  fail(cannotDraw, 1);
}
if (args.prometheus && !/^https?:\/\//.test(args.prometheus)) {
  fail(`--prometheus ${args.prometheus}: want an http(s) URL, e.g. http://127.0.0.1:9090`);
}
const cwd = process.env.INIT_CWD || process.cwd();
/** A secret from a file: its first line, trimmed; an unreadable or empty file stops the start. */
function secretFile(flag) {
  let v;
  try {
    v = readFileSync(resolve(cwd, args[flag]), 'utf8').trim();
  } catch (e) {
    fail(`--${flag} ${args[flag]}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  if (!v) {
    fail(`--${flag} ${args[flag]} is empty: refusing to start`);
  }
  return v;
}
const slackUrl = args['slack-webhook-file'] ? secretFile('slack-webhook-file') : args['slack-webhook'];
if (slackUrl && !/^https?:\/\/[^\s]+$/.test(slackUrl)) {
  fail('the Slack webhook is not an http(s) URL');
}
if (!args['out-dir'] && !slackUrl) {
  fail('say where messages go: --out-dir DIR and/or --slack-webhook URL');
}
const [host, port] = args.listen.split(/:(?=\d+$)/);
if (!host || !port) {
  fail(`--listen ${args.listen}: want HOST:PORT, e.g. 127.0.0.1:9095`);
}
// An empty token must never mean "no token": the receiver would run open while its operator
// believes it is protected. Unset the variable (and drop --token-file) to run without one.
let token = process.env.HOTPATH_NOTIFY_TOKEN?.trim();
if (args['token-file']) {
  token = secretFile('token-file');
} else if (token === '') {
  fail('$HOTPATH_NOTIFY_TOKEN is set but empty: refusing to start (unset it to run without a token)');
}
const outDir = args['out-dir'] && resolve(cwd, args['out-dir']);
const imagesDir = args['images-dir'] ? resolve(cwd, args['images-dir']) : (outDir ?? resolve(cwd, '.cache/notify/images'));
// one line per event; a label value cannot forge a second line or reorder one (bidi controls)
const log = (line) => process.stderr.write(`hotpath-notify: ${sanitize(String(line).replace(/[\r\n]+/g, ' '))}\n`);
let notifier;
try {
  notifier = new Notifier({
    log,
    profilesUrl: args.profiles,
    prometheusUrl: args.prometheus,
    renderer: args.renderer,
    outDir,
    slackUrl,
    publicUrl: args['public-url'] ?? `http://${args.listen}`,
    stateDir: args['state-dir'] && resolve(cwd, args['state-dir']),
    imagesDir,
    pendingMs: duration('pending'),
    minWindowMs: duration('min-window'),
    maxWindowMs: duration('max-window'),
    profileLabels: args['profile-labels'].split(',').map((s) => s.trim()).filter(Boolean),
    concurrency: count('concurrency'),
    workers: count('workers'),
    queueMax: count('queue'),
    deliverWithinMs: duration('deliver-within'),
    renderTimeoutMs: duration('render-timeout'),
    fetchTimeoutMs: duration('fetch-timeout'),
    decodeTimeoutMs: duration('decode-timeout'),
    giveUpMs: duration('give-up-after'),
  });
} catch (e) {
  fail(e.message, 1);
}
const graceMs = duration('shutdown-grace');
keepDiskBounded([imagesDir, outDir], duration('retention'), log);
const server = createWebhookServer({ notifier, token, log });
server.on('error', (e) => fail(`listen on ${args.listen}: ${e.message}`, 1));
server.listen(Number(port), host, () => {
  log(`listening on http://${args.listen}/webhook; profiles from ${args.profiles}; ${args.prometheus ? `series from ${args.prometheus}` : 'no --prometheus: approximate windows'}; messages to ${[outDir, slackUrl && redactUrl(slackUrl)].filter(Boolean).join(' and ')}${token ? '; bearer token required' : ''}${notifier.resumed ? `; resumed ${notifier.resumed} alert(s) from the journal` : ''}`);
  if (!token && !/^(127\.|localhost$|\[?::1\]?$)/.test(host)) {
    log(`WARNING: listening on ${host} without a bearer token: anyone who reaches it can post alerts (--token-file)`);
  }
});

// SIGTERM (a deploy, Kubernetes): stop taking webhooks (503: Alertmanager sends them again to the
// next process), let the running alerts finish for graceMs, then go. What did not finish is still
// in the journal, so the next start delivers it; each such alert gets a log line.
let stopping = false;
async function shutdown(sig) {
  if (stopping) {
    return;
  }
  stopping = true;
  notifier.stopping = true;
  log(`${sig}: draining ${notifier.running().length} running alert(s) for up to ${graceMs / 1000}s; ${notifier.health().queued} waiting stay in the journal`);
  server.close();
  notifier.stop();
  const drained = await Promise.race([notifier.idle().then(() => true), new Promise((r) => setTimeout(() => r(false), graceMs).unref())]);
  for (const job of notifier.running()) {
    log(`${job.alert.labels?.alertname ?? 'alert'} ${job.key} ${job.status}: interrupted by ${sig}, kept in the journal: resumes at the next start`);
  }
  // after the drain, not before: the running alerts' renders need the warm browser. close()
  // kills it when it does not close in time (bounded); the exit would kill it anyway
  // (Playwright's exit handler), but not remove its folder
  await notifier.close();
  log(`stopped${drained ? '' : ' before every running alert finished'}`);
  stopRenders();
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => shutdown(sig));
}
process.on('exit', stopRenders);
