/**
 * Time windows on the strip: the comparison window the user drags, and the baseline window
 * it is compared with (chosen by mode, or dragged with Shift). Pure: no React, no Grafana
 * runtime; times are unix milliseconds.
 */

export interface TimeWindow {
  /** unix ms, inclusive */
  from: number;
  /** unix ms, exclusive; always > from */
  to: number;
}

/**
 * How the baseline window is chosen:
 * - auto: the window of the same length that ends where the anomaly started (the earliest
 *   anomaly overlapping the selection), or, without one, that ends where the selection starts
 * - day / week: the same window one day / one week earlier
 * - manual: none until the user drags one with Shift
 * - siblings: the same window, the same service, every other instance (the profile query gets a
 *   label matcher: instance="<it>" for the selection, instance!="<it>" for the baseline)
 */
export const BASELINE_MODES = ['auto', 'day', 'week', 'manual', 'siblings'] as const;
export type BaselineMode = (typeof BASELINE_MODES)[number];

export const DAY_MS = 24 * 3600 * 1000;
export const WEEK_MS = 7 * DAY_MS;

/** windows shorter than this are a click, not a selection */
export const MIN_WINDOW_MS = 1000;

export function isWindow(w: unknown): w is TimeWindow {
  const x = w as TimeWindow;
  return !!x && Number.isFinite(x.from) && Number.isFinite(x.to) && x.to > x.from;
}

export function sameWindow(a: TimeWindow | null | undefined, b: TimeWindow | null | undefined): boolean {
  return a === b || (!!a && !!b && a.from === b.from && a.to === b.to);
}

export function windowLength(w: TimeWindow): number {
  return w.to - w.from;
}

export function overlaps(a: TimeWindow, b: TimeWindow): boolean {
  return a.from < b.to && b.from < a.to;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The window between two points of a drag, in either order, clamped to the bounds (a drag
 * that leaves the strip ends at its edge). Null when it is shorter than minMs (a click, or a
 * drag entirely outside the bounds) or when a point is not a number.
 */
export function windowFromDrag(a: number, b: number, bounds: TimeWindow, minMs = MIN_WINDOW_MS): TimeWindow | null {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !isWindow(bounds)) {
    return null;
  }
  const from = Math.round(clamp(Math.min(a, b), bounds.from, bounds.to));
  const to = Math.round(clamp(Math.max(a, b), bounds.from, bounds.to));
  return to - from >= minMs ? { from, to } : null;
}

/** Moves a window by dt, keeping its length, and keeps it inside the bounds. */
export function moveWindow(w: TimeWindow, dt: number, bounds: TimeWindow): TimeWindow {
  const len = windowLength(w);
  if (len >= windowLength(bounds)) {
    return { ...bounds };
  }
  const from = Math.round(clamp(w.from + dt, bounds.from, bounds.to - len));
  return { from, to: from + len };
}

/** Moves one edge of a window to t (inside the bounds); the edges never cross (minMs apart). */
export function resizeWindow(w: TimeWindow, edge: 'from' | 'to', t: number, bounds: TimeWindow, minMs = MIN_WINDOW_MS): TimeWindow {
  if (!Number.isFinite(t)) {
    return w;
  }
  if (edge === 'from') {
    return { from: Math.round(clamp(t, Math.min(bounds.from, w.to - minMs), w.to - minMs)), to: w.to };
  }
  return { from: w.from, to: Math.round(clamp(t, w.from + minMs, Math.max(bounds.to, w.from + minMs))) };
}

/** The earliest start of the anomaly windows overlapping the selection, if any. */
export function anomalyStartFor(selection: TimeWindow, anomalies: TimeWindow[]): number | undefined {
  let start: number | undefined;
  for (const a of anomalies) {
    if (overlaps(a, selection) && (start === undefined || a.from < start)) {
      start = a.from;
    }
  }
  return start;
}

export type BaselineSource = 'anomaly' | 'preceding' | 'day' | 'week' | 'manual' | 'siblings';

export interface Baseline {
  window: TimeWindow;
  source: BaselineSource;
  /** why this window, for the status line ("before the anomaly") */
  reason: string;
}

