// The strip's pointer logic (strip.ts): what a press grabs, what a drag makes, the ticks.
import { anomalyAt, dragResult, grabAt, Scale, timeTicks, toX } from './strip';

const MIN = 60_000;
// the dashboard range: 1h from 10:00
const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const range = { from: T0, to: T0 + 60 * MIN };
const at = (m: number) => T0 + m * MIN;
const scale: Scale = { domain: range, width: 600 }; // 10 px per minute

describe('strip pointer logic', () => {
  const selection = { from: at(30), to: at(40) }; // x 300..400
  const baseline = { from: at(10), to: at(20) }; // x 100..200

  it('grabs edges, bodies, or starts a new window', () => {
    expect(grabAt(302, scale, { selection, baseline }, false)).toEqual({ kind: 'resize', target: 'selection', edge: 'from' });
    expect(grabAt(398, scale, { selection, baseline }, false)).toEqual({ kind: 'resize', target: 'selection', edge: 'to' });
    expect(grabAt(350, scale, { selection, baseline }, false)).toEqual({ kind: 'move', target: 'selection' });
    expect(grabAt(104, scale, { selection, baseline }, false)).toEqual({ kind: 'resize', target: 'baseline', edge: 'from' });
    expect(grabAt(150, scale, { selection, baseline }, false)).toEqual({ kind: 'move', target: 'baseline' });
    expect(grabAt(500, scale, { selection, baseline }, false)).toEqual({ kind: 'new', target: 'selection' });
  });

  it('Shift always starts a new baseline', () => {
    expect(grabAt(350, scale, { selection, baseline }, true)).toEqual({ kind: 'new', target: 'baseline' });
  });

  it('a baseline off the strip cannot be grabbed', () => {
    const off = { from: at(-30), to: at(-20) };
    expect(grabAt(0, scale, { baseline: off }, false)).toEqual({ kind: 'new', target: 'selection' });
  });

  it('turns drags into windows', () => {
    expect(dragResult({ kind: 'new', target: 'selection' }, 100, 250, scale)).toEqual({ from: at(10), to: at(25) });
    expect(dragResult({ kind: 'new', target: 'selection' }, 100, 101, scale)).toBeNull();
    expect(dragResult({ kind: 'move', target: 'selection' }, 350, 450, scale, selection)).toEqual({ from: at(40), to: at(50) });
    expect(dragResult({ kind: 'resize', target: 'baseline', edge: 'to' }, 200, 260, scale, baseline)).toEqual({ from: at(10), to: at(26) });
    // a drag past the right edge ends at the edge
    expect(dragResult({ kind: 'new', target: 'selection' }, 500, 900, scale)).toEqual({ from: at(50), to: at(60) });
  });

  it('a click inside an anomaly selects it, clipped to the strip', () => {
    expect(anomalyAt(50, scale, [{ from: at(-10), to: at(8) }])).toEqual({ from: at(0), to: at(8) });
    expect(anomalyAt(500, scale, [{ from: at(-10), to: at(8) }])).toBeNull();
  });

  it('ticks are round times inside the range', () => {
    const ticks = timeTicks(scale);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.every((t) => t >= range.from && t <= range.to && t % (5 * MIN) === 0)).toBe(true);
    expect(toX(scale, ticks[0])).toBeGreaterThanOrEqual(0);
  });
});
