#!/usr/bin/env node
// hotpath-profile-metrics: the profiles-to-metrics bridge. Reads each service's profile from
// Pyroscope every --interval and serves its cost by function as Prometheus counters on /metrics
// (lib/profile-metrics.mjs). A command of its own in the hotpath-notify package: it shares the
// receiver's Pyroscope client, decode worker and attribution, but needs neither Chromium nor the
// panel, and runs as its own process, so a slow round never delays an alert's message.
import './lib/core-ready.mjs';
import { createServer } from 'node:http';

import { cli } from '@hotpath/headless/cli.mjs';
import { flagReaders } from './lib/flags.mjs';
import { INSTANCE_ROW_LABEL } from './lib/endpoint-costs.mjs';
import { BRIDGE_DEFAULTS, ProfileMetrics } from './lib/profile-metrics.mjs';
import { PROFILE_TYPES } from './lib/catalogue.mjs';
import { sanitize } from './lib/slack-limits.mjs';

const USAGE = `usage: hotpath-profile-metrics --profiles URL [flags]
  --profiles URL        Pyroscope (its querier API) (default $HOTPATH_PROFILES_URL)
  --listen ADDR         where Prometheus scrapes GET /metrics (default 127.0.0.1:9096)
  --services A,B        read these service_name values (default: Pyroscope's LabelValues of
                        service_name, listed again every round)
  --service-label L     the profile label that names a service (default service_name: the SDKs'
                        application name, or Alloy's eBPF "ebpf/<namespace>/<container>", counted
                        under job=<container>); another label's values are jobs as they are, for the
                        OpenTelemetry eBPF profiler without service.name: k8s.deployment.name
  --max-services N      read at most N services a round, by name (default ${BRIDGE_DEFAULTS.maxServices}); the rest are counted skipped
  --interval DURATION   one query per service and profile type this often (default 1m)
  --lag DURATION        each window ends this long before now: profiles still being ingested (default 30s)
  --catch-up DURATION   after failed queries, the longest window asked at once (default 10m)
  --top-k N             functions with a series of their own per service and type, by the last
                        day's cost (default ${BRIDGE_DEFAULTS.topK}); the rest add up in function="other"
  --entry-share X       a function whose cost over the last --entry-window is at least this share
                        of its service's (0 < X < 1) gets its series at once, without waiting for
                        its day's cost to rank it (default ${BRIDGE_DEFAULTS.entryShare}); must equal the rules'
                        functionEntryShare, which the function alert judges a new function by
  --entry-window DURATION   the time constant of that short cost (default 10m)
  --endpoint-labels L,L the profile labels that name a sample's endpoint, most specific first (default
                        ${BRIDGE_DEFAULTS.endpointLabels.join(',')}: the rule pack's endpointProfileLabels); one more
                        query per service and type (SelectSeries grouped by them); '' for none
  --endpoint-top-k N    endpoints with a series of their own per service and type (default ${BRIDGE_DEFAULTS.endpointTopK});
                        the rest add up in endpoint="other", the samples without a label in "unlabelled"
  --instance-label L    the profile label that names the instance a sample came from (default
                        ${BRIDGE_DEFAULTS.instanceLabel}: the rule pack's profileInstanceLabel; pod on Kubernetes); its values are exported
                        per service as hotpath_profile_instance_*_total{job, ${INSTANCE_ROW_LABEL}} (the rule pack's
                        instanceLabel), the instances an endpoint's cost is divided by; '' for none
  --types T,T           profile types (default ${BRIDGE_DEFAULTS.types.join(',')}; of ${Object.keys(PROFILE_TYPES).join(', ')})
  --concurrency N       queries at once (default ${BRIDGE_DEFAULTS.concurrency})
  --fetch-timeout DURATION   one query (default 20s); --decode-timeout DURATION (default 20s)
  --max-mb N            the largest profile answer, in MiB on the wire and inflated (default 64)`;

