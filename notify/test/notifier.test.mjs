// The receiver end to end in one process: Alertmanager-shaped webhooks in, messages out to a
// Slack-compatible sink and a directory. The profile source is a stand-in speaking Pyroscope's
// SelectMergeProfile (the committed captures of tests/fixtures, or an empty profile, or an error);
// the picture comes from the real snapshot CLI (the built panel in Chromium).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';

import { requirePlugin } from '@hotpath/headless/env.mjs';
import { fixturePath } from '../../tests/browser/lib/frames.mjs';
import { Notifier } from '../lib/notifier.mjs';
import { SELECT_MERGE_PROFILE } from '../lib/pyroscope.mjs';
import { alert, downUrl, listen, post, readJSON, startNotifier, startSink, waitFor, webhook } from './helpers.mjs';

const { Profile, StringTable, ValueType } = requirePlugin('pprof-format');

/** Reads field 2 (label_selector) and 3, 4 (start, end) of the request, enough to route it. */
function decodeRequest(b) {
  const out = {};
  let i = 0;
  const varint = () => {
    let v = 0n;
    let s = 0n;
    for (;;) {
      const x = b[i++];
      v |= BigInt(x & 0x7f) << s;
      s += 7n;
      if (x < 0x80) {
        return v;
      }
    }
  };
  while (i < b.length) {
    const tag = Number(varint());
    if ((tag & 7) === 2) {
      const n = Number(varint());
      out[tag >> 3] = b.subarray(i, i + n).toString('utf8');
      i += n;
    } else {
      out[tag >> 3] = Number(varint());
    }
  }
  return { selector: out[2], start: out[3], end: out[4] };
}

function emptyProfile() {
  const st = new StringTable();
  return new Profile({ sampleType: [new ValueType({ type: st.dedup('cpu'), unit: st.dedup('nanoseconds') })], stringTable: st }).encode();
}

/** answer(req) -> 'incident' | 'baseline' | 'empty' | { status, code, message } */
async function startPyroscope(answer) {
  const seen = [];
  const s = await listen(async (req, res) => {
    const r = decodeRequest(await readJSON(req));
    seen.push({ path: req.url, contentType: req.headers['content-type'], ...r });
    const a = req.url === SELECT_MERGE_PROFILE ? answer(r) : { status: 404, code: 'not_found', message: req.url };
    if (typeof a === 'object') {
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: a.code, message: a.message }));
      return;
    }
    const body = a === 'empty' ? emptyProfile() : gunzipSync(readFileSync(fixturePath(`println-${a}.cpu.pb.gz`)));
    res.writeHead(200, { 'content-type': 'application/proto' }).end(body);
  });
  return { ...s, seen };
}

