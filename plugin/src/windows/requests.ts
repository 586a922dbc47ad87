/**
 * Where a window's request count comes from: the panel's request-rate series (req/s, e.g. the
 * service dashboard's `job:requests:rate5m` query, drawn on the strip) integrated over the
 * window. The series covers the dashboard range, so a window outside it (a day or a week
 * earlier, off the strip) has no count: the panel says so and shows shares. Pure: only types
 * and field helpers from @grafana/data.
 *
 * Which series: the one of the Request-rate query option (a refId), else every time series whose
 * unit is req/s (`reqps`, `rps`) or whose name says so ("requests/s", "req/s", "request rate").
 * Several series (one per instance) add up; the siblings baseline splits them by a label.
 *
 * A rate series is a trailing average (`rate(x[5m])`, `job:requests:rate5m`): the range its query
 * names lets the count tile the window by ranges (profile-core's requestsInWindow), so a window
 * right after a traffic step counts the step, not half of it.
 */
import { DataFrame, FieldType } from '@grafana/data';

import { isProfileFrame, noCount, rateRangeMs, RequestCount, requestsInWindow, TimeWindow } from '@hotpath/profile-core';

import { readSeries, StripSeries } from './series';

const RATE_UNITS = new Set(['reqps', 'rps', 'req/s']);
const RATE_NAME = /(requests?|req)\s*\/\s*s\b|request rate|requests?:rate/i;

export function isRequestRate(s: StripSeries): boolean {
  const unit = s.field.config?.unit ?? '';
  return RATE_UNITS.has(unit) || (RATE_NAME.test(s.name) && !/per.request/i.test(s.name));
}

export interface RequestSeries extends StripSeries {
  /** the range each point averages over, in ms, when its query names one */
  rangeMs?: number;
}

/** A query as the runner holds it: a Prometheus target has its PromQL in `expr`. */
type QueryText = { refId: string; expr?: unknown };

/**
 * The expression behind a frame: its query's (a Prometheus target's `expr`), else what the data
 * source says it ran (Prometheus's `Expr: ...` in executedQueryString).
 */
function frameExpr(frame: DataFrame, targets: readonly QueryText[] | undefined): string | undefined {
  const target = targets?.find((t) => t.refId === frame.refId);
  if (typeof target?.expr === 'string') {
    return target.expr;
  }
  return frame.meta?.executedQueryString?.match(/^Expr: (.*)$/m)?.[1];
}

/** The request-rate series among the panel's frames; `targets` (the query runner's) tell their ranges. */
export function findRequestSeries(frames: DataFrame[] | undefined, refId: string, targets?: readonly QueryText[]): RequestSeries[] {
  const candidates = (frames ?? []).filter((f) => !isProfileFrame(f) && (!refId || f.refId === refId) && f.fields.some((x) => x.type === FieldType.time));
  const series = candidates.flatMap((f) => {
    const rangeMs = rateRangeMs(frameExpr(f, targets));
    return readSeries(f, frames ?? []).map((s): RequestSeries => ({ ...s, rangeMs }));
  });
  return refId ? series : series.filter(isRequestRate);
}

/**
 * Requests in a window, summed over the series that pass `keep` (every series without one).
 * A series without samples in the window counts as none; if no series has any, the count is
 * missing with the reason.
 */
export function countRequests(series: RequestSeries[], w: TimeWindow, keep?: (labels: Record<string, string>) => boolean, what = 'request-rate series'): RequestCount {
  const kept = keep ? series.filter((s) => keep(s.field.labels ?? {})) : series;
  if (series.length === 0) {
    return noCount('no-series');
  }
  if (kept.length === 0) {
    return noCount('no-series', `no ${what}`);
  }
  let total = 0;
  let any = false;
  let last: RequestCount | undefined;
  for (const s of kept) {
    const c = requestsInWindow(s.times, s.values, w.from, w.to, s.rangeMs);
    last = c;
    if (c.ok) {
      total += c.count;
      any = true;
    } else if (c.reason !== 'no-samples') {
      any = true;
    }
  }
  if (!any) {
    return noCount('no-samples', `${last && !last.ok ? last.message : 'no samples'} (the request rate is read from the dashboard range)`);
  }
  return total > 0 ? { ok: true, count: total } : noCount('zero');
}
