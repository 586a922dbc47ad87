import fc from 'fast-check';

import { checkCount, decompose } from '../analysis/perRequest';
import { durationMs, rateRangeMs, requestsInWindow } from './requestCount';

const S = 1000;
const MIN = 60 * S;

/**
 * What Prometheus records for `rate(requests_total[range])` every `step` from 0 to `end`: the
 * requests of (t - range, t] over the range, from a counter that `rate(t)` (req/s) drives.
 */
function recordedRate(rate: (t: number) => number, range: number, step: number, end: number) {
  // requests by the end of each second
  const cumulative = [0];
  for (let s = 0; s < end; s += S) {
    cumulative.push(cumulative[cumulative.length - 1] + rate(s));
  }
  const counter = (t: number) => cumulative[t / S];
  const times: number[] = [];
  const values: number[] = [];
  for (let t = range; t <= end; t += step) {
    times.push(t);
    values.push((counter(t) - counter(t - range)) / (range / S));
  }
  return { times, values, counter };
}

const count = (c: ReturnType<typeof requestsInWindow>) => (c.ok ? c.count : NaN);

describe('requests in a window, without a range', () => {
  it('is the mean rate over the window times its length; the point at its start belongs to the window before', () => {
    // one point a minute over 4 minutes: (0, 240 s] holds 10, 30, 30, 10: mean 20 req/s x 240 s
    const t = [0, 60_000, 120_000, 180_000, 240_000];
    expect(requestsInWindow(t, [999, 10, 30, 30, 10], 0, 240_000)).toEqual({ ok: true, count: 4800 });
  });

  it('skips gaps, NaN and points outside the window', () => {
    expect(requestsInWindow([0, 10_000, 20_000, 99_000], [NaN, 5, 5, 1000], 0, 20_000)).toEqual({ ok: true, count: 100 });
  });

  it('no samples and zero requests are messages, not Infinity', () => {
    expect(requestsInWindow([0], [1], 10, 20)).toEqual({ ok: false, reason: 'no-samples', message: 'no request-rate samples in the window' });
    expect(requestsInWindow([0], [1], 10, 20, 5 * MIN)).toEqual({ ok: false, reason: 'no-samples', message: 'no request-rate samples in the window' });
    const zero = requestsInWindow([0, 10], [0, 0], 0, 10);
    expect(zero.ok).toBe(false);
    expect(zero.ok ? '' : zero.message).toMatch(/zero requests/);
    const d = decompose(100, 200, { baseline: zero, comparison: checkCount(5) });
    expect(d).toEqual({ ok: false, message: 'Baseline: zero requests in the window: per request is undefined.' });
    expect(decompose(0, 200, { baseline: checkCount(1), comparison: checkCount(1) }).ok).toBe(false);
  });
});

