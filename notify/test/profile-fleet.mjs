// A stand-in Pyroscope for the profiles-to-metrics bridge: a fleet of services listed by
// LabelValues (Connect JSON), each answering SelectMergeProfile with a real captured profile
// (the println CPU capture, the gzip heap capture for alloc_space) or a fault of its own, and
// SelectSeries (Connect JSON) with the series of its endpoint labels (none by default). It
// runs in tests and in the scale benchmark's own process (bench/profile-metrics.mjs), so it
// loads nothing of node:test.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

import { fixturePath } from '../../tests/browser/lib/frames.mjs';
import { LABEL_VALUES, SELECT_SERIES } from '../lib/pyroscope-labels.mjs';
import { listen, readJSON } from './helpers.mjs';
import { selectMergeRequest } from './select-request.mjs';

/** The answer per profile type: the println incident (CPU) and the gzip incident (heap, alloc_space). */
export const FLEET_PROFILES = {
  cpu: gunzipSync(readFileSync(fixturePath('println-incident.cpu.pb.gz'))),
  alloc_space: readFileSync(fixturePath('gzip-incident.heap.pb.gz')),
};

const TYPE_OF = { 'process_cpu:cpu:nanoseconds:cpu:nanoseconds': 'cpu', 'memory:alloc_space:bytes:space:bytes': 'alloc_space' };

/**
 * @param {object} o
 * @param {string[]} o.services what LabelValues lists
 * @param {(q: { service, type, call, start, end }) => any} [o.answer] per query: undefined (the
 *   type's capture), 'down' (destroys the socket), 'stall' (headers, then nothing), 'empty' (0
 *   bytes: Pyroscope's answer for a window without samples), { status, body }, { raw: bytes },
 *   { delayMs } (then the capture)
 * @param {(q) => number} [o.delayMs] the time every answer takes (realistic answer times)
 * @param {(service, type) => Uint8Array} [o.profileFor] a service's answer (default FLEET_PROFILES[type])
 * @param {number} [o.labelsStatus] LabelValues' status (200 when undefined)
 * @param {(q: { service, type, start, end, groupBy, step }) => any} [o.seriesFor] SelectSeries'
 *   answer: an object (the JSON answer; default { series: [] }) or { status, body }
 * @returns the server, plus queries (every SelectMergeProfile: { service, type, start, end }),
 *   seriesQueries (every SelectSeries, likewise with groupBy and step), maxInFlight()
 */
export async function startFleet({ services, answer = () => undefined, delayMs = () => 0, profileFor = (service, type) => FLEET_PROFILES[type], labelsStatus = 200, seriesFor = () => ({ series: [] }) }) {
  const queries = [];
  const seriesQueries = [];
  const calls = new Map();
  let inFlight = 0;
  let maxInFlight = 0;
  let labelCalls = 0;
  const s = await listen(async (req, res) => {
    const body = await readJSON(req);
    if (req.url === LABEL_VALUES) {
      labelCalls++;
      const q = JSON.parse(body.toString('utf8'));
      const names = q.name === 'service_name' ? services : [];
      res.writeHead(labelsStatus, { 'content-type': 'application/json' }).end(labelsStatus === 200 ? JSON.stringify({ names }) : '{"code":"unavailable","message":"store is down"}');
      return;
    }
    if (req.url === SELECT_SERIES) {
      const q = JSON.parse(body.toString('utf8'));
      const sq = { service: /service_name="([^"]*)"/.exec(q.labelSelector)?.[1], type: TYPE_OF[q.profileTypeID], start: Number(q.start), end: Number(q.end), groupBy: q.groupBy, step: q.step };
      seriesQueries.push(sq);
      const a = seriesFor(sq);
      res.writeHead(a?.status ?? 200, { 'content-type': 'application/json' }).end(a?.status ? (a.body ?? '') : JSON.stringify(a));
      return;
    }
    const r = selectMergeRequest(body);
    const service = /service_name="([^"]*)"/.exec(r.labelSelector)?.[1];
    const type = TYPE_OF[r.profileTypeID];
    const key = `${service}/${type}`;
    const call = calls.get(key) ?? 0;
    calls.set(key, call + 1);
    const q = { service, type, call, start: r.start, end: r.end };
    queries.push(q);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const a = answer(q);
      const wait = (a?.delayMs ?? 0) + delayMs(q);
      if (wait) {
        await new Promise((ok) => setTimeout(ok, wait));
      }
      if (a === 'down') {
        req.socket.destroy();
      } else if (a === 'stall') {
        res.writeHead(200, { 'content-type': 'application/proto' });
        res.flushHeaders();
        await new Promise((ok) => res.on('close', ok));
      } else if (a === 'empty') {
        res.writeHead(200, { 'content-type': 'application/proto' }).end();
      } else if (a?.status) {
        res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body ?? '');
      } else if (a?.raw) {
        res.writeHead(200, { 'content-type': 'application/proto' }).end(a.raw);
      } else {
        res.writeHead(200, { 'content-type': 'application/proto' }).end(profileFor(service, type));
      }
    } finally {
      inFlight--;
    }
  });
  return { ...s, queries, seriesQueries, maxInFlight: () => maxInFlight, labelCalls: () => labelCalls };
}
