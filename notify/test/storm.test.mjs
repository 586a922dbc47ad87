// A small storm (the benchmark, `make bench-notify`, runs 200): more alerts in one webhook than
// the renderer can draw in time. Every alert is delivered once, within --deliver-within of the
// webhook; those whose picture would be late go as text with the same changes and say so. The
// snapshot CLI renders here: its seconds a picture make 16 alerts a storm for a 25 s deadline on
// any machine (the warm renderer's speed depends on the machine's load; the gate is the same).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';

import { alert, post, startNotifier, waitFor, webhook } from './helpers.mjs';
import { jsonLines, startProfileSource, startSlack } from './standins.mjs';

it('a storm of 16 alerts, due within 25 s: all delivered in time, once; the late pictures become text that says so', async () => {
  const slack = await startSlack();
  const src = await startProfileSource();
  const n = await startNotifier({ profilesUrl: src.url, slackUrl: slack.url, renderer: 'cli', deliverWithinMs: 25_000, pendingMs: 60_000, minWindowMs: 60_000 });
  try {
    const alerts = Array.from({ length: 16 }, (_, i) => alert({ fingerprint: (0x5000 + i).toString(16), job: 'api', labels: { instance: `i${i}` } }));
    assert.deepEqual(await (await post(n.url, webhook(alerts))).json(), { accepted: 16, skipped: 0, refused: 0 });
    const file = join(n.notifier.cfg.outDir, 'messages.jsonl');
    const m = await waitFor(() => jsonLines(file).length >= 16 && jsonLines(file), 120_000, 'the storm');
    await n.notifier.idle();
    assert.equal(new Set(m.map((x) => x.key)).size, 16, 'none twice');
    assert.equal(slack.received.length, 16);
    assert.deepEqual(slack.refused, []);
    for (const x of m) {
      assert.ok(x.latencyMs <= 25_000, `${x.key} after ${x.latencyMs} ms`);
      assert.equal(x.reason, undefined, x.reason);
      assert.equal(x.changes[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString', 'the answer, picture or not');
    }
    const text = m.filter((x) => !x.imageUrl);
    assert.ok(text.length >= 8, `${text.length} text-only`);
    assert.ok(m.length - text.length >= 1, 'the first ones have their picture');
    for (const x of text) {
      assert.match(x.note, /^No picture: \d+ alert\(s\) were waiting for the renderer/);
      assert.match(x.payload.text, /_No picture: \d+ alert\(s\) were waiting for the renderer; .* The changes come from the same profiles\._/);
      assert.ok(!x.payload.blocks.some((b) => b.type === 'image'));
      assert.match(x.payload.text, /1\. `google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString` \+/);
    }
    assert.equal(n.logs.filter((l) => / firing: delivered in /.test(l)).length, 16, n.logs.join('\n'));
  } finally {
    await n.close();
    await src.close();
    await slack.close();
  }
});
