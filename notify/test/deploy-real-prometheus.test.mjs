// A rollout seen by a real Prometheus evaluating the shipped versions group (rules/hotpath-rules.yaml,
// its expressions unchanged) on kube-state-metrics' kube_pod_container_info, scraped from a stand-in
// that rolls api's pods from 1.41 to 1.42: the efficiency alert's version annotations, rendered by
// that Prometheus from the shipped templates, lead the receiver to the previous version's last
// window, and the message names the rollout. A service kube-state-metrics does not report keeps the
// windows from the data.
//
// The rollout happens live. CPU per request (job:cpu_seconds_per_request:ratio_rate5m) is backfilled
// into a second real Prometheus, 3h before the test and 45m past the wall clock with its 4x step a
// minute after the start, so the receiver judges the incident 30 minutes on without the test waiting
// for them (a Prometheus that scrapes and evaluates refuses samples older than a block it holds, so
// the future cannot be backfilled into the first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';

import { chooseWindows } from '../lib/alert-windows.mjs';
import { buildMessage } from '../lib/message.mjs';
import { hhmm } from '../lib/windows.mjs';
import { waitFor } from './helpers.mjs';
import { startRealPrometheus } from './real-prometheus.mjs';

const MIN = 60_000;
const STEP = 15_000;
// the step of CPU per request, on the backfill's 15s grid, a minute or more after the start
const ONSET = Math.ceil((Date.now() + MIN) / STEP) * STEP;
const START = ONSET - 3 * 60 * MIN;
const END = ONSET + 45 * MIN;
// when the receiver judges the incident
const JUDGED = ONSET + 30 * MIN;
const CFG = { pendingMs: 15 * MIN, minWindowMs: 5 * MIN, maxWindowMs: 60 * MIN, fetchTimeoutMs: 20_000 };

const perRequest = (t) => (t < ONSET ? 0.004 : 0.016) * (1 + 0.05 * Math.sin(t / 97_000));
function series() {
  const out = [];
  for (const job of ['api', 'solo']) {
    const points = [];
    for (let t = START; t <= END; t += STEP) {
      points.push([t, Number(perRequest(t).toFixed(6))]);
    }
    out.push({ name: 'job:cpu_seconds_per_request:ratio_rate5m', labels: { namespace: 'shop', job }, points });
  }
  return out;
}

// The shipped versions group, evaluated every 2s instead of every minute so the rollout shows in
// seconds, and the shipped CPUPerRequestRegression's version annotations on an alert of every
// service that fires once CPU per request has stepped up (its own expression needs a day of
// baselines; this Prometheus holds no CPU, so the step's time stands in for it).
// The rule files are read with the pinned jsonnet's YAML parser.
const ruleFile = (name) =>
  JSON.parse(execFileSync(join(ROOT, '.tools', 'bin', 'jsonnet'), ['-e', `std.parseYaml(importstr '${join(ROOT, 'rules', name)}')`], { encoding: 'utf8' }));
function groups() {
  const rules = ruleFile('hotpath-rules.yaml');
  const alerts = ruleFile('hotpath-alerts.yaml');
  const versions = rules.groups.find((g) => g.name === 'hotpath-versions');
  const regression = alerts.groups.flatMap((g) => g.rules).find((r) => r.alert === 'CPUPerRequestRegression');
  const { version, previous_version, rollout_time } = regression.annotations;
  return [
    { ...versions, interval: '2s' },
    {
      name: 'regression',
      interval: '2s',
      rules: [{ alert: 'CPUPerRequestRegression', expr: `group by (namespace, job) (http_requests_total) and on () (vector(time()) >= ${ONSET / 1000})`, annotations: { version, previous_version, rollout_time } }],
    },
  ];
}

// kube-state-metrics and the pods' request counters: api's pods of each tag, each with a mesh
// sidecar; solo's pod, which kube-state-metrics does not report.
const pod = (name, tag) =>
  `kube_pod_container_info{namespace="shop",pod="${name}",container="api",image="registry.example.com/shop/api:${tag}"} 1\n` +
  `kube_pod_container_info{namespace="shop",pod="${name}",container="istio-proxy",image="docker.io/istio/proxyv2:1.21.0"} 1\n` +
  `http_requests_total{namespace="shop",job="api",pod="${name}"} 100\n`;
const solo = 'http_requests_total{namespace="shop",job="solo",pod="solo-1"} 100\n';
const PAGES = {
  before: pod('api-6f7c-a', '1.41') + pod('api-6f7c-b', '1.41') + solo,
  rolling: pod('api-6f7c-b', '1.41') + pod('api-7d9f-a', '1.42@sha256:9c1e') + solo,
  after: pod('api-7d9f-a', '1.42@sha256:9c1e') + pod('api-7d9f-b', '1.42@sha256:9c1e') + solo,
};

