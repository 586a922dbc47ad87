// Stand-ins for the fault-injection tests: a profile source with fault modes, a Slack with fault
// modes that enforces Slack's block limits, raw HTTP on a socket, and the receiver as a process.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';

import { ROOT } from '@hotpath/headless/env.mjs';
import { fixturePath } from '../../tests/browser/lib/frames.mjs';
import { checkSlackLimits } from '../lib/slack-limits.mjs';
import { listen, readJSON, waitFor } from './helpers.mjs';
import { selectMergeRequest } from './select-request.mjs';

const gzipAsync = promisify(gzip);
const bombs = new Map(); // bytes -> the gzip's promise

/**
 * A gzip that inflates to `bytes` zero bytes, made once per size, off the event loop the stand-ins
 * share with the receiver under test (256 MiB take seconds on a busy machine). Await it before
 * the receiver asks, so that making it does not count against the receiver's fetch timeout.
 */
export function gzipBomb(bytes) {
  if (!bombs.has(bytes)) {
    bombs.set(bytes, gzipAsync(Buffer.alloc(bytes), { level: 9 }));
  }
  return bombs.get(bytes);
}

export const CAPTURES = {
  incident: gunzipSync(readFileSync(fixturePath('println-incident.cpu.pb.gz'))),
  baseline: gunzipSync(readFileSync(fixturePath('println-baseline.cpu.pb.gz'))),
};

/** Field 4 (end, unix ms) of a SelectMergeProfileRequest. */
const requestEnd = (b) => selectMergeRequest(b).end;

/**
 * A profile source speaking SelectMergeProfile. mode(requestIndex, { end }) -> 'captures' (the println
 * captures: the later window is the incident), 'down' (destroys the socket), 'stall' (headers,
 * then nothing), { bomb: bytes } (a gzip that inflates to that many zero bytes), { delayMs }.
 */
export async function startProfileSource(mode = () => 'captures') {
  let calls = 0;
  const s = await listen(async (req, res) => {
    const body = await readJSON(req);
    const m = mode(calls++, { end: requestEnd(body) });
    if (m === 'stall') {
      res.writeHead(200, { 'content-type': 'application/proto' });
      res.flushHeaders();
      return; // never a body
    }
    if (m?.bomb) {
      const gz = await gzipBomb(m.bomb);
      res.writeHead(200, { 'content-type': 'application/proto' }).end(gz);
      return;
    }
    if (m?.raw) {
      res.writeHead(200, { 'content-type': 'application/proto' }).end(m.raw);
      return;
    }
    if (m?.delayMs) {
      await new Promise((r) => setTimeout(r, m.delayMs));
    }
    // the incident window ends now; the baseline ends where the anomaly began, earlier
    res.writeHead(200, { 'content-type': 'application/proto' }).end(requestEnd(body) > Date.now() - 60_000 ? CAPTURES.incident : CAPTURES.baseline);
  });
  return { ...s, calls: () => calls };
}

/**
 * A Slack-compatible incoming webhook that refuses what Slack refuses (its block limits: 400
 * invalid_blocks) and answers answer(callIndex, message) -> { status, headers?, delayMs? } (200 when undefined).
 */
export async function startSlack(answer = () => undefined) {
  const received = [];
  const refused = [];
  let calls = 0;
  const s = await listen(async (req, res) => {
    const body = await readJSON(req);
    let msg;
    try {
      msg = JSON.parse(body.toString('utf8'));
    } catch {
      res.writeHead(400).end('invalid_payload');
      return;
    }
    const a = answer(calls++, msg) ?? { status: 200 };
    if (a.delayMs) {
      await new Promise((r) => setTimeout(r, a.delayMs));
    }
    const bad = checkSlackLimits(msg);
    if (bad) {
      refused.push({ msg, bad });
      res.writeHead(400).end(bad.split(':')[0]);
      return;
    }
    if (a.status === 200) {
      received.push(msg);
    }
    if (!res.destroyed) {
      res.writeHead(a.status, a.headers ?? {}).end(a.status === 200 ? 'ok' : 'error');
    }
  });
  return { ...s, received, refused, calls: () => calls };
}

/** Sends raw bytes on a socket; resolves with what came back before the server closed (or timeoutMs). */
export function rawRequest(url, text, timeoutMs = 3000) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let got = '';
    const sock = connect(Number(port), hostname, () => sock.write(text));
    const done = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, timeoutMs);
    sock.on('data', (d) => {
      got += d;
      if (/\r\n\r\n/.test(got) && /content-length: 0|\r\n\r\n[\s\S]*\}$/i.test(got)) {
        done();
      }
    });
    sock.on('end', done);
    sock.on('error', done);
  });
}

const receivers = new Set();

// A test that fails midway leaves its receivers running: they (and their Chromium) must not outlive
// the test file, nor keep it from exiting.
after(async () => {
  await Promise.all([...receivers].map((r) => r.stop('SIGTERM').catch(() => {}))); // stop kills the late ones
});

/** hotpath-notify as a process; returns { p, log(), url, stop(signal), exited } */
export function startReceiver(args, env = {}) {
  const p = spawn(process.execPath, [join(ROOT, 'notify', 'hotpath-notify.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let log = '';
  p.stdout.on('data', (d) => (log += d));
  p.stderr.on('data', (d) => (log += d));
  const exited = new Promise((r) => p.on('exit', (code, signal) => r({ code, signal })));
  const r = { p, log: () => log, exited };
  receivers.add(r);
  exited.then(() => receivers.delete(r));
  // generous: a start on a loaded 2-core CI machine, while a killed render is being ended, has taken over 30 s
  r.ready = () =>
    waitFor(() => {
      if (p.exitCode !== null || p.signalCode !== null) {
        throw new Error(`the receiver exited (${p.exitCode ?? p.signalCode}) before it listened\n${log}`);
      }
      return /listening on (http:\/\/\S+)\/webhook/.exec(log)?.[1];
    }, 90_000, 'the receiver to listen');
  // A receiver that does not exit within 60 s of the signal is a failure, not a wait: it is killed
  // and the test told why.
  r.stop = async (signal = 'SIGTERM') => {
    if (p.exitCode === null && p.signalCode === null) {
      p.kill(signal);
    }
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, 60_000, 'late')));
    const how = await Promise.race([exited, late]).finally(() => clearTimeout(timer));
    if (how === 'late') {
      p.kill('SIGKILL');
      await exited;
      throw new Error(`the receiver did not exit within 60s of ${signal}\n${log}`);
    }
    return how;
  };
  return r;
}

/** The JSON lines of a file (none when it does not exist yet). */
export function jsonLines(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
}
