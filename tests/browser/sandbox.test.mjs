// The panel sandbox without the whole playground: a fake Prometheus + profile-store serving
// the real pprof captures (lib/fake-demo.mjs), the sandbox server (demo/sandbox/sandbox.mjs) in front of
// it, and demo-check (the demo-test's browser check) run against it as a command.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { CACHE_DIR, ROOT } from '@hotpath/headless/env.mjs';
import { startFakeDemo } from './lib/fake-demo.mjs';

const MIN = 60_000;
const now = Date.now();
// the fake's timeline: profiles from 50 minutes ago, every incident 20 minutes ago, its alert
// pending 3 minutes later
const T = { profilesFrom: now - 50 * MIN, incidentFrom: now - 20 * MIN, alertFrom: now - 17 * MIN };
const OUT = join(CACHE_DIR, 'screenshots', 'sandbox');
const SANDBOX = join(ROOT, 'demo', 'sandbox', 'sandbox.mjs');
const DEMO_CHECK = join(ROOT, 'demo', 'sandbox', 'demo-check.mjs');

let fake;
let sandbox;
let sandboxURL;
const tmp = mkdtempSync(join(tmpdir(), 'hotpath-sandbox-test-'));

/** Runs a command to its end (bounded); resolves to { code, stdout, stderr }. */
function run(args, { env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const check = (extra) => run([DEMO_CHECK, '--sandbox', sandboxURL, ...extra]);

before(async () => {
  fake = await startFakeDemo(T);
  // the sandbox as the playground starts it: a command with its flags, printing its URL
  sandbox = spawn(process.execPath, [SANDBOX, '--prometheus', fake.url, '--profiles', fake.url, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  sandbox.stderr.on('data', (d) => (err += d));
  sandboxURL = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start in 60s: ${err}`)), 60_000);
    let out = '';
    sandbox.stdout.on('data', (d) => {
      out += d;
      const m = /^sandbox: (http:\/\/\S+)/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    sandbox.on('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${err}`)));
  });
});