describe('a rollout in a real Prometheus, through the receiver\'s windows and message', () => {
  let prom;
  let history;
  let page = PAGES.before;
  const exporter = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(page));
  const query = async (q) => {
    const r = await (await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)).json();
    return r.data.result;
  };
  // the firing alerts as Alertmanager posts them
  const firing = async () => {
    const r = await (await fetch(`${prom.url}/api/v1/alerts`)).json();
    return r.data.alerts
      .filter((a) => a.state === 'firing')
      .map((a) => ({ status: 'firing', labels: a.labels, annotations: a.annotations, startsAt: a.activeAt, generatorURL: `${prom.url}/graph` }));
  };
  let rolledOut;
  let alerts;

  before(async () => {
    await new Promise((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    history = await startRealPrometheus(series());
    prom = await startRealPrometheus([{ name: 'hotpath_test_started', labels: {}, points: [[START, 1]] }], {
      groups: groups(),
      targets: [`127.0.0.1:${exporter.address().port}`],
      evaluationInterval: '2s',
    });
    const running = async () => (await query('job:version:info{job="api"}')).map((s) => s.metric.version).sort().join(' ');
    await waitFor(async () => (await running()) === '1.41', 60_000, 'api running 1.41');
    page = PAGES.rolling;
    rolledOut = Date.now();
    await waitFor(async () => (await running()) === '1.41 1.42', 60_000, 'both tags running');
    page = PAGES.after;
    await waitFor(async () => (await running()) === '1.42', 60_000, 'api running 1.42 only');
    alerts = await waitFor(
      async () => {
        const a = await firing();
        return a.find((x) => x.labels.job === 'api')?.annotations.previous_version && a.find((x) => x.labels.job === 'solo') && a;
      },
      3 * MIN,
      'the alerts of api, with its deploy, and solo'
    );
  });
  after(async () => {
    await prom?.close();
    await history?.close();
    exporter.close();
  });

  it('one deploy, 1.41 to 1.42, dated when the first 1.42 pod ran; the sidecar adds no version', async () => {
    const deploys = await query('job:version:rollout_timestamp{job="api"}');
    assert.equal(deploys.length, 1);
    assert.deepEqual([deploys[0].metric.version, deploys[0].metric.previous_version], ['1.42', '1.41']);
    const at = Number(deploys[0].value[1]) * 1000;
    assert.ok(at >= rolledOut - 2000 && at <= rolledOut + 10_000, `rollout at ${new Date(at).toISOString()}, page changed at ${new Date(rolledOut).toISOString()}`);
    assert.deepEqual(await query('job:version:info{job="solo"}'), []);
  });

  it("api's alert: the baseline is 1.41's last window before the rollout, and the message says so", async () => {
    const a = alerts.find((x) => x.labels.job === 'api');
    assert.equal(a.annotations.version, '1.42');
    assert.equal(a.annotations.previous_version, '1.41');
    const at = Number(a.annotations.rollout_time) * 1000;
    const w = await chooseWindows(a, { ...CFG, prometheusUrl: history.url }, JUDGED);
    assert.equal(w.method, 'deploy', w.reason);
    assert.deepEqual(w.deploy, { service: 'shop/api', version: '1.42', previous: '1.41', at });
    assert.ok(Math.abs(w.onset - ONSET) <= STEP, `onset ${new Date(w.onset).toISOString()}, stepped up at ${new Date(ONSET).toISOString()}`);
    assert.equal(w.incident.to, JUDGED);
    assert.equal(w.baseline.to, at);
    assert.equal(w.baseline.to - w.baseline.from, w.incident.to - w.incident.from);
    assert.ok(w.baseline.from < rolledOut && w.incident.from > rolledOut, 'the baseline ran 1.41 only, the incident 1.42 only');
    const { text } = buildMessage({ alert: a, status: 'firing', windows: w });
    assert.ok(text.includes(`Since the rollout of \`shop/api:1.42\` at ${hhmm(at)} UTC (previously \`1.41\`).`), text);
  });

  it("solo's alert carries empty version annotations: the windows from the data, no rollout in the message", async () => {
    const a = alerts.find((x) => x.labels.job === 'solo');
    assert.deepEqual([a.annotations.version, a.annotations.previous_version, a.annotations.rollout_time], ['', '', '']);
    const w = await chooseWindows(a, { ...CFG, prometheusUrl: history.url }, JUDGED);
    assert.equal(w.method, 'change point');
    assert.equal(w.deploy, undefined);
    assert.ok(!buildMessage({ alert: a, status: 'firing', windows: w }).text.includes('rollout'));
  });
});
