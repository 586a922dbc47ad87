/**
 * The sandbox page: the host page (host.tsx: the real plugin/dist/module.js with Grafana's
 * externals) plus a bar to pick the service, the profile type and the range, fed by the
 * sandbox server (server.mjs), which queries the real Prometheus and
 * profile-store. The URL keeps service/type/range (or from/to) next to the panel's own
 * hotpath-window/-baseline/-view, so a sandbox link reproduces a view.
 */
import '../../packages/headless/host/host';

import type { Host, RenderSpec } from '../../packages/headless/host/host';

interface Config {
  prometheus: string;
  profiles: string;
  panel: { title: string; targets: Array<Record<string, unknown> & { refId: string }>; options: Record<string, unknown> };
  profileTypes: Record<string, string>;
}

interface QueryResult {
  data: unknown[];
  errors: Array<{ refId: string; message: string }>;
}

const host = (window as unknown as { hotpathHost: Host }).hotpathHost;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const RANGES: Record<string, number> = { '15m': 15, '30m': 30, '1h': 60, '3h': 180, '6h': 360 };

async function post(path: string, body: unknown): Promise<QueryResult> {
  const res = await fetch(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const out = await res.json();
  if (!res.ok) {
    throw new Error(out.error ?? `HTTP ${res.status}`);
  }
  return out;
}

function status(text: string, error = false) {
  const s = $('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

function params() {
  return new URLSearchParams(window.location.search);
}

/** Sets sandbox parameters in the URL through Grafana's locationService (the panel's keys stay). */
function setParams(update: Record<string, string | null>) {
  host.runtime.locationService.partial(update, true);
}

function range(): { from: number; to: number } {
  const p = params();
  const from = Number(p.get('from'));
  const to = Number(p.get('to'));
  if (from > 0 && to > from) {
    return { from, to };
  }
  const minutes = RANGES[p.get('range') ?? '1h'] ?? 60;
  const now = Date.now();
  return { from: now - minutes * 60_000, to: now };
}

async function main() {
  await host.ready;
  const cfg: Config = await (await fetch('/api/config')).json();
  const svc: { services: Array<{ name: string; profiles: { types: string[] } | null; prometheus: boolean }>; errors: string[] } = await (await fetch('/api/services')).json();
  $('standins').textContent =
    `The real hotpath-overlay-panel (plugin/dist/module.js) in a page that stands in for Grafana. ` +
    `Time series: the real Prometheus at ${cfg.prometheus} (the panel's queries from dashboards/hotpath-service.json). ` +
    `Profiles: profile-store at ${cfg.profiles}, the demo's stand-in for Pyroscope (it holds only what it collected since it started).`;

  const p = params();
  const service = $<HTMLSelectElement>('service');
  const names = svc.services.map((s) => s.name);
  const wanted = p.get('service');
  if (wanted && !names.includes(wanted)) {
    names.unshift(wanted);
  }
  for (const n of names) {
    const s = svc.services.find((x) => x.name === n);
    const o = new Option(`${n}${s && !s.profiles ? ' (no profiles)' : ''}`, n);
    service.add(o);
  }
  service.value = wanted ?? svc.services.find((s) => s.profiles && s.prometheus)?.name ?? names[0] ?? '';
  const type = $<HTMLSelectElement>('type');
  for (const [profileTypeId, t] of Object.entries(cfg.profileTypes)) {
    type.add(new Option(t, profileTypeId));
  }
  const wantedType = Object.entries(cfg.profileTypes).find(([, t]) => t === p.get('type'))?.[0];
  type.value = wantedType ?? Object.keys(cfg.profileTypes)[0];
  const rangeSel = $<HTMLSelectElement>('range');
  for (const r of Object.keys(RANGES)) {
    rangeSel.add(new Option(`last ${r}`, r));
  }
  if (p.get('from') && p.get('to')) {
    rangeSel.add(new Option('from the URL', 'url'));
    rangeSel.value = 'url';
  } else {
    rangeSel.value = p.get('range') ?? '1h';
  }
  if (svc.errors.length) {
    status(svc.errors.join('; '), true);
  }

  const targets = () => {
    const profileRefId = (cfg.panel.options.profileRefId as string) || 'C';
    return cfg.panel.targets.map((t) => (t.refId === profileRefId ? { ...t, profileTypeId: type.value } : t));
  };

  // the profile datasource of the panel's window queries: the sandbox server, which asks profile-store
  host.useStandInDataSources([{ uid: 'profile-store', type: 'grafana-pyroscope-datasource', name: 'profile-store (stand-in for Pyroscope)' }], async (_uid, request) => {
    const r = request as { targets: unknown[]; range: { from: string; to: string } };
    const out = await post('/api/query', { targets: r.targets, from: Date.parse(r.range.from), to: Date.parse(r.range.to), service: service.value });
    return { data: out.data, error: out.errors[0] };
  });

  let generation = 0;
  const load = async () => {
    const mine = ++generation;
    document.body.dataset.state = 'loading';
    const { from, to } = range();
    status(`loading ${service.value}…`);
    try {
      const ts = targets();
      const out = await post('/api/query', { targets: ts, from, to, service: service.value });
      if (mine !== generation) {
        return;
      }
      const spec: RenderSpec = {
        series: out.data,
        errors: out.errors,
        targets: ts,
        options: cfg.panel.options,
        timeRange: { from, to },
        timeZone: 'browser',
        variables: { job: service.value, profiles: 'profile-store', datasource: 'prometheus', cluster: '.*', namespace: '.*' },
        width: Math.max(600, window.innerWidth - 16),
        height: Math.max(420, window.innerHeight - $('bar').offsetHeight - 16),
      };
      await host.render(spec);
      status(
        `${cfg.panel.title}: ${service.value}, ${new Date(from).toLocaleTimeString()}–${new Date(to).toLocaleTimeString()}` +
          (out.errors.length ? ` · ${out.errors.map((e) => `query ${e.refId}: ${e.message}`).join(' · ')}` : ''),
        out.errors.length > 0
      );
      document.body.dataset.state = 'done';
    } catch (e) {
      status((e as Error).message, true);
      document.body.dataset.state = 'error';
    }
  };

  service.onchange = () => {
    setParams({ service: service.value });
    load();
  };
  type.onchange = () => {
    setParams({ type: cfg.profileTypes[type.value] });
    load();
  };
  rangeSel.onchange = () => {
    setParams(rangeSel.value === 'url' ? {} : { range: rangeSel.value, from: null, to: null });
    load();
  };
  $('refresh').onclick = () => load();
  let resize: number | undefined;
  window.addEventListener('resize', () => {
    window.clearTimeout(resize);
    resize = window.setTimeout(load, 300);
  });
  setParams({ service: service.value, type: cfg.profileTypes[type.value] });
  await load();
}

main().catch((e) => {
  status(`the sandbox could not start: ${(e as Error).message}`, true);
  document.body.dataset.state = 'error';
});
