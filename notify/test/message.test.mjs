// The message: escaping (no mrkdwn or HTML injection through labels, annotations or function
// names), the headline and the top 5 changes per request as text, the busy loop's fixed cost,
// the windows and why, the image and the links, failure reasons.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { buildMessage, escape } from '../lib/message.mjs';

const T = Date.parse('2026-01-01T12:00:00Z');
const windows = { incident: { from: T - 16 * 60_000, to: T }, baseline: { from: T - 32 * 60_000, to: T - 16 * 60_000 }, reason: 'before the anomaly' };
/** computeAnswer()'s shape: the println story per request, with one change charged through the runtime */
const change = (fn, baseline, incident, share, extra = {}) => ({
  function: fn,
  deltaPercent: share[1] - share[0],
  baselineSharePercent: share[0],
  incidentSharePercent: share[1],
  absoluteDelta: (incident - baseline) * 1000,
  baselinePerRequest: baseline,
  incidentPerRequest: incident,
  perRequestDelta: incident - baseline,
  unit: 'ns',
  ...extra,
});
const answer = {
  unit: 'ns',
  rankedBy: 'per-request',
  driver: 'per request',
  headline: 'CPU +374% = load ~0% × per request +374%',
  changes: [
    change('google.golang.org/protobuf/internal/encoding/text.appendString', 0, 750_000, [0, 22.1]),
    change('internal/strconv.formatBits', 0, 383_000, [0, 11.3], { via: 'runtime.memmove' }),
    change('a', 10, 20, [1, 1.1]),
    change('b', 10, 19, [1, 1.1]),
    change('c', 10, 18, [1, 1.1]),
    change('sixth', 10, 17, [1, 1.1]),
  ],
};
const alert = {
  labels: { alertname: 'CPUPerRequestRegression', job: 'api', severity: 'warning' },
  annotations: { summary: 'A service uses more CPU.', dashboard_url: 'http://grafana/d/hotpath-service?var-job=api&from=1', runbook_url: 'https://x/runbook.md#a' },
};

describe('escape', () => {
  it('makes Slack control characters and backticks literal', () => {
    assert.equal(escape('<!channel> & <http://evil|click> `code`'), '&lt;!channel&gt; &amp; &lt;http://evil|click&gt; ˋcodeˋ');
    assert.equal(escape('a\nb'), 'a b');
    assert.equal(escape(undefined), '');
    assert.ok(escape('x'.repeat(1000)).length < 320, 'long values are cut');
  });
});

