// The message: escaping (no mrkdwn or HTML injection through labels, annotations or function
// names), the top 5 changes as text, the image and the links, failure reasons.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { buildMessage, escape, topChangesText } from '../lib/message.mjs';

const T = Date.parse('2026-01-01T12:00:00Z');
const windows = { incident: { from: T - 16 * 60_000, to: T }, baseline: { from: T - 32 * 60_000, to: T - 16 * 60_000 }, reason: 'before the anomaly' };
const summary = {
  unit: 'ns',
  diff: {
    top: [
      { function: 'google.golang.org/protobuf/internal/encoding/text.appendString', baselineSelfPercent: 0, comparisonSelfPercent: 31.2, deltaPercent: 31.2 },
      { function: 'fmt.(*pp).printValue', baselineSelfPercent: 0.1, comparisonSelfPercent: 8, deltaPercent: 7.9 },
      { function: 'runtime.memmove', baselineSelfPercent: 2, comparisonSelfPercent: 5, deltaPercent: 3 },
      { function: 'syscall.Syscall', baselineSelfPercent: 20, comparisonSelfPercent: 6, deltaPercent: -14 },
      { function: 'a', baselineSelfPercent: 1, comparisonSelfPercent: 2, deltaPercent: 1 },
      { function: 'sixth', baselineSelfPercent: 1, comparisonSelfPercent: 1.5, deltaPercent: 0.5 },
    ],
  },
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
  it('a firing alert: title, the 5 biggest changes as text, the picture, the dashboard link', () => {
    const m = buildMessage({ alert, status: 'firing', windows, summary, imageUrl: 'http://127.0.0.1:9095/images/abc-1.png' });
    assert.match(m.blocks[0].text.text, /FIRING CPUPerRequestRegression job=api/);
    const body = m.blocks[1].text.text;
    assert.match(body, /Diff of 11:44–12:00 UTC \(16m\) against 11:28–11:44 UTC, before the anomaly\./);
    assert.match(body, /1\. `google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString` \+31\.2% of CPU \(0\.0% → 31\.2%\)/);
    assert.match(body, /2\. `fmt\.\(\*pp\)\.printValue` \+7\.9%/);
    assert.match(body, /5\. `sixth` \+0\.5% of CPU/, 'the increases first');
    assert.doesNotMatch(body, /syscall/, 'only 5 lines: a decrease only when there are fewer increases');
    const few = topChangesText({ unit: 'ns', diff: { top: [summary.diff.top[3], summary.diff.top[0]] } });
    assert.deepEqual(few.map((l) => l.slice(0, 12)), ['1. `google.g', '2. `syscall.']);
    assert.deepEqual(m.blocks[2], { type: 'image', image_url: 'http://127.0.0.1:9095/images/abc-1.png', alt_text: 'diff flame graph of CPUPerRequestRegression job=api' });
    assert.equal(m.blocks[3].elements[0].text, '<http://grafana/d/hotpath-service?var-job=api&amp;from=1|dashboard> · <https://x/runbook.md#a|runbook>');
    assert.match(m.text, /text\.appendString/, 'the fallback text carries the changes too');
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
    const s = { unit: 'ns', diff: { top: [{ function: 'main.`func1`<!channel>', baselineSelfPercent: 0, comparisonSelfPercent: 1, deltaPercent: 1 }] } };
    const m = buildMessage({ alert: evil, status: 'firing', windows, summary: s });
    const all = JSON.stringify(m);
    assert.doesNotMatch(all, /<!here>|<!channel>|<@U123>/);
    assert.doesNotMatch(all, /javascript:/, 'only http(s) links');
    assert.match(m.blocks[1].text.text, /`main\.ˋfunc1ˋ&lt;!channel&gt;`/);
    assert.match(m.blocks[0].text.text, /job=&lt;!here&gt;ˋxˋ instance=a&amp;b/);
    assert.match(all, /<http:\/\/ok\/x%7C%3C!channel%3E\|runbook>/);
  });

  it('a resolve is an update without a diff', () => {
    const m = buildMessage({ alert, status: 'resolved' });
    assert.match(m.text, /RESOLVED CPUPerRequestRegression job=api/);
    assert.doesNotMatch(m.text, /No profile diff/);
  });

  it('allocation diffs are in allocated bytes', () => {
    assert.match(topChangesText({ unit: 'bytes', diff: { top: [{ function: 'compress/flate.NewWriter', baselineSelfPercent: 1, comparisonSelfPercent: 80, deltaPercent: 79 }] } })[0], /\+79\.0% of allocated bytes/);
  });
});
