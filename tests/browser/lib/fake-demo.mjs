// A fake of the playground for the sandbox's tests (no Go, no Prometheus, no services): one
// HTTP server on 127.0.0.1 answering
// - the Prometheus API the sandbox uses (query_range, label values): the rule pack's recorded
//   series of a story (CPU per request that rises when its incident starts, request rate,
//   the same per instance, CPU) and its ALERTS series (pending, then firing);
// - profile-store's API (GET /profile, GET /services): the story's real pprof captures from
//   tests/fixtures, the incident capture for windows mostly after the incident started, the
//   healthy one before; 404 "no samples" for windows before the store's first profile.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { fixturePath } from './frames.mjs';

/** The fake's services: the stories with captures, by the playground's service names. */
export const FAKE_SERVICES = {
  api: { story: 'println', kind: 'cpu', files: ['println-baseline.cpu.pb.gz', 'println-incident.cpu.pb.gz'], alert: 'CPUPerRequestAboveUpstream' },
  poller: { story: 'epoll', kind: 'cpu', files: ['epoll-baseline.cpu.pb.gz', 'epoll-incident.cpu.pb.gz'], alert: 'CPUNotTrackingLoad' },
  gzipper: { story: 'gzip', kind: 'alloc', files: ['gzip-baseline.heap.pb.gz', 'gzip-incident.heap.pb.gz'], alert: 'AllocationsPerRequestRegression' },
};

const TYPE_KIND = { cpu: 'cpu', alloc_space: 'alloc', alloc_objects: 'alloc' };

/**
 * Starts the fake. `profilesFrom`: the store's first profile; `incidentFrom`: when every
 * story's incident starts; `alertFrom`: when its alert goes pending (firing 2 minutes later).
 */
export function startFakeDemo({ profilesFrom, incidentFrom, alertFrom }) {
  const captures = Object.fromEntries(Object.entries(FAKE_SERVICES).map(([s, d]) => [s, d.files.map((f) => readFileSync(fixturePath(f)))]));
  const calls = { queryRange: [], profile: [] };

  const series = (metric, job, start, end, step) => {
    const values = [];
    for (let t = start; t <= end; t += step) {
      const ms = t * 1000;
      const rps = 20 + 10 * Math.sin(ms / 600_000);
      const perReq = ms >= incidentFrom ? 0.009 : 0.0025;
      const v = metric === 'job:requests:rate5m' ? rps : metric === 'job:cpu_seconds:rate5m' ? rps * perReq : perReq;
      values.push([t, String(v)]);
    }
    return { metric: { __name__: metric, job }, values };
  };

  const alerts = (job, start, end, step) => {
    const d = FAKE_SERVICES[job];
    if (!d) {
      return [];
    }
    const out = [];
    for (const [state, from, to] of [
      ['pending', alertFrom, alertFrom + 120_000],
      ['firing', alertFrom + 120_000, Infinity],
    ]) {
      const values = [];
      for (let t = start; t <= end; t += step) {
        if (t * 1000 >= from && t * 1000 < to) {
          values.push([t, '1']);
        }
      }
      if (values.length) {
        out.push({ metric: { __name__: 'ALERTS', alertname: d.alert, alertstate: state, job, severity: 'warning' }, values });
      }
    }
    return out;
  };

  const json = (res, code, body) => {
    res.writeHead(code, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    const q = u.searchParams;
    if (u.pathname === '/api/v1/query_range') {
      const query = q.get('query') ?? '';
      calls.queryRange.push(query);
      const job = /job="([^"]*)"/.exec(query)?.[1] ?? '';
      const [start, end, step] = ['start', 'end', 'step'].map((k) => Number(q.get(k)));
      const metric = /^[\w:]+/.exec(query)?.[0] ?? '';
      let result = [];
      if (metric === 'ALERTS') {
        result = alerts(job, start, end, step);
      } else if (FAKE_SERVICES[job] && ['job:cpu_seconds_per_request:ratio_rate5m', 'job:requests:rate5m', 'job:cpu_seconds:rate5m'].includes(metric)) {
        result = [series(metric, job, start, end, step)];
      } else if (FAKE_SERVICES[job] && metric === 'instance:requests:rate5m') {
        // two instances, each half of the job's requests
        const job_ = series('job:requests:rate5m', job, start, end, step);
        result = [0, 1].map((i) => ({ metric: { __name__: metric, job, instance: `${job}-${i}` }, values: job_.values.map(([t, v]) => [t, String(Number(v) / 2)]) }));
      }
      return json(res, 200, { status: 'success', data: { resultType: 'matrix', result } });
    }
    if (u.pathname === '/api/v1/label/job/values') {
      return json(res, 200, { status: 'success', data: Object.keys(FAKE_SERVICES) });
    }
    if (u.pathname === '/services') {
      return json(
        res,
        200,
        Object.entries(FAKE_SERVICES).map(([service, d]) => ({
          service,
          types: d.kind === 'cpu' ? ['cpu'] : ['alloc_objects', 'alloc_space'],
          coverage: { [d.kind]: { profiles: 1, from_ms: profilesFrom, to_ms: Date.now() } },
        }))
      );
    }
    if (u.pathname === '/profile') {
      const service = q.get('service');
      const type = q.get('type');
      const from = Number(q.get('from'));
      const to = Number(q.get('to'));
      calls.profile.push({ service, type, from, to });
      const d = FAKE_SERVICES[service];
      if (!d) {
        return json(res, 404, { error: `unknown service "${service}" (GET /services lists them)` });
      }
      if (TYPE_KIND[type] !== d.kind) {
        return json(res, 404, { error: `no samples in this window: ${type} of ${service} between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}` });
      }
      if (!(to > from)) {
        return json(res, 400, { error: 'from must be before to' });
      }
      if (to <= profilesFrom) {
        return json(res, 404, { error: `no samples in this window: ${type} of ${service} between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}` });
      }
      const incident = (from + to) / 2 >= incidentFrom;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-profile-count': '1' });
      return res.end(captures[service][incident ? 1 : 0]);
    }
    json(res, 404, { error: `the fake has no ${u.pathname}` });
  });

  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}`;
      resolve({ url, calls, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