describe('buildMessage', () => {
  it('a firing alert: the headline, the changes per request (the first names the culprit), the picture, the windows and why', () => {
    const m = buildMessage({ alert, status: 'firing', windows, answer, imageUrl: 'http://127.0.0.1:9095/images/abc-1.png' });
    assert.match(m.blocks[0].text.text, /FIRING CPUPerRequestRegression job=api/);
    const body = m.blocks[1].text.text.split('\n');
    assert.equal(body[0], '*CPU +374% = load ~0% × per request +374%*', 'the panel\'s headline leads');
    assert.equal(body[1], '*Got more expensive per request:*');
    assert.equal(body[2], '1. `google.golang.org/protobuf/internal/encoding/text.appendString` +750 µs/req (0 s → 750 µs per request) · +22.1 pts of CPU (0.0% → 22.1%)');
    assert.equal(body[3], '2. `internal/strconv.formatBits` (via `runtime.memmove`) +383 µs/req (0 s → 383 µs per request) · +11.3 pts of CPU (0.0% → 11.3%)');
    assert.ok(body.includes('5. `c` +8.00 ns/req (10.0 ns → 18.0 ns per request) · +0.1 pts of CPU (1.0% → 1.1%)'), body.join('\n'));
    assert.doesNotMatch(body.join('\n'), /sixth/, 'five changes');
    assert.ok(body.includes('Compared 11:44–12:00 UTC (16m) with 11:28–11:44 UTC: before the anomaly.'), body.join('\n'));
    assert.deepEqual(m.blocks[2], { type: 'image', image_url: 'http://127.0.0.1:9095/images/abc-1.png', alt_text: 'diff flame graph of CPUPerRequestRegression job=api' });
    assert.equal(m.blocks[3].elements[0].text, '<http://grafana/d/hotpath-service?var-job=api&amp;from=1|dashboard> · <https://x/runbook.md#a|runbook>');
    assert.match(m.text, /text\.appendString/, 'the fallback text carries the changes too');
  });

  it('a change that follows the traffic: "load", no function', () => {
    const m = buildMessage({ alert, status: 'firing', windows, answer: { unit: 'ns', rankedBy: 'per-request', driver: 'load', headline: 'CPU +100% = load +100% × per request ~0%', changes: [] } });
    const body = m.blocks[1].text.text.split('\n');
    assert.equal(body[0], '*CPU +100% = load +100% × per request ~0%*');
    assert.equal(body[1], '*Load, not code:* no function got more expensive per request; the change follows the traffic.');
    assert.doesNotMatch(m.text, /^1\. /m);
  });

  it('without request counts: absolute changes, and the reason they are not per request', () => {
    const abs = { unit: 'bytes', rankedBy: 'absolute', changes: [{ function: 'compress/flate.NewWriter', deltaPercent: 66.1, baselineSharePercent: 14.5, incidentSharePercent: 80.5, absoluteDelta: 506 * 1048576, unit: 'bytes' }] };
    const m = buildMessage({ alert, status: 'firing', windows: { ...windows, approximate: true }, answer: abs, requestsWhy: 'no Prometheus (--prometheus) to count the requests of each window' });
    const body = m.blocks[1].text.text;
    assert.match(body, /\*Got more expensive over the window:\*\n1\. `compress\/flate\.NewWriter` \+506 MiB over the window · \+66\.1 pts of allocated bytes \(14\.5% → 80\.5%\)/);
    assert.match(body, /_Not per request: no Prometheus \(--prometheus\) to count the requests of each window\._/);
  });

  it('the busy loop: its fixed cost against the same hour a day earlier, and the call path it spins in', () => {
    const fixed = { incident: { cores: 0.85, rate: 4 }, baseline: { cores: 0.03, rate: 4.1 }, baselineName: 'the same hour a day earlier', share: 0.62, path: ['syscall.Syscall6', 'golang.org/x/sys/unix.EpollWait', 'main.(*EventLoop).Run'] };
    const m = buildMessage({ alert, status: 'firing', windows, fixed, reason: 'no cpu samples for {service_name="api"} in the baseline window' });
    assert.equal(m.blocks[1].text.text.split('\n')[0], '*Fixed cost:* 0.85 cores at 4.0 req/s (was 0.03 cores at 4.1 req/s the same hour a day earlier); 62% in `syscall.Syscall6` ← `unix.EpollWait` ← `main.(*EventLoop).Run`');
  });

  it('a failure: no picture, the one-line reason instead', () => {
    const m = buildMessage({ alert, status: 'firing', windows, reason: 'profile source http://127.0.0.1:1 unreachable: ECONNREFUSED', imageUrl: 'http://x/y.png' });
    assert.ok(!m.blocks.some((b) => b.type === 'image'));
    assert.match(m.blocks[1].text.text, /\*No profile diff:\* profile source http:\/\/127\.0\.0\.1:1 unreachable: ECONNREFUSED/);
  });

  it('hostile labels, annotations and function names stay text', () => {
    const evil = {
      labels: { alertname: 'CPUPerRequestRegression', job: '<!here>`x`', instance: 'a&b' },
      annotations: { summary: '*bold* <@U123> `', dashboard_url: 'javascript:alert(1)', runbook_url: 'http://ok/x|<!channel>' },
    };
    const s = { unit: 'ns', rankedBy: 'per-request', changes: [change('main.`func1`<!channel>', 0, 1, [0, 1], { via: 'runtime.<!here>' })] };
    const m = buildMessage({ alert: evil, status: 'firing', windows, answer: s });
    const all = JSON.stringify(m);
    assert.doesNotMatch(all, /<!here>|<!channel>|<@U123>/);
    assert.doesNotMatch(all, /javascript:/, 'only http(s) links');
    assert.match(m.blocks[1].text.text, /`main\.ˋfunc1ˋ&lt;!channel&gt;` \(via `runtime\.&lt;!here&gt;`\)/);
    assert.match(m.blocks[0].text.text, /job=&lt;!here&gt;ˋxˋ instance=a&amp;b/);
    assert.match(all, /<http:\/\/ok\/x%7C%3C!channel%3E\|runbook>/);
  });

  it('a resolve is an update without a diff', () => {
    const m = buildMessage({ alert, status: 'resolved' });
    assert.match(m.text, /RESOLVED CPUPerRequestRegression job=api/);
    assert.doesNotMatch(m.text, /No profile diff/);
  });

  it('allocation changes are in bytes per request', () => {
    const m = buildMessage({ alert, status: 'firing', windows, answer: { unit: 'bytes', rankedBy: 'per-request', changes: [{ ...change('compress/flate.NewWriter', 2212, 886_784, [14.5, 80.5]), unit: 'bytes' }] } });
    assert.match(m.text, /1\. `compress\/flate\.NewWriter` \+864 KiB\/req \(2\.16 KiB → 866 KiB per request\) · \+66\.0 pts of allocated bytes/);
  });
});
