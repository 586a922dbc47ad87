// The Pyroscope client's reads: LabelValues against stand-ins that answer too much, too slowly or
// wrongly. Every answer is read as it streams in and cancelled at its bound, so a source that
// sends gigabytes costs the receiver the bound, not the gigabytes (SelectMergeProfile goes the
// same way: its faults are in faults.test.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { LABEL_VALUES, labelValues, SourceError } from '../lib/pyroscope.mjs';
import { listen, readJSON } from './helpers.mjs';

const window = { name: 'service_name', start: 1_700_000_000_000, end: 1_700_000_060_000 };

/** A LabelValues stand-in: answer(req, res, body) writes the answer; returns { url, close, requests }. */
async function source(answer) {
  const requests = [];
  const s = await listen(async (req, res) => {
    const body = await readJSON(req);
    requests.push({ url: req.url, headers: req.headers, body: JSON.parse(body.toString('utf8')) });
    answer(req, res);
  });
  return { ...s, requests };
}

/**
 * Streams `{"names":["svc-0","svc-1",...` in 64 KiB chunks until the client goes away or `limit`
 * bytes are written; resolves with the bytes written once it stopped.
 */
function endlessNames(res, { limit = 256 << 20, status = 200, headers = {} } = {}) {
  return new Promise((resolve) => {
    let written = 0;
    let i = 0;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    const chunk = () => {
      let s = written === 0 ? '{"names":[' : '';
      while (s.length < 64 << 10) {
        s += `"svc-${i++}",`;
      }
      return s;
    };
    const write = () => {
      while (!res.destroyed && written < limit) {
        const c = chunk();
        written += c.length;
        if (!res.write(c)) {
          res.once('drain', write);
          return;
        }
      }
      resolve(written);
    };
    res.on('close', () => resolve(written));
    write();
  });
}

describe('labelValues', () => {
  it('asks with the JSON codec and answers the names sorted, each once', async () => {
    const s = await source((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ names: ['checkout', 'api', 'checkout', 'cache'] })));
    try {
      assert.deepEqual(await labelValues(s.url, window), ['api', 'cache', 'checkout']);
      const [r] = s.requests;
      assert.equal(r.url, LABEL_VALUES);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['connect-protocol-version'], '1');
      assert.deepEqual(r.body, { name: 'service_name', matchers: [], start: '1700000000000', end: '1700000060000' });
    } finally {
      await s.close();
    }
  });

  it('a huge answer: cancelled at its bound as it streams in, never read whole', async () => {
    let written;
    const s = await source((req, res) => (written = endlessNames(res)));
    try {
      const t0 = Date.now();
      await assert.rejects(labelValues(s.url, window, { maxBytes: 1 << 20 }), (e) => e instanceof SourceError && e.message === 'LabelValues answer exceeds the 1048576-byte limit');
      const sent = await written;
      // the server stops when the client goes away: what it wrote is the bound and what the
      // socket buffers held, not the 256 MiB it would have sent
      assert.ok(sent < 16 << 20, `the source wrote ${sent} bytes before the client went away`);
      assert.ok(Date.now() - t0 < 10_000, 'refused at once');
    } finally {
      await s.close();
    }
  });

  it('an answer that declares a huge length: refused before its body is read', async () => {
    let written;
    const s = await source((req, res) => (written = endlessNames(res, { limit: 1 << 30, headers: { 'content-length': String(1 << 30) } })));
    try {
      await assert.rejects(labelValues(s.url, window, { maxBytes: 1 << 20 }), { message: 'LabelValues answer exceeds the 1048576-byte limit' });
      assert.ok((await written) < 16 << 20, 'the body was cancelled, not read');
    } finally {
      await s.close();
    }
  });

  it('a slow answer: headers at once, then a byte a second, ends at the timeout', async () => {
    let timer;
    const s = await source((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const t0 = Date.now();
      await assert.rejects(labelValues(s.url, window, { timeoutMs: 1500 }), (e) => e instanceof SourceError && /^profile source http:\/\/127\.0\.0\.1:\d+ unreachable: no answer within 1\.5s$/.test(e.message));
      const took = Date.now() - t0;
      assert.ok(took >= 1400 && took < 10_000, `the timeout covers the body: ${took} ms`);
    } finally {
      clearInterval(timer);
      await s.close();
    }
  });

  it('an error answer in one line: a Connect error by its code and message, a proxy page by its start', async () => {
    const answers = [
      [503, '{"code":"unavailable","message":"store is down"}', 'profile source answered 503 to LabelValues: unavailable: store is down'],
      [502, '<html>\n<body>Bad   gateway</body></html>', 'profile source answered 502 to LabelValues: <html> <body>Bad gateway</body></html>'],
    ];
    for (const [status, body, message] of answers) {
      const s = await source((req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end(body));
      try {
        await assert.rejects(labelValues(s.url, window), { message });
      } finally {
        await s.close();
      }
    }
  });

  it('an error answer of a huge page: its start is quoted, the rest never read', async () => {
    let written;
    const s = await source((req, res) => (written = endlessNames(res, { status: 500 })));
    try {
      await assert.rejects(labelValues(s.url, window), (e) => e.message.startsWith('profile source answered 500 to LabelValues: {"names":["svc-0","svc-1",') && e.message.length < 400);
      assert.ok((await written) < 16 << 20, 'the error page was cancelled after its start');
    } finally {
      await s.close();
    }
  });

  it('an answer that is not a list of names', async () => {
    for (const [body, message] of [
      ['hello', /^profile source answered LabelValues with something that is not JSON: hello$/],
      ['{"names":[1,2]}', /^profile source answered LabelValues without a list of names$/],
    ]) {
      const s = await source((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
      try {
        await assert.rejects(labelValues(s.url, window), { message });
      } finally {
        await s.close();
      }
    }
  });
});