describe('requests in a window of a trailing rate (its range known)', () => {
  // traffic doubles at 30 min: 10 req/s, then 20
  const step = (t: number) => (t < 30 * MIN ? 10 : 20);
  const r = recordedRate(step, 5 * MIN, 15 * S, 60 * MIN);
  const onset = 30 * MIN;

  it('counts a traffic step exactly where the mean of a 5m rate counts half of it', () => {
    const w = { from: onset, to: onset + 5 * MIN };
    const before = { from: onset - 5 * MIN, to: onset };
    expect(count(requestsInWindow(r.times, r.values, w.from, w.to, 5 * MIN))).toBeCloseTo(r.counter(w.to) - r.counter(w.from), 6);
    expect(count(requestsInWindow(r.times, r.values, before.from, before.to, 5 * MIN))).toBeCloseTo(3000, 6);
    // the load ratio: 2, where the points' mean says about 1.5
    const tiled = count(requestsInWindow(r.times, r.values, w.from, w.to, 5 * MIN)) / count(requestsInWindow(r.times, r.values, before.from, before.to, 5 * MIN));
    const mean = count(requestsInWindow(r.times, r.values, w.from, w.to)) / count(requestsInWindow(r.times, r.values, before.from, before.to));
    expect(tiled).toBeCloseTo(2, 6);
    expect(mean).toBeLessThan(1.6);
  });

  it('a window that is not whole ranges: the rest at its end, read from the point at its end', () => {
    // 12.5 minutes after the onset: two whole ranges and 2.5 minutes of 20 req/s
    expect(count(requestsInWindow(r.times, r.values, onset, onset + 12.5 * MIN, 5 * MIN))).toBeCloseTo(12.5 * 60 * 20, 6);
    // shorter than a range, after the onset: the range ending at the window's end, all 20 req/s
    expect(count(requestsInWindow(r.times, r.values, onset + 5 * MIN, onset + 7 * MIN, 5 * MIN))).toBeCloseTo(120 * 20, 6);
  });

  it('any traffic shape: exact on whole ranges, whatever the ranges start at', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 12, maxLength: 12 }), fc.integer({ min: 5, max: 40 }), fc.integer({ min: 1, max: 4 }), (perMinute, startMin, ranges) => {
        // points every 15 s; the window's start falls anywhere on the minute grid
        const rec = recordedRate((t) => perMinute[Math.floor(t / MIN) % 12], 5 * MIN, 15 * S, 70 * MIN);
        const from = startMin * MIN;
        const to = from + ranges * 5 * MIN;
        expect(count(requestsInWindow(rec.times, rec.values, from, to, 5 * MIN))).toBeCloseTo(rec.counter(to) - rec.counter(from), 4);
      }),
      { numRuns: 25 }
    );
  });

  it('reads between points a step apart, and the last point for a window ending after it (now)', () => {
    // points every minute, tile ends on the half minute: interpolated
    const m = recordedRate(step, 5 * MIN, MIN, 60 * MIN);
    expect(count(requestsInWindow(m.times, m.values, onset + 30 * S, onset + 5.5 * MIN, 5 * MIN))).toBeCloseTo(300 * 20, 6);
    // the selection ends 20 s after the last point: the last point stands for the window's end
    const cut = (n: number) => ({ times: r.times.filter((t) => t <= n), values: r.values.filter((_, i) => r.times[i] <= n) });
    const c = cut(onset + 10 * MIN - 20 * S);
    expect(count(requestsInWindow(c.times, c.values, onset, onset + 10 * MIN, 5 * MIN))).toBeCloseTo(600 * 20, 6);
  });

  it('falls back to the mean where a tile end has no point within half a range (a gap, a coarse step)', () => {
    const gap = r.times.map((t, i) => (t > onset + 2 * MIN && t < onset + 9 * MIN ? NaN : r.values[i]));
    const w = { from: onset, to: onset + 10 * MIN };
    const fallback = count(requestsInWindow(r.times, gap, w.from, w.to));
    expect(count(requestsInWindow(r.times, gap, w.from, w.to, 5 * MIN))).toBe(fallback);
    // a 10-minute step against a 5-minute range: points too far apart to read a range's end
    const coarse = recordedRate(step, 5 * MIN, 10 * MIN, 60 * MIN);
    const far = { from: onset + 2 * MIN, to: onset + 22 * MIN };
    expect(count(requestsInWindow(coarse.times, coarse.values, far.from, far.to, 5 * MIN))).toBe(count(requestsInWindow(coarse.times, coarse.values, far.from, far.to)));
  });
});

describe('the range of a rate expression', () => {
  it('reads Prometheus durations', () => {
    expect(durationMs('5m')).toBe(5 * MIN);
    expect(durationMs('1h30m')).toBe(90 * MIN);
    expect(durationMs('500ms')).toBe(500);
    expect(durationMs('5x')).toBeUndefined();
    expect(durationMs('0s')).toBeUndefined();
  });

  it("a recorded rate's name or a range selector", () => {
    expect(rateRangeMs('job:requests:rate5m{job="api"}')).toBe(5 * MIN);
    expect(rateRangeMs('sum(job:requests:rate5m{job="api"})')).toBe(5 * MIN);
    expect(rateRangeMs('sum by (job) (rate(http_requests_total{job="api"}[1m]))')).toBe(MIN);
    expect(rateRangeMs('instance:requests:rate5m{job="api"}')).toBe(5 * MIN);
    expect(rateRangeMs('sum(increase(x[5m])) / 300 + sum(rate(y[5m]))')).toBe(5 * MIN);
  });

  it('none when the expression does not say one range: no range, several, a variable, a subquery', () => {
    expect(rateRangeMs(undefined)).toBeUndefined();
    expect(rateRangeMs('requests_per_second{job="api"}')).toBeUndefined();
    expect(rateRangeMs('job:requests:rate5m_sampled{job="api"}')).toBeUndefined();
    expect(rateRangeMs('sum(rate(x[1m])) + sum(rate(y[5m]))')).toBeUndefined();
    expect(rateRangeMs('sum(rate(x[$__rate_interval]))')).toBeUndefined();
    expect(rateRangeMs('sum(rate(x[$__rate_interval])) + sum(rate(y[5m]))')).toBeUndefined();
    expect(rateRangeMs('max_over_time(job:requests:rate5m[1h:1m])')).toBeUndefined();
    expect(rateRangeMs('avg_over_time(job:requests:rate5m[1h])')).toBeUndefined();
    expect(rateRangeMs('max_over_time(x[1h:1m])')).toBeUndefined();
    expect(rateRangeMs('sum(irate(x[5m]))')).toBeUndefined();
  });
});
