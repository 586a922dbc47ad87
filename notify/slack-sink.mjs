#!/usr/bin/env node
// A local Slack-compatible incoming webhook for the playground and the tests: it accepts what
// Slack's incoming webhooks accept (POST, a JSON body with text and/or blocks, within Slack's block
// limits), answers "ok" as Slack does (400 and Slack's error name otherwise), and appends each
// message to a JSON-lines file with the time it arrived.
//
//   node notify/slack-sink.mjs --listen 127.0.0.1:9096 --out .cache/demo/slack.jsonl
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, resolve } from 'node:path';

import { cli } from '@hotpath/headless/cli.mjs';
import { checkSlackLimits } from './lib/slack-limits.mjs';

const USAGE = 'usage: node notify/slack-sink.mjs --out FILE.jsonl [--listen 127.0.0.1:9096]';
const { args, fail } = cli('slack-sink', USAGE, { listen: { type: 'string', default: '127.0.0.1:9096' }, out: { type: 'string' } });
if (!args.out) {
  fail('--out is required');
}
const out = resolve(process.env.INIT_CWD || process.cwd(), args.out);
mkdirSync(dirname(out), { recursive: true });
const MAX = 1 << 20;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`slack-sink: POST a message; they go to ${out}\n`);
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end('use POST');
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size <= MAX) {
      chunks.push(c);
    }
  });
  req.on('end', () => {
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      msg = undefined;
    }
    if (size > MAX || !msg || (typeof msg.text !== 'string' && !Array.isArray(msg.blocks))) {
      res.writeHead(400).end('invalid_payload'); // Slack's answer to a malformed message
      return;
    }
    const bad = checkSlackLimits(msg);
    if (bad) {
      process.stderr.write(`slack-sink: refused (${bad})\n`);
      res.writeHead(400).end(bad.split(':')[0]); // invalid_blocks, msg_too_long: as Slack answers
      return;
    }
    appendFileSync(out, JSON.stringify({ receivedAt: new Date().toISOString(), message: msg }) + '\n');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});
const [host, port] = args.listen.split(/:(?=\d+$)/);
server.on('error', (e) => fail(`listen on ${args.listen}: ${e.message}`, 1));
server.listen(Number(port), host, () => process.stderr.write(`slack-sink: http://${args.listen}/ -> ${out}\n`));
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => process.exit(0));
}
