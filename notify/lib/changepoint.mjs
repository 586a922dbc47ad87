// Where an alert's incident started, found in the alert's own recorded series (CPU per
// request, allocations per request, the fixed-cost share) rather than guessed from `for:`.
//
// The method is a robust two-segment split, applied again to the later segment while it still
// splits: for every cut, the cost is the sum of absolute deviations from each segment's median
// (an L1 cost: one restart spike or a scrape gap moves a median by one rank, not by its size);
// the best cut is kept when the level after it is higher by at least SHIFT_IN_MADS times the
// segments' pooled MAD and by MIN_RELATIVE of the level before it. Repeating on the later
// segment finds the most recent onset when the day held an earlier, smaller step.

/** A step must be this many pooled MADs (scaled to a standard deviation) high to count. */
export const SHIFT_IN_MADS = 4;
/** ...and this much of the level before it (a 20 % step of a quiet series is not an incident). */
export const MIN_RELATIVE = 0.2;
/** Each segment needs at least this many points (a short blip is not a level). */
export const MIN_SEGMENT = 6;

function median(sorted) {
  const n = sorted.length;
  return n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

const sortedCopy = (a) => Float64Array.from(a).sort();

/** Sum of |x - median| of a segment. */
function l1(values) {
  const m = median(sortedCopy(values));
  let s = 0;
  for (const v of values) {
    s += Math.abs(v - m);
  }
  return s;
}

/** The scaled median absolute deviation of each segment around its own median, pooled. */
function pooledMad(left, right) {
  const dev = [];
  for (const seg of [left, right]) {
    const m = median(sortedCopy(seg));
    for (const v of seg) {
      dev.push(Math.abs(v - m));
    }
  }
  return 1.4826 * median(sortedCopy(dev));
}

/** The best single cut of values (index of the first point after it) and its medians. */
export function bestSplit(values, minSegment = MIN_SEGMENT) {
  let best;
  for (let k = minSegment; k <= values.length - minSegment; k++) {
    const cost = l1(values.slice(0, k)) + l1(values.slice(k));
    if (!best || cost < best.cost) {
      best = { index: k, cost };
    }
  }
  if (!best) {
    return undefined;
  }
  const left = values.slice(0, best.index);
  const right = values.slice(best.index);
  return { index: best.index, before: median(sortedCopy(left)), after: median(sortedCopy(right)), noise: pooledMad(left, right) };
}

/**
 * The finite points of a Prometheus range result, in time order: [[unix s, "value"], ...] or
 * [[ms, number]]. NaN, ±Inf (a division by a zero request rate) and gaps are dropped.
 */
export function cleanPoints(values) {
  const out = [];
  for (const [t, v] of values ?? []) {
    const x = Number(v);
    if (Number.isFinite(x)) {
      out.push({ t: t < 1e11 ? t * 1000 : t, v: x });
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/**
 * The onset of the latest upward step of a series.
 * @param {Array<[number, string|number]>} values a Prometheus matrix's values
 * @param {object} [o] notAfter: unix ms; a step after it is not this incident's onset (the
 *   incident began before its alert fired: a later step is it getting worse)
 * @returns {{ found: true, at: number, before: number, after: number, firstAt: number } | { found: false, why: string, firstAt?: number }}
 *   at: unix ms of the first point at the new level
 */
export function findOnset(values, { shiftInMads = SHIFT_IN_MADS, minRelative = MIN_RELATIVE, minSegment = MIN_SEGMENT, notAfter = Infinity } = {}) {
  const pts = cleanPoints(values);
  if (pts.length < 2 * minSegment) {
    return { found: false, why: `${pts.length} points of the series, too few to find where it changed`, firstAt: pts[0]?.t };
  }
  let start = 0;
  let onset;
  for (;;) {
    const seg = pts.slice(start).map((p) => p.v);
    const s = bestSplit(seg, minSegment);
    if (!s) {
      break;
    }
    const shift = s.after - s.before;
    const significant = shift > 0 && shift >= shiftInMads * s.noise && shift >= minRelative * Math.abs(s.before);
    if (!significant || pts[start + s.index].t > notAfter) {
      break;
    }
    onset = { found: true, at: pts[start + s.index].t, before: s.before, after: s.after, firstAt: pts[0].t };
    start += s.index;
  }
  return onset ?? { found: false, why: 'no step up in the series over the last day', firstAt: pts[0].t };
}
