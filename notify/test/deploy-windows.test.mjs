// After a deploy the alert carries (annotations version, previous_version, rollout_time): the
// baseline is the previous version's last hours when the change began after the rollout, and the
// message says so; nothing changes without a deploy, before it, or for the siblings comparison.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { chooseWindows } from '../lib/alert-windows.mjs';
import { deployOf } from '../lib/deploy-windows.mjs';
import { buildMessage } from '../lib/message.mjs';
import { MINUTE, RATE_WINDOW_MS } from '../lib/windows.mjs';
import { startPrometheus } from './fake-prometheus.mjs';

const NOW = Date.parse('2026-01-02T12:00:00Z');
const cfg = (o = {}) => ({ pendingMs: 15 * MINUTE, minWindowMs: 5 * MINUTE, maxWindowMs: 60 * MINUTE, fetchTimeoutMs: 2000, ...o });
/** the annotations of a deploy `minAgo` minutes before NOW (rollout_time in unix seconds) */
const deployed = (minAgo, version = '1.42', previous = '1.41') => ({ version, previous_version: previous, rollout_time: String((NOW - minAgo * MINUTE) / 1000) });
const alert = (alertname, annotations = {}, labels = {}) => ({
  labels: { alertname, job: 'api', namespace: 'shop', ...labels },
  annotations: { summary: 'A service uses more CPU.', ...annotations },
  startsAt: new Date(NOW - 20 * MINUTE).toISOString(),
  status: 'firing',
  generatorURL: 'http://prom/graph?g0.expr=x',
});
/** a per-request series that steps up 4x `onsetMinAgo` minutes before NOW */
const stepAt = (onsetMinAgo) => (t) => (t < NOW - onsetMinAgo * MINUTE ? 0.004 : 0.016) * (1 + 0.05 * Math.sin(t / 97_000));

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function prom(onsetMinAgo) {
  const p = await startPrometheus([[/ratio_rate5m/, stepAt(onsetMinAgo)]]);
  servers.push(p);
  return p.url;
}

describe('windows after a deploy', () => {
  it('a change after the rollout: the baseline is the previous version\'s last window, ending at the rollout', async () => {
    const url = await prom(40);
    const w = await chooseWindows(alert('CPUPerRequestRegression', deployed(42)), cfg({ prometheusUrl: url }), NOW);
    const rollout = NOW - 42 * MINUTE;
    assert.equal(w.method, 'deploy');
    assert.deepEqual(w.deploy, { service: 'shop/api', version: '1.42', previous: '1.41', at: rollout });
    assert.equal(w.baseline.to, rollout);
    assert.equal(w.baseline.to - w.baseline.from, w.incident.to - w.incident.from);
    assert.equal(w.incident.to, NOW);
    assert.match(w.reason, /^the last \d+m of version 1\.41 before the rollout of 1\.42 at 11:18 UTC \(.*stepped up at 11:2\d UTC/);
  });

  it('a change that began before the rollout keeps the baseline before the change', async () => {
    const url = await prom(40);
    const w = await chooseWindows(alert('CPUPerRequestRegression', deployed(10)), cfg({ prometheusUrl: url }), NOW);
    assert.equal(w.method, 'change point');
    assert.equal(w.deploy, undefined);
    assert.equal(w.baseline.to, w.onset - RATE_WINDOW_MS);
  });

  it('the rate window\'s echo: an onset found up to 5m before the rollout still follows it', async () => {
    const url = await prom(40);
    const w = await chooseWindows(alert('CPUPerRequestRegression', deployed(38)), cfg({ prometheusUrl: url }), NOW);
    assert.equal(w.method, 'deploy');
  });

  it('no version source (empty annotations), or no deploy in the window: the windows from the data', async () => {
    const url = await prom(40);
    for (const a of [{}, { version: '', previous_version: '', rollout_time: '' }, { version: '1.42', previous_version: '', rollout_time: '' }]) {
      const w = await chooseWindows(alert('CPUPerRequestRegression', a), cfg({ prometheusUrl: url }), NOW);
      assert.equal(w.method, 'change point', JSON.stringify(a));
      assert.equal(w.deploy, undefined);
    }
  });

  it('the outlier compares siblings of the same version over the same window: no deploy baseline', async () => {
    const w = await chooseWindows(alert('CPUPerRequestOutlier', deployed(42), { instance: 'i3' }), cfg(), NOW);
    assert.deepEqual(w.baseline, w.incident);
    assert.equal(w.deploy, undefined);
  });

  it('without Prometheus the anomaly from the alert\'s times decides: fired 20m ago, for: 15m, so after a rollout 42m ago', async () => {
    const w = await chooseWindows(alert('CPUPerRequestRegression', deployed(42)), cfg(), NOW);
    assert.equal(w.method, 'deploy');
    assert.equal(w.approximate, true);
    assert.equal(w.baseline.to, NOW - 42 * MINUTE);
  });
});

describe('deployOf', () => {
  it('reads the annotations; a rollout time that is not a positive number is no deploy', () => {
    assert.deepEqual(deployOf(alert('X', deployed(42))), { service: 'shop/api', version: '1.42', previous: '1.41', at: NOW - 42 * MINUTE });
    assert.equal(deployOf(alert('X', { ...deployed(42), rollout_time: 'soon' })), undefined);
    assert.equal(deployOf(alert('X', { ...deployed(42), rollout_time: '-5' })), undefined);
    assert.equal(deployOf({ labels: { job: 'api' }, annotations: deployed(42) }).service, 'api', 'no namespace: the job alone');
  });
});

describe('the message line', () => {
  it('says since which rollout, of which version, and the version before it', async () => {
    const a = alert('CPUPerRequestRegression', deployed(42));
    const windows = await chooseWindows(a, cfg({ prometheusUrl: await prom(40) }), NOW);
    const { text } = buildMessage({ alert: a, status: 'firing', windows });
    assert.ok(text.includes('Since the rollout of `shop/api:1.42` at 11:18 UTC (previously `1.41`).'), text);
  });

  it('no line without a deploy, and a version cannot close its code span', async () => {
    const plain = alert('CPUPerRequestRegression');
    const w = await chooseWindows(plain, cfg(), NOW);
    assert.ok(!buildMessage({ alert: plain, status: 'firing', windows: w }).text.includes('rollout'));
    const odd = alert('CPUPerRequestRegression', deployed(42, '1.42`*x*', '<!channel>'));
    const text = buildMessage({ alert: odd, status: 'firing', windows: await chooseWindows(odd, cfg(), NOW) }).text;
    assert.ok(text.includes('`shop/api:1.42ˋ*x*`') && text.includes('`&lt;!channel&gt;`'), text);
  });
});
