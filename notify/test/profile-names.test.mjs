// The bridge and the receiver on profiles named as the eBPF profilers name them, from runtimes
// beyond Go: the captures of tests/fixtures/runtimes listed as Alloy's pyroscope.ebpf names them
// by default ("ebpf/<namespace>/<container>"), as Grafana's examples relabel them
// ("<namespace>/<container>"), as an SDK does, and as Pyroscope names an OTLP profile without
// service.name. Each is counted under its Prometheus job; the runtime's own rows carry origin.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { ROOT } from '@hotpath/headless/env.mjs';
import { COST_METRICS, OTHER } from '../lib/bridge-metrics.mjs';
import { ProfileMetrics } from '../lib/profile-metrics.mjs';
import { ebpfSelector, matcher, serviceOfName } from '../lib/service-names.mjs';
import { startFleet } from './profile-fleet.mjs';

const T = Date.UTC(2026, 0, 15, 10, 0, 0);
const capture = (f) => readFileSync(join(ROOT, 'tests', 'fixtures', 'runtimes', `${f}-incident.cpu.pb.gz`));
const STORED = { 'ebpf/shop/orders-py': capture('python/orders'), 'shop/orders-java': capture('java/orders'), 'orders-node': capture('node/orders'), 'records-rb': capture('ruby/records'), 'ebpf/shop/orders-dotnet': capture('dotnet/orders') };

function samples(text) {
  return text
    .split('\n')
    .map((line) => /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line))
    .filter(Boolean)
    .map((m) => ({ name: m[1], labels: Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]])), value: Number(m[3]) }));
}

describe('service names', () => {
  it('each profiler\'s name for a service is the job it stands for; Pyroscope\'s unknown_service is none', () => {
    assert.deepEqual(serviceOfName('ebpf/shop/api'), { job: 'api', namespace: 'shop' }, "Alloy's pyroscope.ebpf default");
    assert.deepEqual(serviceOfName('shop/api'), { job: 'api', namespace: 'shop' }, 'the relabelled namespace/container');
    assert.deepEqual(serviceOfName('api'), { job: 'api' }, "an SDK's, or service.name");
    assert.equal(serviceOfName('unknown_service:java'), undefined, 'an OTLP profile without service.name');
    assert.equal(serviceOfName('unknown_service'), undefined);
    assert.deepEqual(serviceOfName('a/b/c/d'), { job: 'a/b/c/d' }, 'no eBPF shape: its own name');
  });

  it('an alert\'s eBPF selector: its namespace when it has one, any otherwise; values are literals, not patterns', () => {
    assert.equal(ebpfSelector('api', 'shop'), '{service_name=~"(ebpf/)?shop/api"}');
    assert.equal(ebpfSelector('api'), '{service_name=~"(ebpf/)?[^/]+/api"}');
    assert.equal(ebpfSelector('a.b+c'), '{service_name=~"(ebpf/)?[^/]+/a\\\\.b\\\\+c"}');
    const re = (sel) => new RegExp(`^(?:${JSON.parse(sel.slice('{service_name=~'.length, -1))})$`);
    assert.ok(re(ebpfSelector('api', 'shop')).test('ebpf/shop/api') && re(ebpfSelector('api', 'shop')).test('shop/api'));
    assert.ok(!re(ebpfSelector('api', 'shop')).test('ebpf/other/api') && !re(ebpfSelector('api')).test('ebpf/shop/api2') && !re(ebpfSelector('api')).test('api'));
    assert.equal(matcher('k8s.deployment.name', 'api'), '"k8s.deployment.name"="api"');
    assert.equal(matcher('service_name', 'a"b'), 'service_name="a\\"b"');
  });
});

describe('the bridge on eBPF-named profiles of runtimes beyond Go', () => {
  const servers = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  it('counts each under its job, with the runtime\'s own work as origin="runtime" and the culprit as code; unknown_service is skipped and counted', async () => {
    const f = await startFleet({ services: [...Object.keys(STORED), 'unknown_service:java'], profileFor: (service) => STORED[service] });
    servers.push(f);
    const logs = [];
    const bridge = new ProfileMetrics({ profilesUrl: f.url, now: () => T, log: (l) => logs.push(l), lagMs: 0, topK: 50, types: ['cpu'] });
    await bridge.round();
    const all = samples(await bridge.metrics());
    const cost = all.filter((s) => s.name === COST_METRICS.cpu.name);
    assert.deepEqual([...new Set(cost.map((s) => s.labels.job))].sort(), ['orders-dotnet', 'orders-java', 'orders-node', 'orders-py', 'records-rb']);
    const row = (job, fn) => cost.find((s) => s.labels.job === job && s.labels.function === fn);
    // per job: its culprit, a row of the runtime's own work, and the names only the runtime has
    for (const [job, culprit, runtime, runtimeOnly] of [
      ['orders-py', 'log_order_debug (orders.py)', undefined, /\(lib(python|c)[\w.]*\.so/],
      ['orders-java', 'Orders.signResponse', 'CompileBroker::compiler_thread_loop', /::/],
      ['orders-node', 'validateEveryField', 'Garbage Collection', /^\((idle|program)\)$/],
      // rbspy reads Ruby's stack only: the VM's C methods are beneath a Ruby method, charged to it
      ['records-rb', 'parse_every_field', undefined, /\[c function\]$/],
      ['orders-dotnet', 'Orders::SignResponse(uint8[])', 'TieredCompilationManager::StaticOptimizeMethodsCallback (libcoreclr.so)', /\((libcoreclr|libclrjit|libc)[\w.]*\.so\)$|\[kernel\.kallsyms\]/],
    ]) {
      assert.ok(row(job, culprit)?.value > 0, `${job}: ${culprit}`);
      assert.equal(row(job, culprit).labels.origin, undefined, `${job}: the culprit is code`);
      if (runtime) {
        assert.equal(row(job, runtime)?.labels.origin, 'runtime', `${job}: ${runtime}`);
      }
      // no C++ function of the JVM's threads, no libpython function, no C method of Ruby's, no
      // function of CoreCLR's or the kernel's has a row of its own as code
      for (const s of cost.filter((x) => x.labels.job === job && x.labels.function !== OTHER && !x.labels.origin)) {
        assert.doesNotMatch(s.labels.function, runtimeOnly, `${job}: ${s.labels.function} is the runtime's, not code`);
      }
    }
    assert.equal(f.queries.filter((q) => q.service === 'unknown_service:java').length, 0);
    assert.equal(all.find((s) => s.name === 'hotpath_profile_metrics_services_skipped_total' && s.labels.reason === 'unnamed')?.value, 1);
    assert.match(logs.join('\n'), /no service in unknown_service:java: skipped \(point --service-label/);
  });

  it('--service-label: another label lists the services and selects them, its values the jobs', async () => {
    const asked = [];
    const bridge = new ProfileMetrics({ profilesUrl: 'http://127.0.0.1:9', now: () => T, lagMs: 0, types: ['cpu'], serviceLabel: 'k8s.deployment.name', services: ['orders-java'], select: async (_url, q) => (asked.push(q.labelSelector), { samples: 0, total: 0, read: undefined }) });
    await bridge.round();
    assert.deepEqual(asked, ['{"k8s.deployment.name"="orders-java"}']);
    assert.ok(samples(await bridge.metrics()).some((s) => s.name === COST_METRICS.cpu.name && s.labels.job === 'orders-java'));
  });
});
