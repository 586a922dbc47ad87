// One replayed incident per runtime beyond Go: the captures of tests/fixtures/runtimes (a real
// order service per runtime, under the profiler the registries serve for it) served at their
// times through the profile store's querier endpoint, each under a name one of the profilers
// gives it: Alloy's eBPF default ("ebpf/<namespace>/<container>"), the relabelled
// "<namespace>/<container>", an SDK's own. The alert speaks of the Prometheus job; the message's
// first change must name the runtime's culprit, and no change the message names first is the
// runtime's own work (its GC, its JIT compiler, the interpreter's C functions).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { startPrometheus } from './fake-prometheus.mjs';
import { post, startNotifier, startSink, waitFor, webhook } from './helpers.mjs';
import { fired, MIN, HOUR, NOW, PER_REQUEST, startReplay } from './replay-world.mjs';

const d = await dataLayer();
const ONSET = NOW - 40 * MIN;
const file = (f) => join(ROOT, 'tests', 'fixtures', 'runtimes', f);

/** Each runtime's service: its name in the profile store, its alert's labels, its culprit. */
export const RUNTIME_INCIDENTS = [
  { runtime: 'CPython (py-spy)', stored: 'ebpf/shop/orders-py#replay', job: 'orders-py', namespace: 'shop', files: 'python/orders', culprit: 'log_order_debug (orders.py)' },
  { runtime: 'JVM (async-profiler)', stored: 'shop/orders-java#replay', job: 'orders-java', files: 'java/orders', culprit: 'Orders.signResponse' },
  { runtime: 'Node.js (@datadog/pprof)', stored: 'orders-node', job: 'orders-node', files: 'node/orders', culprit: 'validateEveryField' },
  { runtime: 'Ruby (rbspy)', stored: 'ebpf/logging/records-rb#replay', job: 'records-rb', namespace: 'logging', files: 'ruby/records', culprit: 'parse_every_field' },
  { runtime: '.NET (perf, CoreCLR\'s perf map)', stored: 'shop/orders-dotnet#replay', job: 'orders-dotnet', files: 'dotnet/orders', culprit: 'Orders::SignResponse(uint8[])' },
];

/** The service's timeline: 5-minute profiles from 3h before the onset, baseline then incident. */
function timeline({ stored, files }) {
  const out = [];
  for (let t = ONSET - 3 * HOUR; t < NOW + 5 * MIN; t += 5 * MIN) {
    out.push(`${stored}:cpu:${t}:${t + 5 * MIN}:${file(`${files}-${t < ONSET ? 'baseline' : 'incident'}.cpu.pb.gz`)}`);
  }
  return out;
}

describe('one replayed incident per runtime', () => {
  let replay;
  let sink;
  let prom;
  before(async () => {
    replay = await startReplay(RUNTIME_INCIDENTS.flatMap(timeline));
    sink = await startSink();
    const step = (t) => (t < ONSET ? 0.004 : 0.016);
    prom = await startPrometheus([
      [/^sum\(\(/, () => undefined],
      [/requests:rate5m/, () => 100],
      [/ratio_rate5m\{job="(orders|records)-/, step],
    ]);
  });
  after(async () => {
    replay?.close();
    await sink?.close();
    await prom?.close();
  });

  it('each message names its runtime\'s culprit first, per request; the runtime\'s own work is never first', async () => {
    const n = await startNotifier({ profilesUrl: replay.url, prometheusUrl: prom.url, slackUrl: sink.url, concurrency: 2 });
    try {
      const alerts = RUNTIME_INCIDENTS.map((r, i) => fired('CPUPerRequestRegression', r.job, ONSET, { fp: `c${i}`, labels: r.namespace ? { namespace: r.namespace } : {} }));
      await post(n.url, webhook(alerts));
      const msgs = await waitFor(() => {
        try {
          const m = readFileSync(join(n.notifier.cfg.outDir, 'messages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
          return m.length >= alerts.length && m;
        } catch {
          return false;
        }
      }, 300_000, `${alerts.length} messages`);
      for (const r of RUNTIME_INCIDENTS) {
        const m = msgs.find((x) => x.labels.job === r.job);
        assert.equal(m.reason, undefined, `${r.runtime}: ${m.reason}`);
        assert.equal(m.changes[0].function, r.culprit, `${r.runtime}: ${JSON.stringify(m.changes.slice(0, 3))}`);
        const line = m.payload.text.split('\n').find((l) => /^1\. /.test(l));
        assert.ok(line.includes(r.culprit), `${r.runtime}: ${line}`);
        assert.match(line, PER_REQUEST, r.runtime);
        // the runtime's and the profiler's rows come after every row of code, whatever their size
        const firstRuntime = m.changes.findIndex((c) => d.originOf(c.function));
        const lastCode = m.changes.findLastIndex((c) => !d.originOf(c.function));
        assert.ok(firstRuntime === -1 || firstRuntime > lastCode, `${r.runtime}: ${m.changes.map((c) => c.function).join(', ')}`);
        process.stdout.write(`# ${r.runtime} (${r.stored.split('#')[0]}): ${line}\n`);
      }
      // the eBPF names were found from the job alone
      assert.match(msgs.find((x) => x.labels.job === 'orders-py').payload.text, /log_order_debug/);
    } finally {
      await n.close();
    }
  });
});
