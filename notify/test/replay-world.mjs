// The replayed world of the playground's incidents, shared by the replay tests and the latency
// benchmark: the committed captures (tests/fixtures) served at their times through the profile
// store's querier endpoint (demo/cmd/profile-replay), the alerts' series and request rates from a
// stand-in Prometheus, and the alerts timed as the shipped rule pack fires them.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ROOT } from '@hotpath/headless/env.mjs';
import { alert, waitFor } from './helpers.mjs';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const NOW = Date.now();
const fixture = (name) => join(ROOT, 'tests', 'fixtures', name);

/**
 * The timeline of one service as the profile store keeps it: 5-minute profiles from 3h before
 * the onset on (a window merges what it overlaps, so an edge takes at most one 5m piece of the
 * other side), the healthy capture before the onset, the incident's from it (`incidentCopies`
 * times: more traffic through the same code); one healthy profile for the week before.
 */
export function captures(service, story, kind, onset, { incidentStory = story, incidentCopies = 1 } = {}) {
  const ext = kind === 'cpu' ? 'cpu' : 'heap';
  const healthy = fixture(`${story}-baseline.${ext}.pb.gz`);
  const sick = fixture(`${incidentStory}-incident.${ext}.pb.gz`);
  const out = [`${service}:${kind}:${NOW - 8 * DAY}:${onset - 3 * HOUR}:${healthy}`];
  for (let t = onset - 3 * HOUR; t < NOW + 5 * MIN; t += 5 * MIN) {
    const copies = t < onset ? 1 : incidentCopies;
    for (let i = 0; i < copies; i++) {
      out.push(`${service}:${kind}:${t}:${t + 5 * MIN}:${t < onset ? healthy : sick}`);
    }
  }
  return out;
}

/** A service's incidents, at most one per service; onset and firing time in ms before NOW. */
export const ONSET = {
  println: NOW - 40 * MIN, // fired at onset + 5m (rate window) + 15m (for:), received at once
  gzip: NOW - 40 * MIN,
  epoll: NOW - 5 * HOUR, // the busy loop's alert fires hours after its onset
  epollShort: NOW - 40 * MIN, // a busy loop in a profile source that keeps 3h (the playground's)
  restarted: NOW - 3 * HOUR, // fired at onset + 20m; the receiver, restarted, sees it now
  outlier: NOW - 40 * MIN,
  doubled: NOW - 40 * MIN,
};

/** Builds and starts profile-replay with the given -profile specs: { url, close }. */
export async function startReplay(specs) {
  const replayDir = mkdtempSync(join(tmpdir(), 'hotpath-replay-'));
  const bin = join(ROOT, '.cache', 'profile-replay');
  execFileSync('go', ['build', '-o', bin, './cmd/profile-replay'], { cwd: join(ROOT, 'demo'), stdio: 'inherit', timeout: 300_000 });
  const addrFile = join(replayDir, 'addr');
  const child = spawn(bin, ['-listen', '127.0.0.1:0', '-addr-file', addrFile, ...specs.flatMap((s) => ['-profile', s])], { stdio: ['ignore', 'inherit', 'inherit'] });
  const addr = await waitFor(() => existsSync(addrFile) && readFileSync(addrFile, 'utf8'), 30_000, 'profile-replay to listen');
  return { url: `http://${addr}`, close: () => child.kill('SIGTERM') };
}

