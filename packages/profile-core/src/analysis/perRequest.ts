/**
 * Per-request arithmetic: what one request costs, and how a change of a profile's total
 * splits into load (more requests) and efficiency (more per request). Pure: no React, no DOM.
 *
 *   total ratio = load ratio x per-request ratio          (exactly: per-request ratio is defined
 *   CPU_c / CPU_b = (req_c / req_b) x ((CPU_c/req_c) / (CPU_b/req_b))   as the quotient)
 *
 * A diff tree keeps its raw values (baseline in total/self, comparison in totalRight/selfRight);
 * a view in per-request units scales each side by 1 / its window's requests (perRequestTree).
 */
import { serviceCodeNames } from './attribution';
import { diffTrees } from './mergeDiff';
import { topTable } from './topTable';
import { isDiff, Tree } from '../tree/tree';

/** The unit every view shows values in: per request, absolute (the profile's unit), or share of each side's total. */
export const VALUE_UNITS = ['per-request', 'absolute', 'share'] as const;
export type ValueUnit = (typeof VALUE_UNITS)[number];

/** Why a window has no request count, each reason's words written once. */
const NO_COUNT_MESSAGES = {
  'no-series': "no request-rate series in the panel's queries (a query with unit req/s, or the Request-rate query option)",
  'no-samples': 'no request-rate samples in the window',
  'no-count': 'no request count',
  'no-window': 'no window',
  zero: 'zero requests in the window: per request is undefined',
} as const;
export type NoCountReason = keyof typeof NO_COUNT_MESSAGES;

/** A window's request count, or why there is none (the views then fall back to share). */
export type RequestCount = { ok: true; count: number } | { ok: false; reason: NoCountReason; message: string };

/** No count, for `reason`; `message` when the caller says more than the reason's own words. */
export function noCount(reason: NoCountReason, message: string = NO_COUNT_MESSAGES[reason]): RequestCount {
  return { ok: false, reason, message };
}

/** A count the arithmetic can divide by: finite and > 0. */
export function checkCount(count: number | undefined): RequestCount {
  if (count === undefined || !Number.isFinite(count)) {
    return noCount('no-count');
  }
  if (count <= 0) {
    return noCount('zero');
  }
  return { ok: true, count };
}

/** Request counts of the two sides of a comparison (the baseline and the selection). */
export interface RequestCounts {
  baseline: RequestCount;
  comparison: RequestCount;
}

export interface Decomposition {
  /** comparison total / baseline total */
  totalRatio: number;
  /** comparison requests / baseline requests */
  loadRatio: number;
  /** (comparison total per request) / (baseline total per request) = totalRatio / loadRatio */
  perRequestRatio: number;
  baselinePerRequest: number;
  comparisonPerRequest: number;
  /** which factor moved the total: the larger of the two in log terms, 'none' when both are within FLAT */
  driver: 'load' | 'per request' | 'none';
}

/** A relative change smaller than this reads as "~0%" and flags nothing. */
export const FLAT = 0.05;

export type DecompositionResult = ({ ok: true } & Decomposition) | { ok: false; message: string };

/** Splits the change of a total into load and per request. Never returns Infinity or NaN. */
export function decompose(baselineTotal: number, comparisonTotal: number, requests: RequestCounts): DecompositionResult {
  if (!requests.baseline.ok) {
    return { ok: false, message: `Baseline: ${requests.baseline.message}.` };
  }
  if (!requests.comparison.ok) {
    return { ok: false, message: `Selection: ${requests.comparison.message}.` };
  }
  if (!(baselineTotal > 0) || !Number.isFinite(baselineTotal) || !(comparisonTotal >= 0) || !Number.isFinite(comparisonTotal)) {
    return { ok: false, message: 'The baseline has no samples: no ratio to split.' };
  }
  const totalRatio = comparisonTotal / baselineTotal;
  const loadRatio = requests.comparison.count / requests.baseline.count;
  const perRequestRatio = totalRatio / loadRatio;
  const lp = Math.abs(Math.log(perRequestRatio || Number.MIN_VALUE));
  const ll = Math.abs(Math.log(loadRatio));
  const flatP = Math.abs(perRequestRatio - 1) < FLAT;
  const flatL = Math.abs(loadRatio - 1) < FLAT;
  const driver = flatP && flatL ? 'none' : !flatP && (flatL || lp >= ll) ? 'per request' : 'load';
  return {
    ok: true,
    totalRatio,
    loadRatio,
    perRequestRatio,
    baselinePerRequest: baselineTotal / requests.baseline.count,
    comparisonPerRequest: comparisonTotal / requests.comparison.count,
    driver,
  };
}

