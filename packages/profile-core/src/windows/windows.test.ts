import fc from 'fast-check';

import {
  anomalyStartFor,
  baselineFor,
  DAY_MS,
  formatDuration,
  moveWindow,
  placement,
  resizeWindow,
  resolveBaseline,
  WEEK_MS,
  windowAt,
  windowFromDrag,
} from './windows';

const MIN = 60_000;
// the dashboard range: 1h from 10:00
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const range = { from: T0, to: T0 + 60 * MIN };
const at = (m: number) => T0 + m * MIN;

describe('selecting a window', () => {
  it('orders the two ends of a drag', () => {
    expect(windowFromDrag(at(30), at(20), range)).toEqual({ from: at(20), to: at(30) });
  });

  it('clamps a drag that leaves the strip to its edges', () => {
    expect(windowFromDrag(at(-10), at(5), range)).toEqual({ from: at(0), to: at(5) });
    expect(windowFromDrag(at(50), at(90), range)).toEqual({ from: at(50), to: at(60) });
    // the whole strip and beyond
    expect(windowFromDrag(at(-5), at(65), range)).toEqual(range);
  });

  it('a zero-length drag (a click) is no window', () => {
    expect(windowFromDrag(at(10), at(10), range)).toBeNull();
    expect(windowFromDrag(at(10), at(10) + 999, range)).toBeNull();
  });

  it('a drag entirely outside the strip is no window', () => {
    expect(windowFromDrag(at(-20), at(-10), range)).toBeNull();
    expect(windowFromDrag(at(70), at(80), range)).toBeNull();
  });

  it('NaN is no window', () => {
    expect(windowFromDrag(NaN, at(10), range)).toBeNull();
  });

  it('any drag gives a window inside the range, at least a second long, or none', () => {
    fc.assert(
      fc.property(fc.double({ min: -2, max: 3, noNaN: true }), fc.double({ min: -2, max: 3, noNaN: true }), (a, b) => {
        const w = windowFromDrag(T0 + a * 3600_000, T0 + b * 3600_000, range);
        if (w) {
          expect(w.from).toBeGreaterThanOrEqual(range.from);
          expect(w.to).toBeLessThanOrEqual(range.to);
          expect(w.to - w.from).toBeGreaterThanOrEqual(1000);
        }
      })
    );
  });

  it('moves a window and keeps it inside the range', () => {
    const w = { from: at(10), to: at(20) };
    expect(moveWindow(w, 5 * MIN, range)).toEqual({ from: at(15), to: at(25) });
    expect(moveWindow(w, -30 * MIN, range)).toEqual({ from: at(0), to: at(10) });
    expect(moveWindow(w, 90 * MIN, range)).toEqual({ from: at(50), to: at(60) });
  });

  it('resizes an edge without crossing the other', () => {
    const w = { from: at(10), to: at(20) };
    expect(resizeWindow(w, 'from', at(5), range)).toEqual({ from: at(5), to: at(20) });
    expect(resizeWindow(w, 'to', at(40), range)).toEqual({ from: at(10), to: at(40) });
    expect(resizeWindow(w, 'from', at(25), range)).toEqual({ from: at(20) - 1000, to: at(20) });
    expect(resizeWindow(w, 'to', at(-5), range)).toEqual({ from: at(10), to: at(10) + 1000 });
    expect(resizeWindow(w, 'to', at(99), range)).toEqual({ from: at(10), to: at(60) });
  });
});

