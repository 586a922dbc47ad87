// Profile frames for the browser: pprof files decoded by the built plugin's own data layer
// (dist/hotpath-data.js, the host's module.hotpathData), served the way Grafana serves them: pprof -> tree ->
// flamebearer (Pyroscope) -> nested-set frame (flamebearerToFrame, Grafana's backend).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { FIXTURES_DIR } from '@hotpath/headless/env.mjs';

export const fixturePath = (name) => join(FIXTURES_DIR, name);

/** The overlay tests' clock: minute m after 2026-01-15 10:00 UTC. */
export const MIN = 60_000;
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
export const at = (m) => T0 + m * MIN;

/** The service dashboard's profile query (refId C), as Grafana's Pyroscope datasource takes it. */
export const PROFILE_TARGET = {
  refId: 'C',
  datasource: { type: 'grafana-pyroscope-datasource', uid: '${profiles}' },
  queryType: 'profile',
  profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
  labelSelector: '{service_name="$job"}',
  groupBy: [],
};
/** The overlay panel's targets on the service dashboard: CPU per request (A), ALERTS (B), profiles (C). */
export const OVERLAY_TARGETS = [
  { refId: 'A', datasource: { type: 'prometheus', uid: '${datasource}' }, expr: 'job:cpu_seconds_per_request:ratio_rate5m{job="$job"}' },
  { refId: 'B', datasource: { type: 'prometheus', uid: '${datasource}' }, expr: 'ALERTS{job="$job"}' },
  PROFILE_TARGET,
];

/** Decodes a pprof file in the page; resolves to { frame, sampleTypes, sampleType, unit } or { error }. */
export function pprofFrame(page, file, { sampleType, refId = 'A' } = {}) {
  const b64 = readFileSync(file).toString('base64');
  return page.evaluate(
    ({ b64, sampleType, refId }) => {
      const d = window.hotpathHost.module.hotpathData;
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      try {
        const p = d.pprofToTree(bytes, sampleType || undefined);
        const frame = d.flamebearerToFrame(d.treeToFlamebearer(p.tree), p.unit, { refId });
        return { frame, sampleTypes: p.sampleTypes, sampleType: p.sampleType, unit: p.unit };
      } catch (e) {
        return { error: e.message };
      }
    },
    { b64, sampleType, refId }
  );
}

/** Decodes fixtures in the page: { name: file } to { name: frame }; throws the decoder's error. */
export async function fixtureFrames(page, files, { sampleType, refId }) {
  const frames = {};
  for (const [name, file] of Object.entries(files)) {
    const r = await pprofFrame(page, fixturePath(file), { sampleType, refId });
    if (!r.frame) {
      throw new Error(`${file}: ${r.error}`);
    }
    frames[name] = r.frame;
  }
  return frames;
}

/** A time-series frame as Grafana's Prometheus datasource returns one (time + one number field). */
export function timeSeriesFrame({ refId, name, times, values, unit, labels }) {
  return {
    refId,
    name,
    fields: [
      { name: 'Time', type: 'time', values: times, config: {} },
      { name: 'Value', type: 'number', values, labels, config: { unit, displayNameFromDS: name } },
    ],
  };
}

/** A request rate (req/s) from `from` to `to`, every 15s: `before` until `changeAt`, `after` from it. */
export function requestRateFrame({ refId, name, from, to, changeAt, before, after, labels }) {
  const times = [];
  for (let t = from; t <= to; t += 15_000) {
    times.push(t);
  }
  return timeSeriesFrame({ refId, name, times, values: times.map((t) => (t >= changeAt ? after : before)), unit: 'reqps', labels });
}

/**
 * A story's strip: CPU per request over the range, higher from `incidentFrom`, and the ALERTS
 * series of its alert from `alertFrom` (pending, then firing after `forMs`).
 */
export function storySeries({ from, to, incidentFrom, alertFrom, forMs = 5 * 60_000, step = 15_000, alertname = 'CPUPerRequestAboveUpstream', job = 'api' }) {
  const times = [];
  const cpu = [];
  for (let t = from; t <= to; t += step) {
    times.push(t);
    const wobble = 0.0004 * Math.sin(t / 97_000);
    cpu.push((t >= incidentFrom ? 0.009 : 0.0025) + wobble);
  }
  const pending = times.filter((t) => t >= alertFrom && t < alertFrom + forMs);
  const firing = times.filter((t) => t >= alertFrom + forMs);
  const alert = (state, ts) => timeSeriesFrame({ refId: 'B', name: alertname, times: ts, values: ts.map(() => 1), labels: { alertname, alertstate: state, job } });
  return [timeSeriesFrame({ refId: 'A', name: 'CPU per request', times, values: cpu, unit: 's' }), alert('pending', pending), alert('firing', firing)];
}
