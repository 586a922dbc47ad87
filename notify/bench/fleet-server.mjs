// The scale benchmark's stand-in Pyroscope, in a process of its own so that its work is not
// counted as the bridge's: `node fleet-server.mjs SERVICES MEDIAN_MS` prints its URL on stdout.
// Answer times are log-normal around MEDIAN_MS (sigma 0.8: p90 ~2.8x, p99 ~6.4x the median), the
// spread of a querier merging a minute of one service's profiles. The profiles are real captures
// of the repository's corpus (CPU: Go, Java, Rust; alloc_space: Go heap), and every twentieth
// service is busy: a generated profile of ~20,000 nodes over 5,000 functions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { FIXTURES_DIR } from '@hotpath/headless/env.mjs';
import { generatePprof } from '../../tests/browser/lib/generate-pprof.mjs';
import { FLEET_PROFILES, startFleet } from '../test/profile-fleet.mjs';

const [count = '1000', median = '150'] = process.argv.slice(2);
const services = Array.from({ length: Number(count) }, (_, i) => `svc-${String(i).padStart(4, '0')}`);
const capture = (f) => readFileSync(join(FIXTURES_DIR, f));
const cpu = [
  FLEET_PROFILES.cpu,
  gunzipSync(capture('epoll-incident.cpu.pb.gz')),
  capture('corpus/java/cortex-dev-01__kafka-0__cpu_lock_alloc__0.cpu.pb.gz'),
  capture('corpus/java/example.cpu.pb.gz'),
  capture('corpus/rust/rust.cpu.pb.gz'),
];
const busy = generatePprof(20_000);
let seed = 7;
const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
const logNormal = () => Number(median) * Math.exp(0.8 * Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()));
const fleet = await startFleet({
  services,
  delayMs: logNormal,
  profileFor: (service, type) => {
    const i = Number(service.slice(4));
    if (type === 'alloc_space') {
      return FLEET_PROFILES.alloc_space;
    }
    return i % 20 === 0 ? busy : cpu[i % cpu.length];
  },
});
process.stdout.write(`${fleet.url}\n`);
