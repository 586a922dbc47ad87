// The panel sandbox's server: the host page rendering the real built panel, fed live by
// - the real Prometheus: the overlay panel's own queries (read from the generated dashboard,
//   dashboards/hotpath-service.json) as query_range, converted to Grafana data frames;
// - profile-store (the demo's stand-in for Pyroscope): the panel's Pyroscope query model
//   (labelSelector service_name="...", profileTypeId) answered with merged pprof, converted
//   to the nested-set frame by the plugin's own data layer, as Grafana's backend would.
// POST /api/query plays both Grafana's query runner (the dashboard range, every target) and
// the profile datasource's query() (a window, the profile target).
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// the page is the browser tests' host page (tests/browser/host) with the sandbox's bar
import { buildHost } from '@hotpath/headless/build.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { CACHE_DIR, DIST_DIR, ROOT } from '@hotpath/headless/env.mjs';
import { hostFiles } from '@hotpath/headless/server.mjs';

const SANDBOX_DIR = dirname(fileURLToPath(import.meta.url));

const TYPES = { '.js': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Pyroscope profile types -> profile-store types. */
export const PROFILE_TYPES = {
  'process_cpu:cpu:nanoseconds:cpu:nanoseconds': 'cpu',
  'memory:alloc_space:bytes:space:bytes': 'alloc_space',
  'memory:alloc_objects:count:space:bytes': 'alloc_objects',
};

export const DEFAULT_DASHBOARD = join(ROOT, 'dashboards', 'hotpath-service.json');

/** The overlay panel of a dashboard JSON (rows' panels included). */
export function overlayPanel(dashboardFile = DEFAULT_DASHBOARD) {
  const d = JSON.parse(readFileSync(dashboardFile, 'utf8'));
  const all = (ps) => ps.flatMap((p) => [p, ...all(p.panels ?? [])]);
  const p = all(d.panels ?? []).find((x) => x.type === 'hotpath-overlay-panel');
  if (!p) {
    throw new Error(`${dashboardFile} has no hotpath-overlay-panel`);
  }
  return { title: p.title, description: p.description, targets: p.targets, options: p.options, fieldConfig: p.fieldConfig ?? { defaults: {}, overrides: [] } };
}

/** `$name`, `${name}`, `${name:format}` as Grafana replaces plain values. */
export function interpolate(s, vars) {
  return typeof s !== 'string' ? s : s.replace(/\$\{(\w+)(?::\w+)?\}|\$(\w+)/g, (m, a, b) => (vars[a ?? b] !== undefined ? vars[a ?? b] : m));
}

/** The dashboard's variables for one service, as Grafana would set them with "All" clusters and namespaces. */
export function variablesFor(service, stepSeconds = 15) {
  return {
    job: service,
    cluster: '.*',
    namespace: '.*',
    datasource: 'prometheus',
    profiles: 'profile-store',
    __rate_interval: '1m',
    __interval: `${stepSeconds}s`,
  };
}

function unitFor(fieldConfig, refId) {
  let unit = fieldConfig?.defaults?.unit;
  for (const o of fieldConfig?.overrides ?? []) {
    if (o.matcher?.id === 'byFrameRefID' && o.matcher.options === refId) {
      for (const p of o.properties ?? []) {
        if (p.id === 'unit') {
          unit = p.value;
        }
      }
    }
  }
  return unit;
}

const legend = (format, labels) => (format ? format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k) => labels[k] ?? '') : `${labels.__name__ ?? ''}{${Object.entries(labels).filter(([k]) => k !== '__name__').map(([k, v]) => `${k}="${v}"`).join(', ')}}`);

const num = (v) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : null; // JSON has no NaN: a gap, as Grafana draws NaN
};

async function getJSON(url, what) {
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new Error(`${what} unreachable at ${new URL(url).origin}: ${e.cause?.code ?? e.message}`);
  }
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    throw new Error(`${what}: HTTP ${res.status}: ${body?.error ?? text.slice(0, 200)}`);
  }
  return body;
}

