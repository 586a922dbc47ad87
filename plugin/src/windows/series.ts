/**
 * What the strip draws, read from the panel's frames: time series (gaps and NaN kept as
 * gaps), anomaly windows (any 0/1 series, e.g. Prometheus's ALERTS), and Grafana's
 * annotations. Pure: only types and field helpers from @grafana/data.
 */
import { DataFrame, Field, FieldType, getFieldDisplayName } from '@grafana/data';

import { isProfileFrame, TimeWindow } from '@hotpath/profile-core';


export interface StripSeries {
  refId?: string;
  name: string;
  field: Field;
  /** unix ms, ascending */
  times: number[];
  /** NaN where the value is missing or not a number */
  values: number[];
  /** typical distance between points (median), for gap detection */
  step: number;
  min: number;
  max: number;
}

export interface Anomaly {
  window: TimeWindow;
  /** the series it came from: the alert name for ALERTS */
  name: string;
  /** firing / pending for ALERTS */
  state?: string;
}

export interface AnnotationMark {
  time: number;
  timeEnd?: number;
  title: string;
  color?: string;
}

export interface StripData {
  series: StripSeries[];
  anomalies: Anomaly[];
  annotations: AnnotationMark[];
  /** what the strip should say: a query that returned nothing, an anomaly query missing */
  notices: string[];
}

export interface StripOptions {
  /** refIds of the time series to draw; empty: every time-series frame that is not an anomaly */
  seriesRefIds: string[];
  /** refId of the anomaly series; empty: frames that look like ALERTS (an alertname label) */
  anomalyRefId: string;
  /** step of the query runner (data.request.intervalMs), when known */
  intervalMs?: number;
}

const DEFAULT_STEP = 60_000;

function timeField(frame: DataFrame): Field | undefined {
  return frame.fields.find((f) => f.type === FieldType.time) ?? frame.fields.find((f) => f.name.toLowerCase() === 'time' && f.type === FieldType.number);
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') {
    return v;
  }
  if (typeof v === 'string' && v.trim() !== '') {
    // Prometheus sends "NaN", "+Inf" as strings when frames are built by hand
    const n = Number(v.replace(/^\+?Inf$/, 'Infinity').replace(/^-Inf$/, '-Infinity'));
    return n;
  }
  if (v && typeof (v as { valueOf?: () => unknown }).valueOf === 'function') {
    const n = (v as { valueOf: () => unknown }).valueOf();
    return typeof n === 'number' ? n : NaN;
  }
  return NaN;
}

/** Median of the positive distances between consecutive times. */
export function medianStep(times: number[], fallback = DEFAULT_STEP): number {
  const d: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const x = times[i] - times[i - 1];
    if (x > 0 && Number.isFinite(x)) {
      d.push(x);
    }
  }
  if (d.length === 0) {
    return fallback;
  }
  d.sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)];
}

function isAlertsLike(frame: DataFrame): boolean {
  return frame.fields.some((f) => f.type === FieldType.number && f.labels && 'alertname' in f.labels) || /^ALERTS\b/.test(frame.name ?? '');
}

function isTimeSeriesFrame(frame: DataFrame): boolean {
  return !!timeField(frame) && frame.fields.some((f) => f.type === FieldType.number && f !== timeField(frame));
}

