// Fault injection on the receiver in one process: hostile request lines and bodies, a profile
// source that bombs, stalls or is down, a Slack that throttles, fails, refuses or is slow, odd
// alerts. Each case asserts what on-call depends on: the receiver stays up, every accepted alert
// gets exactly one message (none lost, none twice) and a log line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

import { createWebhookServer } from '../lib/server.mjs';
import { alert, downUrl, post, startNotifier, waitFor, webhook } from './helpers.mjs';
import { gzipBomb, jsonLines, rawRequest, startProfileSource, startSlack } from './standins.mjs';

const messages = (n) => jsonLines(join(n.notifier.cfg.outDir, 'messages.jsonl'));
const delivered = (n, count) => waitFor(() => messages(n).length >= count && messages(n), 60_000, `${count} message(s)`);
const healthy = async (n) => (await fetch(`${n.url}/-/healthy`)).status === 200;
/** Exactly one message per (key, status), and a log line for each alert. */
function assertOncePerAlert(n, want) {
  const m = messages(n);
  const ids = m.map((x) => `${x.key}:${x.status}`);
  assert.equal(new Set(ids).size, ids.length, `no message twice: ${ids.join(' ')}`);
  assert.equal(m.length, want, 'every accepted alert has its message');
  for (const x of m) {
    const fp = x.key.split('-')[0];
    assert.ok(n.logs.some((l) => l.includes(x.labels.job ?? fp) && l.includes(` ${x.status}: `)), `a log line for ${x.key}\n${n.logs.join('\n')}`);
  }
}

