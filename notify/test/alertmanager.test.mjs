// Integration: the real Alertmanager (the pinned .tools/bin/alertmanager, `make tools`) routes
// alerts to hotpath-notify (the CLI, as a subprocess) with a bearer token; the profile source is
// stopped. The message still arrives at the Slack-compatible sink (notify/slack-sink.mjs), once,
// with the reason; Alertmanager's repeats are skipped; the resolve is an update.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';
import { downUrl, waitFor } from './helpers.mjs';

const ALERTMANAGER = join(ROOT, '.tools', 'bin', 'alertmanager');
const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-am-'));
const procs = [];

function start(name, cmd, args) {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  p.stdout.on('data', (d) => (log += d));
  p.stderr.on('data', (d) => (log += d));
  procs.push(p);
  return { p, log: () => log, name };
}

/** SIGTERM, and SIGKILL after 10 s; resolves when the process has exited. */
function stop(p) {
  if (p.exitCode !== null || p.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const kill = setTimeout(() => p.kill('SIGKILL'), 10_000);
    p.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    p.kill('SIGTERM');
  });
}

// Every port is handed out before its server listens, and the kernel readily gives the port
// it just freed to the next caller: remember them, so no two servers (nor the stopped profile
// source) share one.
const handedOut = new Set();
async function freePort() {
  for (let i = 0; i < 100; i++) {
    const port = Number(new URL(await downUrl()).port);
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port: 100 tries found only ports handed out before');
}

const sinkLines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

describe('hotpath-notify behind the real Alertmanager', () => {
  let am;
  let notify;
  let amUrl;
  const sinkFile = join(dir, 'slack.jsonl');

  before(async () => {
    assert.ok(existsSync(ALERTMANAGER), `${ALERTMANAGER} is missing: run make tools`);
    const [amPort, notifyPort, sinkPort] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(join(dir, 'token'), 'integration-token\n');
    writeFileSync(
      join(dir, 'alertmanager.yml'),
      `route:
  receiver: hotpath-notify
  group_by: [alertname, job]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 3s
receivers:
  - name: hotpath-notify
    webhook_configs:
      - url: http://127.0.0.1:${notifyPort}/webhook
        send_resolved: true
        http_config:
          authorization:
            credentials_file: ${join(dir, 'token')}
`
    );
    start('sink', process.execPath, [join(ROOT, 'notify', 'slack-sink.mjs'), '--listen', `127.0.0.1:${sinkPort}`, '--out', sinkFile]);
    notify = start('hotpath-notify', process.execPath, [
      join(ROOT, 'notify', 'hotpath-notify.mjs'), '--listen', `127.0.0.1:${notifyPort}`, '--profiles', `http://127.0.0.1:${await freePort()}`,
      '--out-dir', join(dir, 'out'), '--slack-webhook', `http://127.0.0.1:${sinkPort}/`, '--token-file', join(dir, 'token'),
    ]);
    am = start('alertmanager', ALERTMANAGER, [
      `--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'am')}`,
      `--web.listen-address=127.0.0.1:${amPort}`, '--cluster.listen-address=', '--log.level=info',
    ]);
    amUrl = `http://127.0.0.1:${amPort}`;
    await waitFor(async () => (await fetch(`${amUrl}/-/ready`).catch(() => ({ ok: false }))).ok, 30_000, `Alertmanager ready\n${am.log()}`);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${notifyPort}/-/healthy`).catch(() => ({ ok: false }))).ok, 10_000, 'hotpath-notify up');
  });

  // Wait for the processes to exit before removing their directory: Alertmanager writes its
  // state there as it shuts down (CI once saw ENOTEMPTY when the removal ran first).
  after(async () => {
    await Promise.all(procs.map(stop));
    rmSync(dir, { recursive: true, force: true });
  });

  const postAlert = (extra) =>
    fetch(`${amUrl}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'CPUPerRequestRegression', job: 'api', severity: 'warning' }, annotations: { summary: 'A service uses more CPU than its own cost model predicts.' }, startsAt: new Date(Date.now() - 60_000).toISOString(), generatorURL: 'http://127.0.0.1:9090/graph', ...extra }]),
    });

  it('delivers one message with the reason, skips the repeats, updates on resolve', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    assert.equal((await postAlert({ startsAt })).status, 200);
    const [first] = await waitFor(() => sinkLines(sinkFile).length >= 1 && sinkLines(sinkFile), 30_000, `a message\n${notify.log()}\n${am.log()}`);
    assert.match(first.message.text, /FIRING CPUPerRequestRegression job=api/);
    assert.match(first.message.text, /\*No profile diff:\* profile source http:\/\/127\.0\.0\.1:\d+ unreachable: ECONNREFUSED/);
    // Alertmanager re-sends the firing group every repeat_interval (3s): wait for two repeats
    await waitFor(() => (notify.log().match(/firing: skipped \(already announced\)/g) ?? []).length >= 2, 30_000, `repeats\n${notify.log()}`);
    assert.equal(sinkLines(sinkFile).length, 1, 'no duplicate message');
    assert.equal((await postAlert({ startsAt, endsAt: new Date().toISOString() })).status, 200);
    const lines = await waitFor(() => sinkLines(sinkFile).length >= 2 && sinkLines(sinkFile), 30_000, `the resolve\n${notify.log()}`);
    assert.match(lines[1].message.text, /RESOLVED CPUPerRequestRegression job=api/);
    assert.match(notify.log(), /CPUPerRequestRegression job=api firing: delivered in [\d.]+s, no diff: profile source/);
    const record = JSON.parse(readFileSync(join(dir, 'out', 'messages.jsonl'), 'utf8').split('\n')[0]);
    assert.equal(record.labels.job, 'api');
    assert.match(record.key, /^[0-9a-f]{16}-\d+$/, "keyed by Alertmanager's fingerprint");
  });

  it('Alertmanager without the token is refused', async () => {
    const port = new URL(notify.log().match(/listening on (http:\/\/[^/]+)/)[1]).port;
    const res = await fetch(`http://127.0.0.1:${port}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"alerts":[]}' });
    assert.equal(res.status, 401);
  });
});
