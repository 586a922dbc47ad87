// Replays of the playground's incidents: the committed captures (tests/fixtures) served at their
// times through the profile store's querier endpoint (demo/cmd/profile-replay), the alert's
// series and request rate from a stand-in Prometheus, and the alerts timed as the shipped rule
// pack fires them (for: 15m, a few minutes of rate window before the condition holds). Each
// message's first change line must name the culprit with its size per request.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startPrometheus } from './fake-prometheus.mjs';
import { post, startNotifier, startSink, waitFor, webhook } from './helpers.mjs';
import { ALERTS, DAY, fired, ONSET, prometheusRules, startReplay, worldSpecs } from './replay-world.mjs';

const messagesOf = (n) => readFileSync(join(n.notifier.cfg.outDir, 'messages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const deliveredAll = (n, count) => waitFor(() => { try { const m = messagesOf(n); return m.length >= count && m; } catch { return false; } }, 300_000, `${count} messages`);
/** The message's first numbered line: the first change. */
const firstChangeLine = (m) => m.payload.text.split('\n').find((l) => /^1\. /.test(l));

describe('replayed incidents', () => {
  let replay;
  let sink;
  let prom;
  before(async () => {
    replay = await startReplay(worldSpecs());
    sink = await startSink();
    prom = await startPrometheus(prometheusRules());
  });
  after(async () => {
    replay?.close();
    await sink?.close();
    await prom?.close();
  });

  it('every incident\'s first change names the culprit, with its size per request', async () => {
    const n = await startNotifier({ profilesUrl: replay.url, prometheusUrl: prom.url, slackUrl: sink.url, concurrency: 2 });
    try {
      await post(n.url, webhook(ALERTS.map((a) => a.alert)));
      const msgs = await deliveredAll(n, ALERTS.length);
      for (const a of ALERTS) {
        const m = msgs.find((x) => x.labels.job === a.alert.labels.job);
        assert.equal(m.reason, undefined, `${a.story}: ${m.reason}`);
        assert.match(m.changes[0].function, a.culprit, `${a.story}: ${JSON.stringify(m.changes.slice(0, 3))}`);
        const line = firstChangeLine(m);
        assert.ok(line.includes(m.changes[0].function), `${a.story}: ${line}`);
        if (a.unit) {
          assert.match(line, a.unit, a.story);
          assert.ok(m.changes[0].perRequestDelta > 0 && m.changes[0].unit.endsWith('/req'), JSON.stringify(m.changes[0]));
        }
        assert.equal(typeof m.changes[0].deltaPercent, 'number', 'share points stay in the record');
        assert.ok(!m.windows.approximate, `${a.story}: ${m.windows.reason}`);
        assert.ok(m.windows.baseline.to <= m.windows.incident.from || a.story === 'outlier instance', `${a.story}: the baseline precedes the incident`);
      }
      const poller = msgs.find((x) => x.labels.job === 'poller');
      const body = poller.payload.blocks[1].text.text.split('\n');
      assert.match(body[0], /^\*Fixed cost:\* 0\.85 cores at 100 req\/s \(was 0\.03 cores at 100 req\/s the same hour a day earlier\); \d+% in `linux\.Syscall6` ← .*`unix\.EpollWait` ← `incidents\.\(\*EventLoop\)\.Run`$/);
      assert.equal(poller.windows.baseline.to, poller.windows.incident.to - DAY);
      // what the change costs at the shipped list price ($0.04048 a core-hour, 730 hours a month)
      assert.match(poller.payload.text, /\n\*What it costs:\* \+0\.82 cores ≈ \+\$24\/month at the current 100 req\/s \(the fixed part of its CPU, which does not follow traffic; at a list price of \$0\.04048 a core-hour\)\n/);
      assert.deepEqual({ cores: poller.cost.cores, rate: poller.cost.rate, currency: poller.cost.currency }, { cores: 0.82, rate: 100, currency: 'USD' });
      assert.match(msgs.find((x) => x.labels.job === 'api').payload.text, /\*What it costs:\* \+1\.20 cores ≈ \+\$35\/month at the current 100 req\/s \(CPU per request now against the cost model/);
      assert.match(msgs.find((x) => x.labels.job === 'gzipper').payload.text, /_What it costs: Prometheus has no figure for CPU per request now/);
      const restarted = msgs.find((x) => x.labels.job === 'restarted');
      assert.match(restarted.windows.reason, /more than 1h ago: the same window a day earlier/);
      const short = msgs.find((x) => x.labels.job === 'poller3h');
      assert.match(short.windows.reason, /^no profiles the same hour a day earlier, so job:cpu_seconds:long_fixed_share stepped up at/);
      assert.ok(short.windows.baseline.to <= short.windows.incident.from);
      const gz = msgs.find((x) => x.labels.job === 'gzipper');
      assert.match(gz.payload.text, /^\*Allocations \+\d+% = load ~0% × per request \+\d+%\*$/m, 'the panel\'s headline');
      for (const m of msgs) {
        process.stdout.write(`# ${m.labels.alertname} ${m.labels.job}: ${firstChangeLine(m)}\n`);
      }
    } finally {
      await n.close();
    }
  });

  it('traffic doubled and CPU followed: the message says load, and names no function', async () => {
    const n = await startNotifier({ profilesUrl: replay.url, prometheusUrl: prom.url, slackUrl: sink.url });
    try {
      // a CPU-per-request alert cannot fire on this (it is a negative case): sent by hand
      await post(n.url, webhook([fired('CPUPerRequestRegression', 'doubled', ONSET.doubled, { fp: 'b1' })]));
      const [m] = await deliveredAll(n, 1);
      assert.equal(m.reason, undefined, m.reason);
      assert.deepEqual(m.changes, []);
      assert.equal(firstChangeLine(m), undefined);
      assert.match(m.payload.text, /\*CPU \+\d+% = load \+\d+% × per request ~0%\*/);
      assert.match(m.payload.text, /\*Load, not code:\* no function got more expensive per request/);
      assert.equal(m.answer.driver, 'load');
    } finally {
      await n.close();
    }
  });

  it('without Prometheus: the approximate windows, and the message says so', async () => {
    const n = await startNotifier({ profilesUrl: replay.url, slackUrl: sink.url });
    try {
      await post(n.url, webhook([ALERTS[0].alert]));
      const [m] = await deliveredAll(n, 1);
      assert.equal(m.windows.approximate, true);
      assert.match(m.payload.text, /approximate: no Prometheus \(--prometheus\) to find the onset in, so the anomaly is taken to start 15m \(the rules' for:\) before the alert fired/);
      assert.match(m.payload.text, /_Not per request: no Prometheus \(--prometheus\) to count the requests of each window\._/);
      assert.equal(m.changes[0].perRequestDelta, undefined, 'no per-request fields without counts');
      assert.match(firstChangeLine(m), /over the window/);
    } finally {
      await n.close();
    }
  });
});