export function createSandbox({ prometheus, profiles, dashboard = DEFAULT_DASHBOARD }) {
  const panel = overlayPanel(dashboard);
  const prom = prometheus.replace(/\/$/, '');
  const store = profiles.replace(/\/$/, '');

  async function promFrames(target, from, to, vars, step) {
    const query = interpolate(target.expr, vars);
    const u = new URL(`${prom}/api/v1/query_range`);
    u.searchParams.set('query', query);
    u.searchParams.set('start', String(Math.floor(from / 1000 / step) * step));
    u.searchParams.set('end', String(Math.ceil(to / 1000 / step) * step));
    u.searchParams.set('step', String(step));
    const body = await getJSON(u, `Prometheus (query ${target.refId}: ${query})`);
    const unit = unitFor(panel.fieldConfig, target.refId);
    return (body.data?.result ?? []).map((s) => {
      const name = legend(target.legendFormat, s.metric);
      return {
        refId: target.refId,
        name,
        fields: [
          { name: 'Time', type: 'time', values: s.values.map(([t]) => Math.round(t * 1000)), config: {} },
          { name: 'Value', type: 'number', values: s.values.map(([, v]) => num(v)), labels: s.metric, config: { unit, displayNameFromDS: name } },
        ],
      };
    });
  }

  async function profileFrames(target, from, to, vars) {
    const selector = interpolate(target.labelSelector ?? '', vars);
    const service = /service_name\s*=\s*"([^"]*)"/.exec(selector)?.[1];
    if (!service) {
      throw new Error(`the profile-store stand-in needs service_name="..." in the label selector; got ${selector}`);
    }
    const type = PROFILE_TYPES[interpolate(target.profileTypeId, vars)];
    if (!type) {
      throw new Error(`the profile-store stand-in answers ${Object.keys(PROFILE_TYPES).join(', ')}; not ${target.profileTypeId}`);
    }
    const u = new URL(`${store}/profile`);
    u.search = new URLSearchParams({ service, type, from: String(Math.floor(from)), to: String(Math.ceil(to)) }).toString();
    let res;
    try {
      res = await fetch(u, { signal: AbortSignal.timeout(30_000) });
    } catch (e) {
      throw new Error(`profile-store unreachable at ${store}: ${e.cause?.code ?? e.message}`);
    }
    if (!res.ok) {
      const text = await res.text();
      let msg = text.slice(0, 300);
      try {
        msg = JSON.parse(text).error ?? msg;
      } catch {}
      // Pyroscope answers a window without samples with an empty profile, not an error
      if (res.status === 404 && /^no samples/.test(msg)) {
        return [];
      }
      throw new Error(`profile-store: HTTP ${res.status}: ${msg}`);
    }
    const d = await dataLayer();
    const p = d.pprofToTree(new Uint8Array(await res.arrayBuffer()), type);
    return [d.flamebearerToFrame(d.treeToFlamebearer(p.tree), p.unit, { refId: target.refId })];
  }

  /** { targets, from, to, service } -> { data: frames, errors: [{ refId, message }] }, each target on its own. */
  async function query({ targets, from, to, service, maxDataPoints = 600 }) {
    if (!(to > from)) {
      throw new Error(`bad range ${from}..${to}`);
    }
    const step = Math.max(15, Math.ceil((to - from) / 1000 / maxDataPoints / 15) * 15);
    const vars = variablesFor(service, step);
    const results = await Promise.all(
      (targets ?? []).map(async (t) => {
        try {
          const type = t.datasource?.type ?? '';
          if (/pyroscope|phlare/.test(type)) {
            return { frames: await profileFrames(t, from, to, vars) };
          }
          if (type === 'prometheus') {
            return { frames: await promFrames(t, from, to, vars, step) };
          }
          return { error: { refId: t.refId, message: `no stand-in for datasource type ${type}` } };
        } catch (e) {
          return { error: { refId: t.refId, message: e.message } };
        }
      })
    );
    return { data: results.flatMap((r) => r.frames ?? []), errors: results.flatMap((r) => (r.error ? [r.error] : [])) };
  }

  /** Services: profile-store's, with the jobs Prometheus has request rates for. */
  async function services() {
    const [store_, jobs] = await Promise.all([
      getJSON(`${store}/services`, 'profile-store').catch((e) => ({ error: e.message })),
      getJSON(`${prom}/api/v1/label/job/values?match[]=job:requests:rate5m`, 'Prometheus').catch((e) => ({ error: e.message })),
    ]);
    const names = new Set([...(Array.isArray(store_) ? store_.map((s) => s.service) : []), ...(jobs?.data ?? [])]);
    return {
      services: [...names].sort().map((name) => ({ name, profiles: Array.isArray(store_) ? store_.find((s) => s.service === name) ?? null : null, prometheus: (jobs?.data ?? []).includes(name) })),
      errors: [store_?.error, jobs?.error].filter(Boolean),
    };
  }

  const files = hostFiles({ index: join(SANDBOX_DIR, 'page.html'), hostJs: join(CACHE_DIR, 'sandbox.js') });

  const json = (res, code, body) => {
    res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    try {
      if (url.pathname === '/api/config') {
        return json(res, 200, { prometheus: prom, profiles: store, panel, profileTypes: PROFILE_TYPES });
      }
      if (url.pathname === '/api/services') {
        return json(res, 200, await services());
      }
      if (url.pathname === '/api/query' && req.method === 'POST') {
        let body = '';
        for await (const chunk of req) {
          body += chunk;
          if (body.length > 1 << 20) {
            return json(res, 413, { error: 'request too large' });
          }
        }
        return json(res, 200, await query(JSON.parse(body)));
      }
      const file = files(url.pathname);
      if (!file || !existsSync(file) || !statSync(file).isFile()) {
        return json(res, 404, { error: `not found: ${url.pathname}` });
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      createReadStream(file).pipe(res);
    } catch (e) {
      json(res, 500, { error: e.message });
    }
  });

  return {
    query,
    services,
    panel,
    /** builds the page bundle and listens; resolves to the sandbox URL */
    async listen(host = '127.0.0.1', port = 0) {
      if (!existsSync(join(DIST_DIR, 'module.js'))) {
        throw new Error('plugin/dist/module.js is missing: run `make plugin` first');
      }
      await buildHost('sandbox', join(SANDBOX_DIR, 'page.tsx'));
      await dataLayer();
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, resolve);
      });
      const a = server.address();
      return `http://${a.address}:${a.port}/`;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
