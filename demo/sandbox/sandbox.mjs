#!/usr/bin/env node
// The panel sandbox: the real built panel (plugin/dist/module.js) in a page that stands in
// for Grafana, on live data: time series from a real Prometheus (the overlay panel's own
// queries from dashboards/hotpath-service.json), profiles from the demo's profile-store (a
// stand-in for Pyroscope). See demo/README.md; tests/browser/sandbox.test.mjs tests it.
//
//   node demo/sandbox/sandbox.mjs --prometheus http://127.0.0.1:9090 --profiles http://127.0.0.1:9190 --listen 127.0.0.1:9300
//
// Flags default to $HOTPATH_PROMETHEUS_URL, $HOTPATH_PROFILES_URL and $HOTPATH_SANDBOX_ADDR
// (what `hotpath-demo run -sandbox CMD` sets). Prints "sandbox: <url>" once it listens;
// SIGINT / SIGTERM stop it.
import { cli } from '@hotpath/headless/cli.mjs';

import { createSandbox } from './server.mjs';

const USAGE = 'usage: node demo/sandbox/sandbox.mjs --prometheus URL --profiles URL [--listen 127.0.0.1:9300] [--dashboard dashboards/hotpath-service.json]';

const { args, fail } = cli('sandbox', USAGE, {
  prometheus: { type: 'string', default: process.env.HOTPATH_PROMETHEUS_URL },
  profiles: { type: 'string', default: process.env.HOTPATH_PROFILES_URL },
  listen: { type: 'string', default: process.env.HOTPATH_SANDBOX_ADDR || '127.0.0.1:9300' },
  dashboard: { type: 'string' },
});
if (!args.prometheus || !args.profiles) {
  fail('--prometheus and --profiles are required');
}
const m = /^([\w.-]+|\[[\d:a-f]+\]):(\d+)$/.exec(args.listen);
if (!m) {
  fail(`--listen ${args.listen}: want host:port, e.g. 127.0.0.1:9300`);
}
for (const [flag, v] of [['--prometheus', args.prometheus], ['--profiles', args.profiles]]) {
  try {
    new URL(v);
  } catch {
    fail(`${flag} ${v} is not a URL`);
  }
}

let sandbox;
try {
  sandbox = createSandbox({ prometheus: args.prometheus, profiles: args.profiles, dashboard: args.dashboard });
} catch (e) {
  fail(e.message, 1);
}
try {
  const url = await sandbox.listen(m[1], Number(m[2]));
  process.stdout.write(`sandbox: ${url} (Prometheus ${args.prometheus}, profile-store ${args.profiles}: the stand-in for Pyroscope)\n`);
} catch (e) {
  fail(e.code === 'EADDRINUSE' ? `${args.listen} is already in use (another sandbox?)` : e.message, 1);
}
const stop = async () => {
  await sandbox.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