const { args, fail } = cli('hotpath-profile-metrics', USAGE, {
  profiles: { type: 'string', default: process.env.HOTPATH_PROFILES_URL },
  listen: { type: 'string', default: '127.0.0.1:9096' },
  services: { type: 'string' },
  'service-label': { type: 'string', default: BRIDGE_DEFAULTS.serviceLabel },
  'max-services': { type: 'string', default: String(BRIDGE_DEFAULTS.maxServices) },
  interval: { type: 'string', default: '1m' },
  lag: { type: 'string', default: '30s' },
  'catch-up': { type: 'string', default: '10m' },
  'top-k': { type: 'string', default: String(BRIDGE_DEFAULTS.topK) },
  'entry-share': { type: 'string', default: String(BRIDGE_DEFAULTS.entryShare) },
  'entry-window': { type: 'string', default: '10m' },
  'endpoint-labels': { type: 'string', default: BRIDGE_DEFAULTS.endpointLabels.join(',') },
  'endpoint-top-k': { type: 'string', default: String(BRIDGE_DEFAULTS.endpointTopK) },
  'instance-label': { type: 'string', default: BRIDGE_DEFAULTS.instanceLabel },
  types: { type: 'string', default: BRIDGE_DEFAULTS.types.join(',') },
  concurrency: { type: 'string', default: String(BRIDGE_DEFAULTS.concurrency) },
  'fetch-timeout': { type: 'string', default: '20s' },
  'decode-timeout': { type: 'string', default: '20s' },
  'max-mb': { type: 'string', default: '64' },
});
const { duration, count, fraction } = flagReaders(args, fail);

if (!args.profiles || !/^https?:\/\//.test(args.profiles)) {
  fail('--profiles URL is required (Pyroscope, e.g. http://pyroscope:4040)');
}
const [host, port] = args.listen.split(/:(?=\d+$)/);
if (!host || !port) {
  fail(`--listen ${args.listen}: want HOST:PORT, e.g. 127.0.0.1:9096`);
}
const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
const types = list(args.types);
const unknown = types.find((t) => !PROFILE_TYPES[t]);
if (!types.length || unknown) {
  fail(`--types ${args.types}: want some of ${Object.keys(PROFILE_TYPES).join(', ')}`);
}
const services = args.services === undefined ? undefined : list(args.services);
if (services && !services.length) {
  fail('--services is empty: give service_name values, or drop the flag to list them from Pyroscope');
}
const intervalMs = duration('interval');
const catchUpMs = duration('catch-up');
if (catchUpMs < intervalMs) {
  fail(`--catch-up ${args['catch-up']} is shorter than --interval ${args.interval}: a window could never be read whole`);
}
const entryWindowMs = duration('entry-window');
if (!(entryWindowMs > 0)) {
  fail(`--entry-window ${args['entry-window']}: want a duration above 0, e.g. 10m`);
}
const log = (line) => process.stderr.write(`hotpath-profile-metrics: ${sanitize(String(line).replace(/[\r\n]+/g, ' '))}\n`);
const bridge = new ProfileMetrics({
  profilesUrl: args.profiles,
  services,
  log,
  types,
  intervalMs,
  lagMs: duration('lag'),
  maxCatchUpMs: catchUpMs,
  topK: count('top-k'),
  entryShare: fraction('entry-share'),
  entryWindowMs,
  endpointLabels: list(args['endpoint-labels']),
  endpointTopK: count('endpoint-top-k'),
  instanceLabel: args['instance-label'].trim(),
  concurrency: count('concurrency'),
  maxServices: count('max-services'),
  serviceLabel: args['service-label'],
  timeoutMs: duration('fetch-timeout'),
  decodeTimeoutMs: duration('decode-timeout'),
  maxBytes: count('max-mb') << 20,
});

const server = createServer(async (req, res) => {
  const path = req.url.split('?')[0];
  if (req.method === 'GET' && path === '/metrics') {
    try {
      const body = await bridge.metrics();
      res.writeHead(200, { 'content-type': bridge.registry.contentType }).end(body);
    } catch (e) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${e.message}\n`);
    }
    return;
  }
  if (req.method === 'GET' && path === '/-/healthy') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics or /-/healthy\n');
});
server.on('error', (e) => fail(`listen on ${args.listen}: ${e.message}`, 1));
server.listen(Number(port), host, () => {
  log(`serving http://${host}:${server.address().port}/metrics; profiles from ${args.profiles} every ${args.interval}; ${services ? `${services.length} service(s) listed` : 'services from Pyroscope'}; top ${args['top-k']} functions per service and type; endpoints by ${args['endpoint-labels'] || '(none)'}`);
  bridge.start();
});

async function shutdown(sig) {
  log(`${sig}: stopping after the running round`);
  server.close();
  await bridge.stop();
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => shutdown(sig));
}
