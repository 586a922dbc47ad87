/**
 * The strip's pointer logic, apart from React: what a press at x grabs (a new window, a
 * window's edge or body), and the windows a drag produces. Times are unix ms, x is pixels
 * from the strip's left edge.
 */
import { moveWindow, resizeWindow, TimeWindow, windowFromDrag } from '@hotpath/profile-core';

export interface Scale {
  /** the strip's time range */
  domain: TimeWindow;
  /** width in pixels */
  width: number;
}

export const toX = (s: Scale, t: number) => ((t - s.domain.from) / (s.domain.to - s.domain.from)) * s.width;
export const toT = (s: Scale, x: number) => s.domain.from + (x / s.width) * (s.domain.to - s.domain.from);

/** pixels either side of an edge that grab it */
export const EDGE_PX = 5;
/** a press that moves less than this is a click */
export const CLICK_PX = 3;

/** The windows a press can grab, in the order it tries their edges and bodies. */
export const TARGETS = ['selection', 'baseline'] as const;
export type Target = (typeof TARGETS)[number];

export type Grab =
  | { kind: 'new'; target: Target }
  | { kind: 'resize'; target: Target; edge: 'from' | 'to' }
  | { kind: 'move'; target: Target };

/**
 * What a press at x grabs. Shift always starts a new baseline (the second drag of the issue);
 * otherwise edges first (the selection's before the baseline's), then bodies, then a new
 * selection.
 */
export function grabAt(x: number, scale: Scale, windows: { selection?: TimeWindow | null; baseline?: TimeWindow | null }, shift: boolean): Grab {
  if (shift) {
    return { kind: 'new', target: 'baseline' };
  }
  for (const target of TARGETS) {
    const w = windows[target];
    if (!w) {
      continue;
    }
    const a = toX(scale, w.from);
    const b = toX(scale, w.to);
    if (Math.abs(x - a) <= EDGE_PX && a >= -EDGE_PX && a <= scale.width + EDGE_PX) {
      return { kind: 'resize', target, edge: 'from' };
    }
    if (Math.abs(x - b) <= EDGE_PX && b >= -EDGE_PX && b <= scale.width + EDGE_PX) {
      return { kind: 'resize', target, edge: 'to' };
    }
  }
  for (const target of TARGETS) {
    const w = windows[target];
    if (w && x > toX(scale, w.from) && x < toX(scale, w.to)) {
      return { kind: 'move', target };
    }
  }
  return { kind: 'new', target: 'selection' };
}

const NICE_MS = [1, 5, 10, 15, 30, 60, 300, 600, 900, 1800, 3600, 21600, 86400].map((s) => s * 1000);

/**
 * Drags snap to round times: the smallest of 1s, 5s, 10s, 15s, 30s, 1m, 5m.. that is at least
 * a pixel wide. Windows read well ("10:40:00-10:50:00") and a window dragged twice is the same
 * cache key.
 */
export function snapMs(scale: Scale): number {
  const perPx = (scale.domain.to - scale.domain.from) / Math.max(1, scale.width);
  return NICE_MS.find((s) => s >= perPx) ?? NICE_MS[NICE_MS.length - 1];
}

const snap = (t: number, step: number) => Math.round(t / step) * step;

/**
 * The window a drag from x0 to x1 makes of the grabbed one (null: a click, or a window too
 * short to keep). Windows stay inside the strip's range; times snap to snapMs (the strip's
 * edges excepted, which are where a drag past them ends).
 */
export function dragResult(grab: Grab, x0: number, x1: number, scale: Scale, original?: TimeWindow | null): TimeWindow | null {
  const step = snapMs(scale);
  const t0 = snap(toT(scale, x0), step);
  const t1 = snap(toT(scale, x1), step);
  switch (grab.kind) {
    case 'new':
      return Math.abs(x1 - x0) < CLICK_PX ? null : windowFromDrag(t0, t1, scale.domain);
    case 'move':
      return original ? moveWindow(original, t1 - t0, scale.domain) : null;
    case 'resize':
      return original ? resizeWindow(original, grab.edge, t1, scale.domain) : null;
  }
}

/** The anomaly window under a click at x (clipped to the strip's range), if any. */
export function anomalyAt(x: number, scale: Scale, anomalies: TimeWindow[]): TimeWindow | null {
  const t = toT(scale, x);
  const hit = anomalies.find((a) => t >= a.from && t <= a.to);
  if (!hit) {
    return null;
  }
  const from = Math.max(hit.from, scale.domain.from);
  const to = Math.min(hit.to, scale.domain.to);
  return to > from ? { from, to } : null;
}

/** Time-axis ticks: round times (1m .. 1d steps) about `every` pixels apart. */
export function timeTicks(scale: Scale, every = 110): number[] {
  const span = scale.domain.to - scale.domain.from;
  if (!(span > 0) || scale.width <= 0) {
    return [];
  }
  const want = span / Math.max(1, Math.floor(scale.width / every));
  const steps = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800].map((s) => s * 1000);
  const step = steps.find((s) => s >= want) ?? steps[steps.length - 1];
  const out: number[] = [];
  for (let t = Math.ceil(scale.domain.from / step) * step; t <= scale.domain.to; t += step) {
    out.push(t);
  }
  return out;
}