/**
 * The baseline for a selection. An explicit window (dragged with Shift, or from the URL) wins
 * over the mode; in manual mode there is none without one.
 */
export function baselineFor(
  selection: TimeWindow | null,
  mode: BaselineMode,
  anomalies: TimeWindow[],
  explicit?: TimeWindow | null
): Baseline | null {
  if (explicit && isWindow(explicit)) {
    return { window: explicit, source: 'manual', reason: 'chosen by hand' };
  }
  if (!selection || !isWindow(selection)) {
    return null;
  }
  const len = windowLength(selection);
  switch (mode) {
    case 'day':
      return { window: { from: selection.from - DAY_MS, to: selection.to - DAY_MS }, source: 'day', reason: '1 day earlier' };
    case 'week':
      return { window: { from: selection.from - WEEK_MS, to: selection.to - WEEK_MS }, source: 'week', reason: '1 week earlier' };
    case 'manual':
      return null;
    case 'siblings':
      return { window: { ...selection }, source: 'siblings', reason: 'every other instance, same window' };
    case 'auto':
    default: {
      const start = anomalyStartFor(selection, anomalies);
      if (start !== undefined && start <= selection.from) {
        return { window: { from: start - len, to: start }, source: 'anomaly', reason: 'before the anomaly' };
      }
      if (start !== undefined) {
        // the anomaly starts inside the selection: the baseline ends where the selection starts
        // (ending at the anomaly's start would put part of the selection in the baseline)
        return { window: { from: selection.from - len, to: selection.from }, source: 'preceding', reason: 'before the selection; the anomaly starts inside it' };
      }
      return { window: { from: selection.from - len, to: selection.from }, source: 'preceding', reason: 'before the selection' };
    }
  }
}

/** Where a window lies relative to the strip's range (the data): the strip says so. */
export type Placement = 'inside' | 'partly-before' | 'before' | 'partly-after' | 'after' | 'around';

export function placement(w: TimeWindow, bounds: TimeWindow): Placement {
  if (w.to <= bounds.from) {
    return 'before';
  }
  if (w.from >= bounds.to) {
    return 'after';
  }
  if (w.from < bounds.from && w.to > bounds.to) {
    return 'around';
  }
  if (w.from < bounds.from) {
    return 'partly-before';
  }
  if (w.to > bounds.to) {
    return 'partly-after';
  }
  return 'inside';
}

/** "10m", "1h 30m", "45s", "2d 3h": the length of a window, short. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) {
    return '?';
  }
  const s = Math.round(ms / 1000);
  if (s < 60) {
    return `${s}s`;
  }
  const units: Array<[string, number]> = [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [u, n] of units) {
    const q = Math.floor(rest / n);
    if (q > 0) {
      parts.push(`${q}${u}`);
      rest -= q * n;
    }
    if (parts.length === 2) {
      break;
    }
  }
  return parts.join(' ');
}

/** The baseline of a selection given what the URL asks for (a window, a mode, or nothing: the option's mode). */
export function resolveBaseline(
  selection: TimeWindow | null,
  requested: TimeWindow | BaselineMode | undefined,
  optionMode: BaselineMode,
  anomalies: TimeWindow[]
): Baseline | null {
  if (requested && typeof requested === 'object') {
    return baselineFor(selection, 'manual', anomalies, requested);
  }
  return baselineFor(selection, requested ?? optionMode, anomalies);
}

/** Without an anomaly at the moment an alert link names, the window is this long, ending there. */
export const AT_FALLBACK_MS = 15 * 60 * 1000;

/**
 * The window an alert link's moment (hotpath-at) selects: the anomaly window around it (an
 * alert's pending and firing time on the strip), clipped to the range; without one, the
 * AT_FALLBACK_MS before it. Null when even that is outside the range.
 */
export function windowAt(at: number, anomalies: TimeWindow[], range: TimeWindow): { window: TimeWindow; anomaly: boolean } | null {
  const hit = anomalies.find((a) => a.from <= at && at <= a.to);
  const w = hit ?? { from: at - AT_FALLBACK_MS, to: at };
  const from = Math.max(w.from, range.from);
  const to = Math.min(w.to, range.to);
  return to - from >= MIN_WINDOW_MS ? { window: { from, to }, anomaly: !!hit } : null;
}