after(async () => {
  sandbox?.kill('SIGTERM');
  await fake?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the sandbox server', () => {
  it('serves the page, named after its stand-ins', async () => {
    const html = await (await fetch(sandboxURL)).text();
    assert.match(html, /<title>hotpath sandbox: the real panel on live Prometheus and profile-store \(stand-ins for Grafana and Pyroscope\)<\/title>/);
  });

  it("answers the dashboard's overlay queries: Prometheus series as frames, the profile through the plugin's conversion", async () => {
    const cfg = await (await fetch(new URL('/api/config', sandboxURL))).json();
    assert.deepEqual(cfg.panel.targets.map((t) => t.refId), ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    // G: the request rate of each endpoint, for the panel's endpoint filter
    assert.equal(cfg.panel.options.endpointRequestsRefId, 'G');
    assert.match(cfg.panel.targets[6].expr, /^sum by \(endpoint\) \(job_endpoint:requests:rate5m\{/);
    assert.deepEqual(cfg.panel.options.seriesRefIds, ['A', 'D', 'E']);
    const res = await fetch(new URL('/api/query', sandboxURL), { method: 'POST', body: JSON.stringify({ targets: cfg.panel.targets, from: now - 60 * MIN, to: now, service: 'api' }) });
    const out = await res.json();
    assert.deepEqual(out.errors, []);
    const byRef = (r) => out.data.filter((f) => f.refId === r);
    assert.equal(byRef('A')[0].fields[1].config.unit, 's');
    assert.equal(byRef('D')[0].fields[1].config.unit, 'reqps');
    // F: one request rate per instance, for the siblings baseline
    assert.deepEqual(byRef('F').map((f) => [f.fields[1].labels.instance, f.fields[1].config.unit]), [['api-0', 'reqps'], ['api-1', 'reqps']]);
    assert.deepEqual(byRef('B').map((f) => f.fields[1].labels.alertstate), ['pending', 'firing']);
    assert.equal(byRef('B')[0].name, 'CPUPerRequestAboveUpstream');
    const profile = byRef('C')[0];
    assert.equal(profile.meta.preferredVisualisationType, 'flamegraph');
    assert.deepEqual(profile.fields.map((f) => f.name), ['level', 'value', 'self', 'label']);
    assert.equal(profile.fields[1].config.unit, 'ns');
    // the panel's variables reached the queries
    assert.ok(fake.calls.queryRange.some((q) => q.startsWith('job:cpu_seconds_per_request:ratio_rate5m{') && q.includes('job="api"') && q.includes('cluster=~".*"')), fake.calls.queryRange.join('\n'));
    assert.ok(fake.calls.profile.some((p) => p.service === 'api' && p.type === 'cpu'));
  });

  it('a window without samples is an empty answer, an unknown service an error naming it', async () => {
    const cfg = await (await fetch(new URL('/api/config', sandboxURL))).json();
    const C = cfg.panel.targets.find((t) => t.refId === 'C');
    const empty = await (await fetch(new URL('/api/query', sandboxURL), { method: 'POST', body: JSON.stringify({ targets: [C], from: now - 120 * MIN, to: now - 110 * MIN, service: 'api' }) })).json();
    assert.deepEqual(empty, { data: [], errors: [] });
    const unknown = await (await fetch(new URL('/api/query', sandboxURL), { method: 'POST', body: JSON.stringify({ targets: [C], from: now - 10 * MIN, to: now, service: 'nope' }) })).json();
    assert.match(unknown.errors[0].message, /profile-store: HTTP 404: unknown service "nope"/);
  });

  it('refuses bad flags with a usage line', async () => {
    const r = await run([SANDBOX, '--prometheus', 'not a url', '--profiles', fake.url]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--prometheus not a url is not a URL/);
  });
});

describe('demo-check against the sandbox', () => {
  it('println: drags the incident window, the diff tops with the text marshalling', async () => {
    const r = await check(['--service', 'api', '--from', String(now - 15 * MIN), '--to', String(now - 2 * MIN), '--type', 'cpu', '--expect', 'internal/encoding/text\\.appendString', '--out', join(OUT, 'println')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^demo-check: PASS api \(cpu\): the biggest increase is google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString \(\+\d+\.\d\d pp\)/m);
    const result = JSON.parse(readFileSync(join(OUT, 'println', 'result.json'), 'utf8'))[0];
    assert.equal(result.screenshots.length, 4);
    // the automatic baseline: as long as the selection, ending where the alert went pending
    assert.ok(result.windows.baseline.to <= T.alertFrom + 15_000 && result.windows.baseline.to >= T.alertFrom - 15_000, JSON.stringify(result.windows));
  });

  it('gzip: alloc_space with a baseline dragged by hand (Shift)', async () => {
    const r = await check([
      '--service', 'gzipper', '--from', String(now - 15 * MIN), '--to', String(now - 5 * MIN),
      '--baseline-from', String(now - 40 * MIN), '--baseline-to', String(now - 30 * MIN),
      '--type', 'alloc_space', '--expect', 'compress/flate', '--out', join(OUT, 'gzip'),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /PASS gzipper \(alloc_space\): the biggest increase is compress\/flate\./);
  });

  it('fails, naming the biggest change, when it does not match', async () => {
    const r = await check(['--service', 'api', '--from', String(now - 15 * MIN), '--to', String(now - 2 * MIN), '--expect', 'flate', '--out', join(OUT, 'mismatch')]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^demo-check: FAIL api \(cpu\): the biggest increase is google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString .* does not match \/flate\//m);
    assert.match(r.stdout, /^demo-check: FAIL: 1 of 1 failed/m);
  });

  it('fails with the panel\'s words when the baseline has no samples', async () => {
    const r = await check(['--service', 'api', '--from', String(now - 52 * MIN), '--to', String(now - 45 * MIN), '--expect', 'x', '--out', join(OUT, 'empty')]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /FAIL api \(cpu\): the baseline's profile: empty: No samples in /);
  });

  it("every incident of a demo-test run (HOTPATH_INCIDENTS, the orchestrator's seam)", async () => {
    const file = join(tmp, 'incidents.json');
    const inc = (Story, Service, Alert) => ({ Story, Service, Alert, FromMs: T.incidentFrom, ToMs: now - MIN });
    writeFileSync(file, JSON.stringify([inc('println', 'api', 'CPUPerRequestAboveUpstream'), inc('epoll', 'poller', 'CPUNotTrackingLoad'), inc('cfs', 'worker', 'CPUThrottlingSustained')]));
    const r = await run([DEMO_CHECK, '--out', join(OUT, 'incidents')], { env: { HOTPATH_INCIDENTS: file, HOTPATH_SANDBOX_URL: sandboxURL, HOTPATH_PROMETHEUS_URL: fake.url, HOTPATH_PROFILES_URL: fake.url } });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /PASS println\/api \(cpu\): .*the headline blames per request: "CPU \+\d+% = load.*; summary\.json too \(\d+ -> \d+ requests\)/);
    assert.match(r.stdout, /PASS epoll\/poller \(cpu\): the biggest increase is .*(EpollWait|Syscall6|epoll)/);
    assert.match(r.stdout, /SKIP cfs\/worker: CFS throttling is a property of the cgroup/);
    assert.match(r.stdout, /^demo-check: PASS: 2 checks passed, 1 skipped/m);
  });

  it('--driver: fails when the headline blames the other side (println is per request, not load)', async () => {
    const r = await check(['--service', 'api', '--from', String(now - 15 * MIN), '--to', String(now - 2 * MIN), '--expect', 'appendString', '--driver', 'load', '--out', join(OUT, 'driver')]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^demo-check: FAIL api \(cpu\): the headline should blame load, it says per request: "CPU \+\d+% = load/m);
  });

  it('--rank abs checks the table\'s own order (the largest change either way)', async () => {
    const r = await check(['--service', 'api', '--from', String(now - 15 * MIN), '--to', String(now - 2 * MIN), '--expect', 'appendString', '--rank', 'abs', '--out', join(OUT, 'abs')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /PASS api \(cpu\): the biggest change is google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString/);
  });

  it('usage errors exit 2', async () => {
    const r = await check(['--service', 'api', '--from', 'yesterday', '--to', '1', '--expect', 'x']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--from yesterday: want unix milliseconds/);
  });
});
