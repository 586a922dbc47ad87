// A Slack that throttles (429 with Retry-After in seconds and as a date), fails (500), refuses
// (400) or is slow; a message over Slack's block limits; a secret webhook URL; hostile text.
// Nothing is lost, nothing is posted twice, the record says how delivery went.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { buildMessage } from '../lib/message.mjs';
import { checkSlackLimits, fitForSlack, SLACK_LIMITS } from '../lib/slack-limits.mjs';
import { alert, downUrl, post, startNotifier, waitFor, webhook } from './helpers.mjs';
import { jsonLines, startSlack } from './standins.mjs';

const messages = (n) => jsonLines(join(n.notifier.cfg.outDir, 'messages.jsonl'));
const delivered = (n, count = 1) => waitFor(() => messages(n).length >= count && messages(n), 60_000, `${count} message(s)`);

/** One alert through a notifier whose Slack answers as `answer` says; resolves { n, slack, record }. */
async function throughSlack(answer, cfg = {}, a = alert()) {
  const slack = await startSlack(answer);
  const n = await startNotifier({ profilesUrl: await downUrl(), slackUrl: slack.url, ...cfg });
  await post(n.url, webhook([a]));
  const [record] = await delivered(n);
  await n.notifier.idle();
  return { n, slack, record };
}

/** A second notifier on the first one's journal and folders (the next start of the process). */
const restart = (n, cfg) => startNotifier({ ...cfg, outDir: n.notifier.cfg.outDir, imagesDir: n.notifier.cfg.imagesDir });

/**
 * One alert whose message is kept for a retry (Slack answers 503), then a Slack that holds the
 * next request heldMs before answering 200; resolves { n, slack, cfg } once a retry is on the wire.
 */
async function retryOnTheWire(heldMs, cfg = {}) {
  let up = false;
  const slack = await startSlack(() => (up ? { status: 200, delayMs: heldMs } : { status: 503 }));
  cfg = { profilesUrl: await downUrl(), slackUrl: slack.url, retryEveryMs: 100, retryBackoffMs: 100, ...cfg };
  const n = await startNotifier(cfg);
  await post(n.url, webhook([alert({ fingerprint: 'ee01' })]));
  const [first] = await delivered(n);
  assert.equal(first.slack, 'retrying');
  await n.notifier.idle();
  const callsWhileDown = slack.calls();
  up = true;
  await waitFor(() => slack.calls() > callsWhileDown, 20_000, 'a retry reaching Slack');
  return { n, slack, cfg };
}

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', async () => {
    const { retryAfterMs } = await import('../lib/deliver.mjs');
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs('3', now), 3000);
    assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now), 7000);
    assert.equal(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now), 0, 'a date in the past: now');
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs(null, now), undefined);
  });

  for (const [name, header] of [
    ['seconds', () => '2'],
    ['an HTTP date', () => new Date(Date.now() + 2500).toUTCString()],
  ]) {
    it(`a 429 with Retry-After as ${name} is honoured: one message, posted after the wait`, async () => {
      const times = [];
      const { n, slack, record } = await throughSlack((i) => {
        times.push(Date.now());
        return i === 0 ? { status: 429, headers: { 'retry-after': header() } } : undefined;
      });
      try {
        assert.equal(slack.received.length, 1);
        assert.ok(times[1] - times[0] >= 1000, `waited ${times[1] - times[0]} ms (the backoff alone is 20 ms)`);
        assert.equal(record.slack, 'delivered');
        assert.equal(record.attempts, 2);
        assert.equal(record.deliveryFailures.length, 1);
        assert.match(record.deliveryFailures[0].error, /answered 429/);
      } finally {
        await n.close();
        await slack.close();
      }
    });
  }
});

