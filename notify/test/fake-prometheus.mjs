// A stand-in for Prometheus's query_range and instant query on 127.0.0.1: each series is a
// function of time (unix ms -> value, or undefined for no point), picked by the first rule whose
// pattern matches the query. It records the queries it was asked.
import { listen } from './helpers.mjs';

/**
 * @param {Array<[RegExp, (ms: number) => number | undefined]>} rules
 */
export async function startPrometheus(rules) {
  const queries = [];
  const s = await listen((req, res) => {
    const u = new URL(req.url, 'http://x');
    const query = u.searchParams.get('query');
    if (u.pathname === '/api/v1/query') {
      const time = Number(u.searchParams.get('time')) * 1000;
      queries.push({ query, time });
      const rule = rules.find(([re]) => re.test(query));
      const v = rule?.[1](time);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: { resultType: 'vector', result: v === undefined ? [] : [{ metric: {}, value: [time / 1000, String(v)] }] } }));
      return;
    }
    if (u.pathname !== '/api/v1/query_range') {
      res.writeHead(404).end('not found');
      return;
    }
    const start = Number(u.searchParams.get('start')) * 1000;
    const end = Number(u.searchParams.get('end')) * 1000;
    const step = Number.parseFloat(u.searchParams.get('step')) * 1000;
    queries.push({ query, start, end, step });
    const rule = rules.find(([re]) => re.test(query));
    const values = [];
    for (let t = start; rule && t <= end; t += step) {
      const v = rule[1](t);
      if (v !== undefined) {
        values.push([t / 1000, String(v)]);
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: rule && values.length ? [{ metric: {}, values }] : [] } }));
  });
  return { ...s, queries };
}