describe('hostile requests', () => {
  it('a malformed request line is a 400, not the end of the receiver and its queued alerts', async () => {
    const src = await startProfileSource(() => ({ delayMs: 1500 })); // keeps the alert in flight
    const n = await startNotifier({ profilesUrl: src.url, renderTimeoutMs: 5 });
    try {
      assert.equal((await post(n.url, webhook([alert({ fingerprint: 'f1' })]))).status, 200);
      for (const line of ['GET //[ HTTP/1.1', 'GET http://[/ HTTP/1.1', 'GET http://a:99999/ HTTP/1.1', 'POST //%zz/webhook HTTP/1.1']) {
        const got = await rawRequest(n.url, `${line}\r\nhost: x\r\ncontent-length: 0\r\n\r\n`);
        assert.match(got, /^HTTP\/1\.1 4\d\d /, `${line} -> ${got.split('\r\n')[0]}`);
        assert.ok(await healthy(n), `alive after ${line}`);
      }
      assert.match(await rawRequest(n.url, 'GET / HTTP/1.1\r\nbad header\r\n\r\n'), /^HTTP\/1\.1 400 /, 'a header the parser refuses');
      const [m] = await delivered(n, 1);
      assert.equal(m.key.split('-')[0], 'f1', 'the queued alert still went out');
      assertOncePerAlert(n, 1);
    } finally {
      await n.close();
      await src.close();
    }
  });

  it('a chunked body over the limit gets 413, not a connection reset', async () => {
    const n = await startNotifier({ profilesUrl: await downUrl() });
    try {
      const status = await new Promise((resolve, reject) => {
        const req = request(`${n.url}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => resolve(res.statusCode));
        req.on('error', reject);
        const chunk = Buffer.alloc(64 << 10, 0x20);
        let sent = 0;
        const write = () => {
          while (sent < 2 << 20) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', write);
              return;
            }
          }
          req.end();
        };
        write();
      });
      assert.equal(status, 413);
      assert.ok(await healthy(n));
    } finally {
      await n.close();
    }
  });

  it('an empty token is refused, never taken for "no token"', () => {
    for (const token of ['', ' \n']) {
      assert.throws(() => createWebhookServer({ notifier: {}, token }), /the bearer token is empty/);
    }
  });
});

describe('odd alerts', () => {
  it('works on all 300 alerts of one webhook: a message and a log line each, none twice', async () => {
    const slack = await startSlack();
    const n = await startNotifier({ profilesUrl: await downUrl(), slackUrl: slack.url });
    try {
      const alerts = Array.from({ length: 300 }, (_, i) => alert({ fingerprint: (0x1000 + i).toString(16), job: `svc${i}` }));
      const res = await post(n.url, webhook(alerts));
      assert.deepEqual(await res.json(), { accepted: 300, skipped: 0, refused: 0 });
      await delivered(n, 300);
      await n.notifier.idle();
      assertOncePerAlert(n, 300);
      assert.equal(slack.received.length, 300);
      assert.equal(new Set(slack.received.map((m) => m.text.split('\n')[0])).size, 300);
      for (let i = 0; i < 300; i += 37) {
        assert.ok(n.logs.some((l) => l.includes(`job=svc${i} firing: delivered`)), `svc${i}`);
      }
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('a label value that is a deeply nested array: the alert is delivered, the webhook never answers 500', async () => {
    const n = await startNotifier({ profilesUrl: await downUrl() });
    try {
      const nested = '['.repeat(100_000) + ']'.repeat(100_000);
      const body = JSON.stringify(webhook([alert({ fingerprint: 'ab12' })])).replace('"severity":"warning"', `"severity":"warning","deep":${nested}`);
      for (let i = 0; i < 2; i++) {
        const res = await post(n.url, body); // Alertmanager retries the same body
        assert.equal(res.status, 200, await res.text());
      }
      const [m] = await delivered(n, 1);
      assert.equal(m.labels.deep, '(an array, not a label value)');
      await n.notifier.idle();
      assertOncePerAlert(n, 1);
    } finally {
      await n.close();
    }
  });

  it("an alert whose startsAt is the minimum date (Alertmanager's zero time, JavaScript's first day) still gets its message and log line", async () => {
    const src = await startProfileSource();
    const n = await startNotifier({ profilesUrl: src.url, renderTimeoutMs: 5 });
    try {
      const alerts = [alert({ fingerprint: 'cd34', startsAt: '0001-01-01T00:00:00Z' }), alert({ fingerprint: 'cd35', job: 'web', startsAt: new Date(-8.64e15).toISOString() })];
      assert.deepEqual(await (await post(n.url, webhook(alerts))).json(), { accepted: 2, skipped: 0, refused: 0 });
      const m = await delivered(n, 2);
      await n.notifier.idle();
      assert.deepEqual(m.map((x) => x.status), ['firing', 'firing']);
      assert.ok(m.every((x) => /FIRING CPUPerRequestRegression job=(api|web)/.test(x.payload.text)));
      assert.ok(m.every((x) => x.reason || /^No picture: render timed out/.test(x.note)), 'each says why it has no diff or no picture');
      assertOncePerAlert(n, 2);
    } finally {
      await n.close();
      await src.close();
    }
  });

  it("a resolve never overtakes its firing: Slack gets FIRING then RESOLVED; message.json ends resolved", async () => {
    const slack = await startSlack();
    const src = await startProfileSource(() => ({ delayMs: 1500 })); // the firing message takes a while
    const n = await startNotifier({ profilesUrl: src.url, slackUrl: slack.url, renderTimeoutMs: 5 });
    try {
      await post(n.url, webhook([alert({ fingerprint: 'ee01' })]));
      await post(n.url, webhook([alert({ fingerprint: 'ee01', status: 'resolved' })]));
      await delivered(n, 2);
      await n.notifier.idle();
      assert.deepEqual(slack.received.map((m) => m.text.split(' ')[1]), ['FIRING', 'RESOLVED']);
      assert.deepEqual(messages(n).map((m) => m.status), ['firing', 'resolved']);
      assert.equal(JSON.parse(readFileSync(join(n.notifier.cfg.outDir, messages(n)[0].key, 'message.json'), 'utf8')).status, 'resolved');
    } finally {
      await n.close();
      await src.close();
      await slack.close();
    }
  });
});

/**
 * A valid pprof of n identical samples of one function, gzipped: a few hundred KiB that decode
 * into millions of samples (n = 10 million stays under the 64 MiB a profile may inflate to).
 */
function sampleBomb(n) {
  const head = Buffer.from([0x0a, 0x04, 0x08, 0x01, 0x10, 0x02]); // sample_type { type: 1, unit: 2 }
  const sample = Buffer.from([0x12, 0x04, 0x08, 0x01, 0x10, 0x01]); // sample { location_id: 1, value: 1 }
  const location = Buffer.from([0x22, 0x06, 0x08, 0x01, 0x22, 0x02, 0x08, 0x01]); // location { id: 1, line { function_id: 1 } }
  const fn = Buffer.from([0x2a, 0x04, 0x08, 0x01, 0x10, 0x03]); // function { id: 1, name: 3 }
  const strings = Buffer.from([0x32, 0x00, 0x32, 0x03, ...Buffer.from('cpu'), 0x32, 0x0b, ...Buffer.from('nanoseconds'), 0x32, 0x04, ...Buffer.from('main')]);
  return gzipSync(Buffer.concat([head, Buffer.alloc(sample.length * n).fill(sample), location, fn, strings]));
}

describe('a hostile profile source', () => {
  /**
   * Polls /-/healthy until stop() resolves; returns { worst (the slowest answer in ms), missed
   * (the polls that got no 200, each saying why) }. A poll waits at most ANSWER_MS: past that,
   * the answer never came. An event loop busy decoding would miss it by seconds; a machine
   * busy with other work slows an answer by up to a second.
   */
  const ANSWER_MS = 3000;
  /**
   * One GET on a connection of its own, as Kubernetes probes: a kept-alive connection that the
   * server's idle timeout ends just as the next poll goes out would be the client's race, not the
   * receiver's. Resolves with the status, or with why none came.
   */
  function probe(url, timeoutMs) {
    return new Promise((resolve) => {
      const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (e) => resolve(`${e.message}${e.code ? ` (${e.code})` : ''}`));
      req.end();
    });
  }
  function watchHealth(n) {
    let worst = 0;
    const missed = [];
    let on = true;
    const loop = (async () => {
      while (on) {
        const t = Date.now();
        const status = await probe(`${n.url}/-/healthy`, ANSWER_MS);
        if (status !== 200) {
          missed.push(status);
        }
        worst = Math.max(worst, Date.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    return async () => {
      on = false;
      await loop;
      return { worst, missed };
    };
  }

  for (const [name, answer, cfg, reason] of [
    // the size bound ends it, not the time bound: inflating 64 MiB can take 20 s on a busy machine
    ['a gzip bomb (256 MiB of zeros)', { bomb: 256 << 20 }, { decodeTimeoutMs: 120_000 }, /^profile source answered something unusable: the profile is [\d.]+ MiB decompressed \(and more\), above the 64 MiB hotpath reads/],
    // a bound far below what 10 million samples take to decode on any machine, so the bound is what ends it
    ['a pprof of 10 million samples (decoding outlasts its bound)', { raw: sampleBomb(10_000_000) }, { decodeTimeoutMs: 100 }, /^profile source answered something unusable: decoding (took longer than 0\.1s|needed more than)/],
    ['a source that stalls after its headers', 'stall', { fetchTimeoutMs: 1000 }, /^profile source http:\/\/127\.0\.0\.1:\d+ unreachable: no answer within 1s$/],
  ]) {
    it(`${name}: a one-line reason, and /-/healthy answers throughout`, async () => {
      if (answer.bomb) {
        await gzipBomb(answer.bomb);
      }
      const src = await startProfileSource(() => answer);
      const n = await startNotifier({ profilesUrl: src.url, ...cfg });
      try {
        const stop = watchHealth(n);
        await post(n.url, webhook([alert({ fingerprint: 'b0' })]));
        const [m] = await delivered(n, 1);
        const { worst, missed } = await stop();
        assert.match(m.reason, reason);
        assert.deepEqual(missed, [], `every poll of /-/healthy answered within ${ANSWER_MS} ms (the slowest answer took ${worst} ms)`);
        assertOncePerAlert(n, 1);
      } finally {
        await n.close();
        src.server.closeAllConnections();
        await src.close();
      }
    });
  }
});