describe('Slack failures', () => {
  it('a 500 is retried: delivered once', async () => {
    const { n, slack, record } = await throughSlack((i) => (i < 2 ? { status: 500 } : undefined));
    try {
      assert.equal(slack.calls(), 3);
      assert.equal(slack.received.length, 1);
      assert.equal(record.slack, 'delivered');
      assert.deepEqual(record.deliveryFailures.map((f) => [f.target, f.attempt]), [['slack', 1], ['slack', 2]]);
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('a 400 is not retried; the record and the log say it was not delivered', async () => {
    const { n, slack, record } = await throughSlack(() => ({ status: 400 }));
    try {
      assert.equal(slack.calls(), 1);
      assert.equal(record.slack, 'failed');
      assert.match(record.deliveryFailures[0].error, /answered 400/);
      assert.ok(n.logs.some((l) => /firing: NOT delivered \(delivery to http:\/\/127\.0\.0\.1:\d+\/… refused: 400/.test(l)), n.logs.join('\n'));
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('a Slack down longer than the retries: kept on disk, retried after a restart, delivered once, in order', async () => {
    let down = true;
    const slack = await startSlack(() => (down ? { status: 503 } : undefined));
    const cfg = { profilesUrl: await downUrl(), slackUrl: slack.url, retryEveryMs: 100, retryBackoffMs: 100 };
    const n = await startNotifier(cfg);
    try {
      await post(n.url, webhook([alert({ fingerprint: 'dd01' })]));
      const [first] = await delivered(n);
      assert.equal(first.slack, 'retrying');
      assert.equal(first.deliveryFailures.length, 5);
      await post(n.url, webhook([alert({ fingerprint: 'dd01', status: 'resolved' })]));
      await delivered(n, 2);
      await n.notifier.idle();
      n.notifier.close(); // the process ends: both messages wait in the journal
      await n.close();
      down = false;
      const again = await restart(n, cfg);
      try {
        await waitFor(() => slack.received.length >= 2, 20_000, 'the kept messages');
        await new Promise((r) => setTimeout(r, 500)); // nothing more comes
        assert.deepEqual(slack.received.map((m) => m.text.split(' ')[1]), ['FIRING', 'RESOLVED']);
        const outcomes = jsonLines(join(n.notifier.cfg.outDir, 'deliveries.jsonl'));
        assert.deepEqual(outcomes.map((o) => [o.status, o.slack]), [['firing', 'delivered'], ['resolved', 'delivered']]);
        assert.equal(JSON.parse(readFileSync(join(n.notifier.cfg.outDir, first.key, 'message.json'), 'utf8')).status, 'resolved');
        assert.ok(again.logs.some((l) => /firing: delivered to http:\/\/127\.0\.0\.1:\d+\/… on retry/.test(l)), again.logs.join('\n'));
      } finally {
        again.notifier.close();
        await again.close();
      }
    } finally {
      await slack.close();
    }
  });

  it('a retry on the wire when the receiver stops: stopping waits for its answer, the next start does not post it again', async () => {
    const { n, slack, cfg } = await retryOnTheWire(1500);
    try {
      assert.equal(slack.received.length, 0, 'Slack holds the retry: no answer yet');
      await n.close();
      assert.equal(slack.received.length, 1, 'stopping waited for the answer to the retry under way');
      const outcomes = jsonLines(join(n.notifier.cfg.outDir, 'deliveries.jsonl'));
      assert.deepEqual(outcomes.map((o) => [o.status, o.slack]), [['firing', 'delivered']]);
      const callsAtStop = slack.calls();
      const again = await restart(n, cfg);
      try {
        assert.equal(again.notifier.health().retrying, 0, 'nothing left to retry in the journal');
        await new Promise((r) => setTimeout(r, 1000)); // ten retry periods: nothing is posted again
        assert.equal(slack.calls(), callsAtStop);
        assert.equal(slack.received.length, 1);
      } finally {
        await again.close();
      }
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('a retry Slack never answers does not hold the stop past its timeout: the message stays kept for the next start', async () => {
    const { n, slack, cfg } = await retryOnTheWire(60_000, { deliveryTimeoutMs: 500 });
    try {
      const t = Date.now();
      await n.close();
      assert.ok(Date.now() - t < 5000, `stopping took ${Date.now() - t} ms (the attempt's timeout is 0.5 s)`);
      assert.equal(slack.received.length, 0);
      const again = await restart(n, { ...cfg, retryEveryMs: 60_000 });
      try {
        assert.equal(again.notifier.health().retrying, 1, 'the message is still kept');
        const [kept] = again.notifier.intake.journal.parkedRecords();
        assert.match(kept.failures.at(-1).error, /no answer within 0\.5s/, 'the timed-out attempt is journaled');
      } finally {
        await again.close();
      }
    } finally {
      await n.close();
      slack.server.closeAllConnections();
      await slack.close();
    }
  });

  it('a Slack that answers after 11 s gets the message once (the attempt timeout is 30 s)', async () => {
    const { n, slack, record } = await throughSlack(() => ({ status: 200, delayMs: 11_000 }));
    try {
      assert.equal(slack.calls(), 1);
      assert.equal(slack.received.length, 1);
      assert.equal(record.slack, 'delivered');
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('the webhook URL (a secret) never appears in a log line', async () => {
    const slack = await startSlack(() => ({ status: 404 }));
    const n = await startNotifier({ profilesUrl: await downUrl(), slackUrl: `${slack.url}/services/T0/B0/s3cretPath` });
    try {
      await post(n.url, webhook([alert()]));
      await delivered(n);
      await n.notifier.idle();
      assert.ok(n.logs.some((l) => l.includes('NOT delivered')), n.logs.join('\n'));
      assert.ok(!n.logs.join('\n').includes('s3cretPath'), n.logs.join('\n'));
      assert.ok(!JSON.stringify(messages(n)).includes('s3cretPath'), 'nor in the record');
    } finally {
      await n.close();
      await slack.close();
    }
  });
});

describe("Slack's limits", () => {
  const ampersands = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [['job', 'namespace', 'instance', 'upstream', 'pod', 'container', 'alertname'][i], '&'.repeat(300)]));

  it('escaped text is cut after escaping: seven labels of & make a message Slack takes', async () => {
    const a = alert({ labels: ampersands, annotations: { summary: '<&>'.repeat(3000) } });
    const { n, slack, record } = await throughSlack(undefined, {}, a);
    try {
      assert.deepEqual(slack.refused.map((r) => r.bad), []);
      assert.equal(slack.received.length, 1);
      assert.equal(record.slack, 'delivered');
      const title = slack.received[0].blocks[0].text.text;
      assert.ok(title.length <= SLACK_LIMITS.sectionText, `title of ${title.length}`);
      assert.match(title, /job=(&amp;)+…/, 'whole entities, then the ellipsis');
    } finally {
      await n.close();
      await slack.close();
    }
  });

  it('fitForSlack: every limit, no entity or surrogate pair cut in half', () => {
    const long = (n, s = 'x') => s.repeat(n);
    const payload = {
      text: long(50_000),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: long(200) } },
        { type: 'section', text: { type: 'mrkdwn', text: long(2999) + '&amp;' } },
        { type: 'section', text: { type: 'mrkdwn', text: long(2998) + '😀😀' } },
        { type: 'image', image_url: 'http://x/a.png', alt_text: long(3000) },
        { type: 'context', elements: Array.from({ length: 12 }, () => ({ type: 'mrkdwn', text: long(4000) })) },
        ...Array.from({ length: 60 }, () => ({ type: 'divider' })),
      ],
    };
    assert.match(checkSlackLimits(payload), /^msg_too_long/);
    const fit = fitForSlack(payload);
    assert.equal(checkSlackLimits(fit), undefined);
    assert.equal(fit.blocks.length, 50);
    assert.match(fit.blocks.at(-1).elements[0].text, /^16 more blocks left out/);
    assert.ok(fit.blocks[1].text.text.endsWith('x…'), 'the entity is dropped whole');
    assert.ok(!/[\uD800-\uDBFF]…$/.test(fit.blocks[2].text.text), 'no lone surrogate');
    assert.equal(fit.blocks[0].text.text.length, SLACK_LIMITS.headerText);
  });

  it('right-to-left overrides and bare @here/@channel do not reach Slack, nor the log', async () => {
    const a = alert({ labels: { job: 'ipa\u202Egnp.exe' }, annotations: { summary: 'ping @here and @channel, mail a@here.org' } });
    const { n, slack } = await throughSlack(undefined, {}, a);
    try {
      const [p] = slack.received;
      assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(JSON.stringify(p)), 'no bidi control in the message');
      assert.ok(!/(^|[^\w])@(here|channel)\b/.test(p.text), p.text);
      assert.match(p.text, /ping ＠here and ＠channel, mail a@here\.org/);
      assert.match(p.text, /job=ipagnp\.exe/);
    } finally {
      await n.close();
      await slack.close();
    }
  });
});