describe('baseline modes', () => {
  it('siblings: the same window (the instances differ, not the time)', () => {
    const sel = { from: 5000, to: 9000 };
    expect(baselineFor(sel, 'siblings', [])).toEqual({ window: sel, source: 'siblings', reason: 'every other instance, same window' });
    expect(baselineFor(null, 'siblings', [])).toBeNull();
  });

  const sel = { from: at(30), to: at(40) };

  it('auto without an anomaly: the same length before the selection', () => {
    expect(baselineFor(sel, 'auto', [])).toMatchObject({ window: { from: at(20), to: at(30) }, source: 'preceding' });
  });

  it('auto: the same length ending where the anomaly started', () => {
    const anomaly = { from: at(25), to: at(45) };
    expect(anomalyStartFor(sel, [anomaly])).toBe(at(25));
    expect(baselineFor(sel, 'auto', [anomaly])).toMatchObject({ window: { from: at(15), to: at(25) }, source: 'anomaly' });
  });

  it('auto: the earliest of several overlapping anomalies; others are ignored', () => {
    const anomalies = [
      { from: at(0), to: at(5) },
      { from: at(28), to: at(33) },
      { from: at(22), to: at(31) },
      { from: at(50), to: at(55) },
    ];
    expect(baselineFor(sel, 'auto', anomalies)?.window).toEqual({ from: at(12), to: at(22) });
  });

  it('auto: an anomaly starting inside the selection: the baseline ends where the selection starts', () => {
    expect(baselineFor(sel, 'auto', [{ from: at(35), to: at(50) }])).toMatchObject({ window: { from: at(20), to: at(30) }, source: 'preceding' });
  });

  it('auto: a selection at the left edge has its baseline before the data', () => {
    const b = baselineFor({ from: at(0), to: at(10) }, 'auto', []);
    expect(b?.window).toEqual({ from: at(-10), to: at(0) });
    expect(placement(b!.window, range)).toBe('before');
    expect(placement({ from: at(-5), to: at(5) }, range)).toBe('partly-before');
  });

  it('1 day / 1 week earlier', () => {
    expect(baselineFor(sel, 'day', [])?.window).toEqual({ from: sel.from - DAY_MS, to: sel.to - DAY_MS });
    expect(baselineFor(sel, 'week', [])?.window).toEqual({ from: sel.from - WEEK_MS, to: sel.to - WEEK_MS });
  });

  it('manual: none until one is dragged; a dragged one wins in every mode', () => {
    const hand = { from: at(2), to: at(4) };
    expect(baselineFor(sel, 'manual', [])).toBeNull();
    for (const mode of ['auto', 'day', 'week', 'manual'] as const) {
      expect(baselineFor(sel, mode, [], hand)).toMatchObject({ window: hand, source: 'manual' });
    }
  });

  it('no selection, no baseline', () => {
    expect(baselineFor(null, 'auto', [])).toBeNull();
  });

  it('the URL picks a mode or a window over the option', () => {
    expect(resolveBaseline(sel, undefined, 'week', [])?.source).toBe('week');
    expect(resolveBaseline(sel, 'day', 'week', [])?.source).toBe('day');
    expect(resolveBaseline(sel, { from: at(1), to: at(2) }, 'week', [])?.source).toBe('manual');
  });

  it('formats durations', () => {
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(10 * MIN)).toBe('10m');
    expect(formatDuration(90 * MIN)).toBe('1h 30m');
    expect(formatDuration(DAY_MS + 3 * 3600_000 + 5 * MIN)).toBe('1d 3h');
  });
});

describe("an alert link's moment (hotpath-at)", () => {
  const anomalies = [
    { from: at(5), to: at(12) },
    { from: at(35), to: at(70) },
  ];
  it('selects the anomaly around it, clipped to the range', () => {
    expect(windowAt(at(40), anomalies, range)).toEqual({ window: { from: at(35), to: at(60) }, anomaly: true });
    expect(windowAt(at(12), anomalies, range)).toEqual({ window: { from: at(5), to: at(12) }, anomaly: true });
  });
  it('without an anomaly there: the 15 minutes before it', () => {
    expect(windowAt(at(30), anomalies, range)).toEqual({ window: { from: at(15), to: at(30) }, anomaly: false });
    expect(windowAt(at(5) - 1, [], range)).toEqual({ window: { from: at(0), to: at(5) - 1 }, anomaly: false });
  });
  it('outside the range: nothing', () => {
    expect(windowAt(at(-30), [], range)).toBeNull();
  });
});
