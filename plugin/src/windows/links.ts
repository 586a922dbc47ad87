/**
 * Links out of the panel with the same profile query and the same windows:
 * - Explore: one pane per window (baseline left, comparison right: Explore's split view);
 * - Profiles Drilldown (the grafana-pyroscope-app): its diff flame graph with the baseline and
 *   comparison ranges (diffFrom/diffTo and diffFrom-2/diffTo-2), or its flame graph of one window.
 * Pure: the caller passes the variable-interpolated query and Grafana's sub-path.
 */
import { urlUtil } from '@grafana/data';

import { TimeWindow } from '@hotpath/profile-core';

export interface LinkQuery {
  refId: string;
  datasource: { type?: string; uid?: string };
  profileTypeId?: string;
  labelSelector?: string;
  [key: string]: unknown;
}

/** Profiles Drilldown's plugin id: the link is offered only where Grafana lists this app as installed. */
export const DRILLDOWN_APP = 'grafana-pyroscope-app';
export const DRILLDOWN_PATH = `/a/${DRILLDOWN_APP}/explore`;

function pane(query: LinkQuery, w: TimeWindow) {
  return {
    datasource: query.datasource.uid,
    queries: [{ ...query, queryType: 'both' }],
    range: { from: String(w.from), to: String(w.to) },
  };
}

/** Explore with the comparison window (and the baseline in a split pane when there is one). */
export function exploreUrl(query: LinkQuery, comparison: TimeWindow, baseline?: TimeWindow, opts: { appSubUrl?: string; orgId?: number } = {}): string {
  const panes: Record<string, unknown> = {};
  if (baseline) {
    panes.baseline = pane(query, baseline);
  }
  panes.comparison = pane(query, comparison);
  const params: Record<string, string | number> = { schemaVersion: 1, panes: JSON.stringify(panes) };
  if (opts.orgId !== undefined) {
    params.orgId = opts.orgId;
  }
  return urlUtil.renderUrl(`${opts.appSubUrl ?? ''}/explore`, params);
}

export interface SelectorMatcher {
  label: string;
  op: string;
  value: string;
}

/** `{service_name="api", region=~"eu.*"}` -> its matchers; unreadable parts are skipped. */
export function parseLabelSelector(selector: string | undefined): SelectorMatcher[] {
  const out: SelectorMatcher[] = [];
  const re = /([a-zA-Z_][a-zA-Z0-9_.]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(selector ?? '')) !== null) {
    out.push({ label: m[1], op: m[2], value: m[3].replace(/\\(.)/g, '$1') });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Profiles Drilldown: the diff flame graph of baseline vs comparison, or the flame graph of
 * the comparison window alone. Undefined when the query names no service (service_name="...").
 */
export function drilldownUrl(query: LinkQuery, comparison: TimeWindow, baseline?: TimeWindow, opts: { appSubUrl?: string } = {}): string | undefined {
  const matchers = parseLabelSelector(query.labelSelector);
  const service = matchers.find((m) => m.label === 'service_name' && m.op === '=');
  if (!service || !query.profileTypeId) {
    return undefined;
  }
  const span = baseline ? { from: Math.min(baseline.from, comparison.from), to: Math.max(baseline.to, comparison.to) } : comparison;
  const params: Record<string, string | string[]> = {
    explorationType: baseline ? 'diff-flame-graph' : 'flame-graph',
    'var-serviceName': service.value,
    'var-profileMetricId': query.profileTypeId,
    'var-dataSource': query.datasource.uid ?? '',
    from: String(span.from),
    to: String(span.to),
  };
  const filters = matchers.filter((m) => m !== service).map((m) => `${m.label}|${m.op}|${m.value}`);
  if (filters.length) {
    params['var-filters'] = filters;
  }
  if (baseline) {
    Object.assign(params, {
      diffFrom: iso(baseline.from),
      diffTo: iso(baseline.to),
      'diffFrom-2': iso(comparison.from),
      'diffTo-2': iso(comparison.to),
      'from-2': String(baseline.from),
      'to-2': String(baseline.to),
      'from-3': String(comparison.from),
      'to-3': String(comparison.to),
    });
  }
  return urlUtil.renderUrl(`${opts.appSubUrl ?? ''}${DRILLDOWN_PATH}`, params);
}