/** "+180%", "−17%", "~0%" (within FLAT of 1: the split calls it flat). */
export function formatRatio(ratio: number): string {
  const pct = (ratio - 1) * 100;
  if (Math.abs(ratio - 1) < FLAT) {
    return '~0%';
  }
  const digits = Math.abs(pct) < 10 ? 1 : 0;
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct).toFixed(digits)}%`;
}

/** What the profile measures, for the headline: CPU for time units, allocations for bytes. */
export function quantityOf(profileUnit: string): string {
  if (/^(ns|µs|us|ms|s|m|h|d|dtdurations?|dtdurationms|clockms|nanoseconds|seconds)$/i.test(profileUnit)) {
    return 'CPU';
  }
  if (/bytes|decbytes|kbytes|mbytes/i.test(profileUnit)) {
    return 'Allocations';
  }
  return 'Total';
}

/** The headline: `CPU +180% = load +20% × per request +133%`. */
export function headline(d: Decomposition, profileUnit: string): string {
  return `${quantityOf(profileUnit)} ${formatRatio(d.totalRatio)} = load ${formatRatio(d.loadRatio)} × per request ${formatRatio(d.perRequestRatio)}`;
}

/** One function of the changes table in every unit. Values are self, aggregated by name. */
export interface UnitChangeRow {
  name: string;
  baselineSelf: number;
  comparisonSelf: number;
  absoluteDelta: number;
  baselineSelfShare: number;
  comparisonSelfShare: number;
  shareDelta: number;
  /** undefined without request counts on both sides */
  baselinePerRequest?: number;
  comparisonPerRequest?: number;
  perRequestDelta?: number;
  /** the change in the table's unit is big enough to point at (see flagThreshold) */
  flagged: boolean;
}

/**
 * The delta a change must reach to be flagged, in the unit's terms: FLAG_SHARE of the
 * comparison's per-request (or absolute) total, or FLAG_SHARE as a share difference.
 */
export const FLAG_SHARE = 0.01;

/** The delta of a row in the given unit (absolute when per-request counts are missing). */
export function deltaIn(row: UnitChangeRow, unit: ValueUnit): number {
  if (unit === 'share') {
    return row.shareDelta;
  }
  if (unit === 'per-request' && row.perRequestDelta !== undefined) {
    return row.perRequestDelta;
  }
  return row.absoluteDelta;
}

/**
 * The changes table in every unit: the service's code first, then the runtime's own work and the
 * profiler's (serviceCodeNames: V8's (idle) falling by half the profile is not the answer, nor is
 * a GC thread), each ranked by |delta| in `unit`. The panel's table, its headline and
 * hotpath-notify's message all read this order. A pure traffic change (each function's value
 * times the load ratio) has per-request deltas of zero: nothing is flagged.
 */
export function changesByUnit(diff: Tree, unit: ValueUnit, requests?: RequestCounts): UnitChangeRow[] {
  if (!isDiff(diff)) {
    return [];
  }
  const lt = diff.total[0];
  const rt = diff.totalRight[0];
  const rb = requests?.baseline.ok ? requests.baseline.count : undefined;
  const rc = requests?.comparison.ok ? requests.comparison.count : undefined;
  const perRequest = rb !== undefined && rc !== undefined;
  const effective: ValueUnit = unit === 'per-request' && !perRequest ? 'share' : unit;
  const threshold = effective === 'share' ? FLAG_SHARE : effective === 'per-request' ? (FLAG_SHARE * rt) / rc! : FLAG_SHARE * Math.max(lt, rt);
  const rows: UnitChangeRow[] = [];
  for (const r of topTable(diff)) {
    const b = r.self;
    const c = r.selfRight ?? 0;
    if (b === 0 && c === 0) {
      continue;
    }
    const bs = lt > 0 ? b / lt : 0;
    const cs = rt > 0 ? c / rt : 0;
    const row: UnitChangeRow = {
      name: r.name,
      baselineSelf: b,
      comparisonSelf: c,
      absoluteDelta: c - b,
      baselineSelfShare: bs,
      comparisonSelfShare: cs,
      shareDelta: cs - bs,
      flagged: false,
    };
    if (perRequest) {
      row.baselinePerRequest = b / rb!;
      row.comparisonPerRequest = c / rc!;
      row.perRequestDelta = row.comparisonPerRequest - row.baselinePerRequest;
    }
    row.flagged = Math.abs(deltaIn(row, effective)) >= threshold && threshold > 0;
    rows.push(row);
  }
  const code = serviceCodeNames(diff);
  const after = (r: UnitChangeRow) => (code.has(r.name) ? 0 : 1);
  return rows.sort((a, b) => after(a) - after(b) || Math.abs(deltaIn(b, effective)) - Math.abs(deltaIn(a, effective)) || (a.name < b.name ? -1 : 1));
}

/**
 * The tree with each side divided by its requests (a plain tree: one side). Same shape,
 * same names: every view draws it as it draws the raw tree.
 */
export function perRequestTree(tree: Tree, requests: number, requestsRight?: number): Tree {
  const scale = (a: Float64Array, k: number) => {
    const out = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      out[i] = a[i] / k;
    }
    return out;
  };
  const diff = isDiff(tree) && requestsRight !== undefined;
  // parent/end/level/names are shared: only the values change
  return {
    ...tree,
    total: scale(tree.total, requests),
    self: scale(tree.self, requests),
    totalRight: diff ? scale(tree.totalRight!, requestsRight) : undefined,
    selfRight: diff ? scale(tree.selfRight!, requestsRight) : undefined,
  };
}

/** What `npm run snapshot -- --requests N [--baseline-requests M]` adds to summary.json. */
export interface PerRequestSummary {
  requests: number;
  baselineRequests?: number;
  /** the profile's unit per request (ns/req, bytes/req) */
  unit: string;
  totalPerRequest: number;
  baselineTotalPerRequest?: number;
  top: Array<{ function: string; selfPerRequest: number; totalPerRequest: number }>;
  /** with a baseline: the split of the total's change, and the functions by per-request change */
  decomposition?: Omit<Decomposition, 'baselinePerRequest' | 'comparisonPerRequest'> & { headline: string };
  diff?: { top: Array<{ function: string; baselinePerRequest: number; comparisonPerRequest: number; perRequestDelta: number; absoluteDelta: number; shareDeltaPercent: number; flagged: boolean }> };
}

/** The per-request part of a profile's summary; throws on a count that is not > 0 (the CLI checks first). */
export function perRequestSummary(profile: Tree, baseline: Tree | undefined, requests: number, baselineRequests?: number, limit = 20): PerRequestSummary {
  const counts: RequestCounts = { comparison: checkCount(requests), baseline: checkCount(baselineRequests) };
  if (!counts.comparison.ok) {
    throw new Error(`--requests: ${counts.comparison.message}`);
  }
  const total = profile.size ? profile.total[0] : 0;
  const rootName = profile.names[profile.nameId[0]];
  const out: PerRequestSummary = {
    requests,
    unit: `${profile.unit}/req`,
    totalPerRequest: total / requests,
    top: topTable(profile)
      .filter((r) => r.name !== rootName || r.self > 0)
      .slice(0, limit)
      .map((r) => ({ function: r.name, selfPerRequest: r.self / requests, totalPerRequest: r.total / requests })),
  };
  if (baseline) {
    if (!counts.baseline.ok) {
      throw new Error(`--baseline-requests: ${counts.baseline.message}`);
    }
    out.baselineRequests = baselineRequests;
    out.baselineTotalPerRequest = (baseline.size ? baseline.total[0] : 0) / baselineRequests!;
    const d = decompose(baseline.size ? baseline.total[0] : 0, total, counts);
    if (d.ok) {
      out.decomposition = { totalRatio: d.totalRatio, loadRatio: d.loadRatio, perRequestRatio: d.perRequestRatio, driver: d.driver, headline: headline(d, profile.unit) };
    }
    out.diff = {
      top: changesByUnit(diffTrees(baseline, profile), 'per-request', counts)
        .slice(0, limit)
        .map((r) => ({
          function: r.name,
          baselinePerRequest: r.baselinePerRequest!,
          comparisonPerRequest: r.comparisonPerRequest!,
          perRequestDelta: r.perRequestDelta!,
          absoluteDelta: r.absoluteDelta,
          shareDeltaPercent: Math.round(r.shareDelta * 10000) / 100,
          flagged: r.flagged,
        })),
    };
  }
  return out;
}