export function readSeries(frame: DataFrame, frames: DataFrame[], intervalMs?: number): StripSeries[] {
  const tf = timeField(frame);
  if (!tf) {
    return [];
  }
  const out: StripSeries[] = [];
  for (const field of frame.fields) {
    if (field === tf || field.type !== FieldType.number) {
      continue;
    }
    // sort by time (frames are usually sorted; a stray point must not draw a line backwards)
    const idx = Array.from({ length: frame.length ?? tf.values.length }, (_, i) => i).filter((i) => Number.isFinite(toNumber(tf.values[i])));
    idx.sort((a, b) => toNumber(tf.values[a]) - toNumber(tf.values[b]));
    const times = idx.map((i) => toNumber(tf.values[i]));
    const values = idx.map((i) => {
      const v = toNumber(field.values[i]);
      return Number.isFinite(v) ? v : NaN;
    });
    let min = Infinity;
    let max = -Infinity;
    for (const v of values) {
      if (Number.isFinite(v)) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    let name: string;
    try {
      name = getFieldDisplayName(field, frame, frames);
    } catch {
      name = field.config?.displayName ?? frame.name ?? field.name;
    }
    out.push({ refId: frame.refId, name, field, times, values, step: medianStep(times, intervalMs ?? DEFAULT_STEP), min, max });
  }
  return out;
}

/**
 * Windows where a 0/1 series is on (value > 0): consecutive points at most 1.5 steps apart
 * join; a window ends one step after its last point (a sample stands for its interval).
 * Gaps, NaN, 0 and negative values are off.
 */
export function onWindows(times: number[], values: number[], step: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  let start = -1;
  let last = -1;
  for (let i = 0; i < times.length; i++) {
    const on = values[i] > 0 && Number.isFinite(values[i]);
    if (on && start >= 0 && times[i] - times[last] <= step * 1.5) {
      last = i;
      continue;
    }
    if (start >= 0) {
      out.push({ from: times[start], to: times[last] + step });
      start = -1;
    }
    if (on) {
      start = i;
      last = i;
    }
  }
  if (start >= 0) {
    out.push({ from: times[start], to: times[last] + step });
  }
  return out;
}

/** The union of windows, sorted. */
export function mergeWindows(windows: TimeWindow[]): TimeWindow[] {
  const sorted = windows.filter((w) => w.to > w.from).sort((a, b) => a.from - b.from);
  const out: TimeWindow[] = [];
  for (const w of sorted) {
    const prev = out[out.length - 1];
    if (prev && w.from <= prev.to) {
      prev.to = Math.max(prev.to, w.to);
    } else {
      out.push({ ...w });
    }
  }
  return out;
}

function readAnnotations(frames: DataFrame[] | undefined): AnnotationMark[] {
  const out: AnnotationMark[] = [];
  for (const frame of frames ?? []) {
    const f = (name: string) => frame.fields.find((x) => x.name === name);
    const time = f('time');
    if (!time) {
      continue;
    }
    const timeEnd = f('timeEnd');
    const title = f('title') ?? f('text');
    const color = f('color');
    const isRegion = f('isRegion');
    for (let i = 0; i < time.values.length; i++) {
      const t = toNumber(time.values[i]);
      if (!Number.isFinite(t)) {
        continue;
      }
      const te = timeEnd ? toNumber(timeEnd.values[i]) : NaN;
      const region = isRegion ? !!isRegion.values[i] : Number.isFinite(te) && te > t;
      out.push({
        time: t,
        timeEnd: region && Number.isFinite(te) && te > t ? te : undefined,
        title: String(title?.values[i] ?? ''),
        color: color?.values[i] ? String(color.values[i]) : undefined,
      });
    }
  }
  return out;
}

/** Everything the strip needs from the panel's data. Never throws. */
export function readStripData(series: DataFrame[] | undefined, annotations: DataFrame[] | undefined, opts: StripOptions): StripData {
  const frames = (series ?? []).filter((f) => !isProfileFrame(f));
  const notices: string[] = [];
  const anomalyFrames = opts.anomalyRefId ? frames.filter((f) => f.refId === opts.anomalyRefId) : frames.filter(isAlertsLike);
  const wanted = opts.seriesRefIds.filter((r) => r !== '');
  const seriesFrames = frames.filter((f) => !anomalyFrames.includes(f) && isTimeSeriesFrame(f) && (wanted.length === 0 || (f.refId !== undefined && wanted.includes(f.refId))));
  for (const r of wanted) {
    if (!frames.some((f) => f.refId === r)) {
      notices.push(`The time-series query ${r} returned no data.`);
    }
  }
  const strip = seriesFrames.flatMap((f) => readSeries(f, frames, opts.intervalMs));
  const anomalies: Anomaly[] = [];
  for (const frame of anomalyFrames) {
    for (const s of readSeries(frame, frames, opts.intervalMs)) {
      const labels = s.field.labels ?? {};
      for (const w of onWindows(s.times, s.values, s.step)) {
        anomalies.push({ window: w, name: labels.alertname ?? s.name, state: labels.alertstate });
      }
    }
  }
  anomalies.sort((a, b) => a.window.from - b.window.from);
  return { series: strip, anomalies, annotations: readAnnotations(annotations), notices };
}

/** The windows the automatic baseline and click-to-select look at: anomalies and annotation regions. */
export function anomalyWindows(data: StripData): TimeWindow[] {
  return mergeWindows([
    ...data.anomalies.map((a) => a.window),
    ...data.annotations.filter((a) => a.timeEnd !== undefined).map((a) => ({ from: a.time, to: a.timeEnd! })),
  ]);
}

/**
 * An SVG path through the points: a new segment after a gap (a missing or non-finite value,
 * or more than 1.5 steps between points). x and y map time and value to pixels.
 */
export function linePath(times: number[], values: number[], step: number, x: (t: number) => number, y: (v: number) => number): string {
  let d = '';
  let pen = false;
  let lastT = NaN;
  for (let i = 0; i < times.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) {
      pen = false;
      continue;
    }
    const gap = Number.isFinite(lastT) && times[i] - lastT > step * 1.5;
    const px = x(times[i]).toFixed(1);
    const py = y(v).toFixed(1);
    d += `${pen && !gap ? 'L' : 'M'}${px},${py}`;
    pen = true;
    lastT = times[i];
  }
  return d;
}
