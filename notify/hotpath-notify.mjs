#!/usr/bin/env node
// hotpath-notify: an Alertmanager webhook receiver that attaches the alert's answer: the diff of
// the service's profile in the alert's window against the window before it (a picture and the
// five biggest changes), delivered to a Slack-compatible incoming webhook and/or a directory.
// README.md next to this file explains it; `--help` lists the flags.
import { resolve } from 'node:path';

import { cli } from '../plugin/scripts/headless/cli.mjs';
import { DEFAULTS, Notifier } from './lib/notifier.mjs';
import { stopRenders } from './lib/render.mjs';
import { createWebhookServer } from './lib/server.mjs';

const USAGE = `usage: hotpath-notify --profiles URL [--out-dir DIR] [--slack-webhook URL] [flags]
  --profiles URL        Pyroscope (or the playground's profile-store): its querier API is called
  --listen ADDR         where Alertmanager posts (default 127.0.0.1:9095; POST /webhook)
  --public-url URL      how Slack reaches this receiver, for image links (default http://<listen>)
  --out-dir DIR         write each message to DIR/<alert>/ and DIR/messages.jsonl
  --slack-webhook URL   POST each message to this Slack-compatible incoming webhook
  --images-dir DIR      where pictures are kept (default: --out-dir, else .cache/notify/images)
  --token-file FILE     require "Authorization: Bearer <token>" (or $HOTPATH_NOTIFY_TOKEN)
  --pending DURATION    the alert rules' for: (default 15m: the shipped rule pack)
  --min-window DURATION the shortest incident window (default 5m)
  --max-window DURATION the longest incident window (default 1h)
  --profile-labels L,L  alert labels copied into the profile selector besides job -> service_name
                        (default namespace,instance; '' for none)
  --concurrency N       alerts worked on at once (default 2); --queue N waiting (default 100)
  --render-timeout DURATION  (default 90s); --fetch-timeout DURATION (default 20s)`;

const { args, fail } = cli('hotpath-notify', USAGE, {
  profiles: { type: 'string', default: process.env.HOTPATH_PROFILES_URL },
  listen: { type: 'string', default: '127.0.0.1:9095' },
  'public-url': { type: 'string' },
  'out-dir': { type: 'string' },
  'slack-webhook': { type: 'string' },
  'images-dir': { type: 'string' },
  'token-file': { type: 'string' },
  pending: { type: 'string', default: '15m' },
  'min-window': { type: 'string', default: '5m' },
  'max-window': { type: 'string', default: '1h' },
  'profile-labels': { type: 'string', default: 'namespace,instance' },
  concurrency: { type: 'string', default: String(DEFAULTS.concurrency) },
  queue: { type: 'string', default: String(DEFAULTS.queueMax) },
  'render-timeout': { type: 'string', default: '90s' },
  'fetch-timeout': { type: 'string', default: '20s' },
});

/** 90s, 5m, 1h, 1500ms, and Go's 2m0s or 1h30m -> ms */
function duration(name) {
  const v = args[name] ?? '';
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== v) {
    fail(`--${name} ${v}: want a duration such as 90s, 5m, 1h or 1h30m`);
  }
  return parts.reduce((ms, p) => ms + Number(p[1]) * { ms: 1, s: 1000, m: 60_000, h: 3600_000 }[p[2]], 0);
}
function count(name) {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) {
    fail(`--${name} ${args[name]}: want a whole number >= 1`);
  }
  return n;
}

if (!args.profiles || !/^https?:\/\//.test(args.profiles)) {
  fail('--profiles URL is required (Pyroscope, or the playground profile-store: http://127.0.0.1:9190)');
}
if (!args['out-dir'] && !args['slack-webhook']) {
  fail('say where messages go: --out-dir DIR and/or --slack-webhook URL');
}
const [host, port] = args.listen.split(/:(?=\d+$)/);
if (!host || !port) {
  fail(`--listen ${args.listen}: want HOST:PORT, e.g. 127.0.0.1:9095`);
}
let token = process.env.HOTPATH_NOTIFY_TOKEN;
if (args['token-file']) {
  const { readFileSync } = await import('node:fs');
  token = readFileSync(args['token-file'], 'utf8').trim();
}
const cwd = process.env.INIT_CWD || process.cwd();
const outDir = args['out-dir'] && resolve(cwd, args['out-dir']);
const notifier = new Notifier({
  profilesUrl: args.profiles,
  outDir,
  slackUrl: args['slack-webhook'],
  publicUrl: args['public-url'] ?? `http://${args.listen}`,
  imagesDir: args['images-dir'] ? resolve(cwd, args['images-dir']) : (outDir ?? resolve(cwd, '.cache/notify/images')),
  pendingMs: duration('pending'),
  minWindowMs: duration('min-window'),
  maxWindowMs: duration('max-window'),
  profileLabels: args['profile-labels'].split(',').map((s) => s.trim()).filter(Boolean),
  concurrency: count('concurrency'),
  queueMax: count('queue'),
  renderTimeoutMs: duration('render-timeout'),
  fetchTimeoutMs: duration('fetch-timeout'),
});
const server = createWebhookServer({ notifier, token, log: notifier.log });
server.on('error', (e) => fail(`listen on ${args.listen}: ${e.message}`, 1));
server.listen(Number(port), host, () => {
  notifier.log(`listening on http://${args.listen}/webhook; profiles from ${args.profiles}; messages to ${[outDir, args['slack-webhook']].filter(Boolean).join(' and ')}${token ? '; bearer token required' : ''}`);
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    server.close();
    stopRenders();
    process.exit(0);
  });
}
process.on('exit', stopRenders);
