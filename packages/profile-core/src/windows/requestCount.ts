/**
 * A window's request count from a request-rate series (req/s), the divisor of every value per
 * request. Pure: times are unix milliseconds.
 *
 * A rate series is a trailing average: `rate(x[5m])` at t, and `job:requests:rate5m` recorded
 * from it, is the requests of (t - 5m, t] over 300 s. Its mean over a window lags the window
 * by half the range: over the 5 minutes after a traffic step it counts half the step, and the
 * load/per-request split then blames per request for what is load. With the range known, the
 * window is tiled from its start by whole ranges, each counted by the point at its end (exact
 * for any traffic shape); the part left at the end, shorter than a range, by the point at the
 * window's end (the average over the range ending there, inside the window when the window is
 * at least a range long).
 */
import { checkCount, noCount, RequestCount } from '../analysis/perRequest';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 31_536_000_000 };
const DURATION = '(?:\\d+(?:ms|[smhdwy]))+';
const WHOLE_DURATION = new RegExp(`^${DURATION}$`);
// `[5m]` (a range selector) and the `rate5m` of a recording rule's name (level:metric:operations),
// not `rate5m_sampled`
const RANGES = new RegExp(`\\[(${DURATION})\\]|:[a-z_]*rate(${DURATION})(?![\\w:])`, 'g');
// a subquery (`[1h:1m]`) makes a new series of the rate (its maximum, its mean), not a trailing
// rate; a variable (`[$__rate_interval]`) is a range Grafana resolves out of the expression's sight;
// irate reads the last two samples of its range, not its whole range
const UNREADABLE = /\[[^\]]*[:$][^\]]*\]|\birate\s*\(/;

/** A Prometheus duration (`5m`, `1h30m`, `500ms`) in ms; undefined when it is not one. */
export function durationMs(text: string): number | undefined {
  if (!WHOLE_DURATION.test(text)) {
    return undefined;
  }
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+)(ms|[smhdwy])/g)) {
    ms += Number(n) * UNIT_MS[unit];
  }
  return ms > 0 ? ms : undefined;
}

/**
 * The range a rate expression averages over, in ms: its range selectors' and recorded rates'
 * (`job:requests:rate5m`) one duration; undefined when it names none, several different ones (an
 * `avg_over_time` of a rate), or a range it cannot read (a subquery, a variable, irate's).
 */
export function rateRangeMs(expr: string | undefined): number | undefined {
  if (UNREADABLE.test(expr ?? '')) {
    return undefined;
  }
  const found = new Set<number | undefined>();
  for (const m of (expr ?? '').matchAll(RANGES)) {
    found.add(durationMs(m[1] ?? m[2]));
  }
  return found.size === 1 ? [...found][0] : undefined;
}

const usable = (v: number) => Number.isFinite(v) && v >= 0;

/**
 * The series' value at t (times ascending): between its finite points around t (interpolated,
 * when they are at most a range apart), else the nearer one within half a range; undefined
 * otherwise.
 */
function valueAt(times: ArrayLike<number>, rates: ArrayLike<number>, t: number, rangeMs: number): number | undefined {
  // the first point after t
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  let before = lo - 1;
  while (before >= 0 && !usable(rates[before])) {
    before--;
  }
  let after = lo;
  while (after < times.length && !usable(rates[after])) {
    after++;
  }
  const hasAfter = after < times.length;
  if (before >= 0 && times[before] === t) {
    return rates[before];
  }
  if (before >= 0 && hasAfter && times[after] - times[before] <= rangeMs) {
    const f = (t - times[before]) / (times[after] - times[before]);
    return rates[before] + f * (rates[after] - rates[before]);
  }
  const gap = (i: number) => (i >= 0 && i < times.length ? Math.abs(times[i] - t) : Infinity);
  const nearer = gap(before) <= gap(after) ? before : after;
  return gap(nearer) <= rangeMs / 2 ? rates[nearer] : undefined;
}

/** The window tiled by ranges (see the file's comment); undefined when a tile's end has no value. */
function tiledCount(times: ArrayLike<number>, rates: ArrayLike<number>, from: number, to: number, rangeMs: number): number | undefined {
  let count = 0;
  let end = from + rangeMs;
  for (; end <= to; end += rangeMs) {
    const v = valueAt(times, rates, end, rangeMs);
    if (v === undefined) {
      return undefined;
    }
    count += (v * rangeMs) / 1000;
  }
  const rest = to - (end - rangeMs);
  if (rest > 0) {
    const v = valueAt(times, rates, to, rangeMs);
    if (v === undefined) {
      return undefined;
    }
    count += (v * rest) / 1000;
  }
  return count;
}

/**
 * Requests in (from, to] from a request-rate series (req/s). `rangeMs`: the range each point
 * averages over (rateRangeMs of its query); with it the window is tiled (see the file's
 * comment). Without it, or where a tile's end has no point near it, the mean of the finite
 * points in (from, to] times the window's length: independent of the query's step, and a gap
 * lowers nothing. A window without a finite point in it has no count either way: a point
 * describes the time before it, so the one at the window's end belongs to it and the one at
 * its start to the window before.
 */
export function requestsInWindow(times: ArrayLike<number>, rates: ArrayLike<number>, from: number, to: number, rangeMs?: number): RequestCount {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const v = rates[i];
    if (t > from && t <= to && usable(v)) {
      sum += v;
      n++;
    }
  }
  if (n === 0) {
    return noCount('no-samples');
  }
  const tiled = rangeMs && rangeMs > 0 ? tiledCount(times, rates, from, to, rangeMs) : undefined;
  return checkCount(tiled ?? (sum / n) * ((to - from) / 1000));
}