const messages = (n) => readFileSync(join(n.notifier.cfg.outDir, 'messages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const delivered = (n, count = 1) => waitFor(() => { try { const m = messages(n); return m.length >= count && m; } catch { return false; } }, 120_000, `${count} message(s)`);

describe('hotpath-notify', () => {
  let sink;
  let pyro;
  before(async () => {
    sink = await startSink();
    // the later window is the incident: the stand-in answers the println captures by time
    pyro = await startPyroscope((r) => (r.end > Date.now() - 60_000 ? 'incident' : 'baseline'));
  });
  after(async () => {
    await sink.close();
    await pyro.close();
  });

  it('announces a firing alert with its diff: top changes, picture, dashboard link; once', async () => {
    const n = await startNotifier({ profilesUrl: pyro.url, slackUrl: sink.url });
    try {
      const hook = webhook([alert()]);
      const t = Date.now();
      const res = await post(n.url, hook);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { accepted: 1, skipped: 0, refused: 0 });
      assert.ok(Date.now() - t < 1000, 'the webhook is answered before the work is done');
      const [m] = await delivered(n);
      assert.equal(m.status, 'firing');
      assert.equal(m.reason, undefined, m.reason);
      assert.equal(m.changes[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
      assert.ok(m.changes[0].deltaPercent > 10);
      assert.equal(m.changes.length, 5);
      assert.ok(m.latencyMs > 0 && m.latencyMs < 120_000);
      // the profile source was asked by the alert's labels, for both windows, in Pyroscope's shape
      const q = pyro.seen.slice(-2);
      assert.deepEqual(q.map((x) => [x.path, x.contentType, x.selector]), [[SELECT_MERGE_PROFILE, 'application/proto', '{service_name="api"}'], [SELECT_MERGE_PROFILE, 'application/proto', '{service_name="api"}']]);
      const [inc, base] = q[0].end > q[1].end ? q : [q[1], q[0]];
      assert.equal(base.end - base.start, inc.end - inc.start, 'the baseline is as long as the incident window');
      assert.ok(base.end <= inc.start, 'and before it');
      // the Slack sink got the same message; its picture is served at the stable URL
      await waitFor(() => sink.received.length >= 1, 5000, 'the sink');
      const s = sink.received.at(-1);
      assert.match(s.blocks[1].text.text, /1\. `google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString` \+/);
      const img = s.blocks.find((b) => b.type === 'image');
      assert.equal(img.image_url, `${n.url}/images/${m.key}.png`);
      const png = Buffer.from(await (await fetch(img.image_url)).arrayBuffer());
      assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      assert.match(s.blocks.at(-1).elements[0].text, /<http:\/\/localhost:3000\/d\/hotpath-service\?var-job=api\|dashboard>/);
      // Alertmanager repeats the group: no second message; the resolve is one update
      assert.deepEqual(await (await post(n.url, hook)).json(), { accepted: 0, skipped: 1, refused: 0 });
      await post(n.url, webhook([alert({ status: 'resolved' })]));
      const all = await delivered(n, 2);
      assert.deepEqual(all.map((x) => x.status), ['firing', 'resolved']);
      assert.equal(all[1].key, m.key);
      assert.match(all[1].payload.text, /RESOLVED CPUPerRequestRegression job=api/);
      assert.equal(JSON.parse(readFileSync(join(n.notifier.cfg.outDir, m.key, 'message.json'), 'utf8')).status, 'resolved', 'the alert\'s file is updated');
      assert.ok(n.logs.some((l) => /CPUPerRequestRegression job=api firing: delivered in .*top change google\.golang\.org/.test(l)), n.logs.join('\n'));
    } finally {
      await n.close();
    }
  });

  it('compares an outlier instance with its siblings over the same window (the panel\'s siblings baseline)', async () => {
    // the stand-in answers the instance with the incident capture and its siblings with the baseline's
    const src = await startPyroscope((r) => (r.selector.includes('instance!=') ? 'baseline' : 'incident'));
    const n = await startNotifier({ profilesUrl: src.url, slackUrl: sink.url });
    try {
      await post(n.url, webhook([alert({ alertname: 'CPUPerRequestOutlier', fingerprint: 'o1', labels: { instance: 'i1' } })]));
      const [m] = await delivered(n);
      assert.equal(m.reason, undefined, m.reason);
      const q = src.seen.filter((x) => x.path === SELECT_MERGE_PROFILE);
      assert.deepEqual(q.map((x) => x.selector).sort(), ['{service_name="api", instance!="i1"}', '{service_name="api", instance="i1"}']);
      assert.deepEqual([q[0].start, q[0].end], [q[1].start, q[1].end], 'the same window on both sides');
      assert.deepEqual([m.windows.baseline.from, m.windows.baseline.to], [m.windows.incident.from, m.windows.incident.to]);
      assert.equal(m.changes[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
      assert.match(m.payload.blocks[1].text.text + m.payload.text + JSON.stringify(m.payload), /the other instances of the service over the same window/);
    } finally {
      await n.close();
      await src.close();
    }
  });

  for (const [name, cfg, a, reason] of [
    ['the profile source is down', { profilesUrl: 'down' }, alert(), /^profile source http:\/\/127\.0\.0\.1:\d+ unreachable: ECONNREFUSED$/],
    ['the window has no samples', {}, alert({ fingerprint: 'e1' }), /^no cpu samples for \{service_name="api"\} in the (incident|baseline) window \(/],
    ['the source answers an error', {}, alert({ fingerprint: 'e2', job: 'err' }), /^profile source answered 400: invalid_argument: label_selector: bad$/],
    ['the alert is about throttling', {}, alert({ alertname: 'CPUThrottlingSustained', job: '', labels: { namespace: 'ns', pod: 'p', container: 'c' } }), /^no profile for this alert: throttling/],
  ]) {
    it(`still sends the message, with a one-line reason, when ${name}`, async () => {
      const src = await startPyroscope((r) => (r.selector.includes('err') ? { status: 400, code: 'invalid_argument', message: 'label_selector: bad' } : name.includes('no samples') ? 'empty' : 'incident'));
      const n = await startNotifier({ profilesUrl: src.url, slackUrl: sink.url, ...cfg, ...(cfg.profilesUrl ? { profilesUrl: await downUrl() } : {}) });
      try {
        await post(n.url, webhook([a]));
        const [m] = await delivered(n);
        assert.match(m.reason, reason);
        assert.equal(m.imageUrl, undefined);
        assert.match(m.payload.blocks[1].text.text, /\*No profile diff:\* /);
        assert.ok(!m.payload.blocks.some((b) => b.type === 'image'));
        assert.ok(n.logs.some((l) => l.includes('delivered') && l.includes('no diff:')), n.logs.join('\n'));
      } finally {
        await n.close();
        await src.close();
      }
    });
  }
});

describe('a render that fails', () => {
  for (const renderer of ['warm', 'cli']) {
    it(`(${renderer}) still sends the answer as text, saying there is no picture and why`, async () => {
      const sink = await startSink();
      const src = await startPyroscope((r) => (r.end > Date.now() - 60_000 ? 'incident' : 'baseline'));
      const n = await startNotifier({ profilesUrl: src.url, slackUrl: sink.url, renderer, renderTimeoutMs: 5 });
      try {
        await post(n.url, webhook([alert({ fingerprint: 'e3' })]));
        const [m] = await delivered(n);
        assert.equal(m.reason, undefined, m.reason);
        assert.equal(m.note, 'No picture: render timed out after 0s. The changes come from the same profiles.');
        assert.equal(m.imageUrl, undefined);
        assert.equal(m.changes[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
        assert.match(m.payload.text, /_No picture: render timed out after 0s\. The changes come from the same profiles\._/);
        assert.match(m.payload.text, /1\. `google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString` \+/);
        assert.ok(!m.payload.blocks.some((b) => b.type === 'image'));
      } finally {
        await n.close();
        await src.close();
        await sink.close();
      }
    });
  }
});

describe('the webhook endpoint', () => {
  it('wants the bearer token when one is set, JSON, a bounded body, an alerts array', async () => {
    const n = await startNotifier({ profilesUrl: await downUrl(), token: 's3cret', maxBodyBytes: 4096 });
    try {
      const ok = { authorization: 'Bearer s3cret' };
      assert.equal((await post(n.url, webhook([]))).status, 401);
      assert.equal((await post(n.url, webhook([]), { authorization: 'Bearer s3cre' })).status, 401);
      assert.equal((await post(n.url, webhook([]), ok)).status, 200);
      assert.equal((await post(n.url, webhook([]), { ...ok, 'content-type': 'text/plain' })).status, 415);
      assert.equal((await post(n.url, '{', ok)).status, 400);
      assert.equal((await post(n.url, { alerts: 'x' }, ok)).status, 400);
      assert.equal((await post(n.url, webhook([alert({ annotations: { description: 'x'.repeat(5000) } })]), ok)).status, 413);
      assert.equal((await fetch(`${n.url}/webhook`)).status, 405);
      assert.equal((await fetch(`${n.url}/images/..%2f..%2fetc%2fpasswd.png`)).status, 404);
    } finally {
      await n.close();
    }
  });

  it('refuses with 503 what the full queue cannot take, and takes it on the retry', async () => {
    const src = await listen(() => {}); // never answers: the first alert holds the only worker
    const n = await startNotifier({ profilesUrl: src.url, workers: 1, queueMax: 1, fetchTimeoutMs: 1500 });
    try {
      const hook = webhook([alert({ fingerprint: 'f1' }), alert({ fingerprint: 'f2' }), alert({ fingerprint: 'f3' })]);
      const res = await post(n.url, hook);
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { accepted: 2, skipped: 0, refused: 1 });
      await n.notifier.idle();
      assert.deepEqual(await (await post(n.url, hook)).json(), { accepted: 1, skipped: 2, refused: 0 });
      await n.notifier.idle();
      const m = messages(n);
      assert.deepEqual(m.map((x) => x.key.split('-')[0]).sort(), ['f1', 'f2', 'f3']);
      assert.match(m[0].reason, /unreachable: no answer within 1\.5s/);
    } finally {
      await n.close();
      src.server.closeAllConnections();
      await src.close();
    }
  });
});

describe('delivery', () => {
  it('retries a failing Slack webhook with backoff, and gives up on a 4xx', async () => {
    const flaky = await startSink([500, 503]);
    const gone = await startSink([404]);
    try {
      for (const [sink, want] of [[flaky, 'delivered'], [gone, 'NOT delivered']]) {
        const n = await startNotifier({ profilesUrl: await downUrl(), slackUrl: sink.url });
        await post(n.url, webhook([alert()]));
        await n.notifier.idle();
        assert.ok(n.logs.some((l) => l.includes(`firing: ${want}`)), n.logs.join('\n'));
        await n.close();
      }
      assert.equal(flaky.calls(), 3);
      assert.equal(flaky.received.length, 1);
      assert.equal(gone.calls(), 1);
    } finally {
      await flaky.close();
      await gone.close();
    }
  });
});

describe('the renderer', () => {
  it('refuses one it does not know instead of falling back to the snapshot CLI', () => {
    assert.throws(() => new Notifier({ renderer: 'hot', imagesDir: '/nonexistent/images', log: () => {} }), /renderer hot: want cli or warm/);
  });
});