/** The ratio series steps 4x at the onset; the request rate stays at 100 req/s unless `rate` says. */
export function prometheusRules() {
  const step = (onset, lo, hi) => (t) => (t < onset ? lo : hi);
  // a request rate as Prometheus records it (job:requests:rate5m): each point the mean of the 5
  // minutes before it, so a step in traffic is a 5-minute ramp
  const rate5m = (onset, lo, hi) => (t) => lo + (hi - lo) * Math.min(1, Math.max(0, (t - onset) / (5 * MIN)));
  return [
    // the change each firing message prices (the catalogue's `change` query, narrowed to the
    // alert): the busy loop's fixed cores, the println regression's CPU beyond its model; no
    // figure for the others
    [/^sum\(\(job:cpu_seconds:long_fixed[\s\S]*job="poller"/, () => 0.82],
    [/^sum\(\(\(\nquantile_over_time[\s\S]*job="api"/, () => 1.2],
    [/^sum\(\(/, () => undefined],
    [/requests:rate5m\{job="doubled"/, rate5m(ONSET.doubled, 100, 200)],
    [/instance:requests:rate5m\{job="outlier", instance!="i1"/, () => 200],
    [/requests:rate5m/, () => 100],
    [/cpu_seconds:rate5m\{job="poller"/, step(ONSET.epoll, 0.03, 0.85)],
    [/fixed_share\{job="poller"/, step(ONSET.epoll, 0.1, 0.95)],
    [/fixed_share\{job="poller3h"/, step(ONSET.epollShort, 0.1, 0.95)],
    [/ratio_rate5m\{job="doubled"/, () => 0.004],
    [/ratio_rate5m\{job="api"/, step(ONSET.println, 0.004, 0.016)],
    [/ratio_rate5m\{job="restarted"/, step(ONSET.restarted, 0.004, 0.016)],
    [/ratio_rate5m\{job="gzipper"/, step(ONSET.gzip, 20_000, 2_000_000)],
    [/ratio_rate5m\{job="outlier", instance="i1"/, step(ONSET.outlier, 0.004, 0.016)],
  ];
}

export const fired = (name, job, onset, { labels = {}, at = onset + 20 * MIN, fp } = {}) => alert({ alertname: name, job, fingerprint: fp, labels, startsAt: new Date(at).toISOString() });

export const PER_REQUEST = /[+−][\d.]+ (ns|µs|ms|s|B|KiB|MiB|GiB)\/req /;
export const ALERTS = [
  { story: 'println', alert: fired('CPUPerRequestRegression', 'api', ONSET.println, { fp: 'a1' }), culprit: /^google\.golang\.org\/protobuf\/internal\/encoding\/text\.appendString$/, unit: PER_REQUEST },
  { story: 'gzip allocations', alert: fired('AllocationsPerRequestRegression', 'gzipper', ONSET.gzip, { fp: 'a2' }), culprit: /^compress\/flate\.NewWriter$/, unit: PER_REQUEST },
  { story: 'epoll busy loop', alert: fired('CPUNotTrackingLoad', 'poller', ONSET.epoll, { fp: 'a3', at: NOW - 2 * MIN }), culprit: /\(\*EventLoop\)\.Run$/, unit: PER_REQUEST },
  { story: 'epoll, no profiles a day earlier', alert: fired('CPUNotTrackingLoad', 'poller3h', ONSET.epollShort, { fp: 'a6' }), culprit: /\(\*EventLoop\)\.Run$/, unit: PER_REQUEST },
  { story: 'println, receiver restarted mid-incident', alert: fired('CPUPerRequestRegression', 'restarted', ONSET.restarted, { fp: 'a4' }), culprit: /text\.appendString$/, unit: PER_REQUEST },
  { story: 'outlier instance', alert: fired('CPUPerRequestOutlier', 'outlier', ONSET.outlier, { fp: 'a5', labels: { instance: 'i1' } }), culprit: /text\.appendString$/ },
];

/** Every service's timeline: the -profile specs of profile-replay. */
export function worldSpecs() {
  return [
    ...captures('api', 'println', 'cpu', ONSET.println),
    ...captures('restarted', 'println', 'cpu', ONSET.restarted),
    ...captures('gzipper', 'gzip', 'alloc', ONSET.gzip),
    ...captures('poller', 'epoll', 'cpu', ONSET.epoll),
    ...captures('poller3h', 'epoll', 'cpu', ONSET.epollShort).slice(1),
    // the outlier instance runs the incident; its siblings stay healthy all along
    ...captures('outlier/i1', 'println', 'cpu', ONSET.outlier),
    ...captures('outlier/i2', 'println', 'cpu', NOW + DAY),
    ...captures('outlier/i3', 'println', 'cpu', NOW + DAY),
    // twice the traffic through the same code: the healthy capture, twice
    ...captures('doubled', 'println', 'cpu', ONSET.doubled, { incidentStory: 'println', incidentCopies: 2 }).map((x) => x.replace('println-incident', 'println-baseline')),
  ];
}
