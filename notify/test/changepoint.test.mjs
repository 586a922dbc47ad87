// Where an incident started: the robust split on noisy series, series that start mid-window,
// restart spikes, gaps and counter resets (a rate of a reset counter drops to nothing or spikes
// for a point), and several steps in one day.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { bestSplit, cleanPoints, findOnset } from '../lib/changepoint.mjs';
import { rng } from './rng.mjs';

const T = Date.parse('2026-01-02T12:00:00Z');
const STEP = 120; // s: a day at 720 points, as the notifier queries it

/** n points ending at T, one every STEP s, value level(i) times (1 ± noise), as Prometheus's [[s, "v"]]. */
function series(n, level, { noise = 0.1, seed = 1 } = {}) {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => [(T - (n - 1 - i) * STEP * 1000) / 1000, String(level(i) * (1 + noise * (2 * r() - 1)))]);
}
const at = (values, i) => values[i][0] * 1000;

describe('findOnset', () => {
  it('finds a 3x step in a series with 10% noise, to within a point', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const v = series(720, (i) => (i < 600 ? 0.004 : 0.012), { seed });
      const o = findOnset(v);
      assert.equal(o.found, true, `seed ${seed}`);
      assert.ok(Math.abs(o.at - at(v, 600)) <= STEP * 1000, `seed ${seed}: onset ${new Date(o.at).toISOString()}`);
      assert.ok(Math.abs(o.before - 0.004) < 0.0005 && Math.abs(o.after - 0.012) < 0.0015, `levels ${o.before} ${o.after}`);
    }
  });

  it('finds no onset in noise alone, however noisy', () => {
    for (const noise of [0.05, 0.3, 0.6]) {
      const o = findOnset(series(720, () => 0.004, { noise, seed: 7 }));
      assert.equal(o.found, false, `noise ${noise}: ${JSON.stringify(o)}`);
    }
  });

  it('a step smaller than the noise is no onset; a small step of a quiet series neither', () => {
    assert.equal(findOnset(series(720, (i) => (i < 600 ? 1 : 1.3), { noise: 0.6, seed: 2 })).found, false, '30% under ±60% noise');
    assert.equal(findOnset(series(720, (i) => (i < 600 ? 1 : 1.1), { noise: 0.001, seed: 2 })).found, false, '10% without noise');
    assert.equal(findOnset(series(720, (i) => (i < 600 ? 1 : 1.5), { noise: 0.05, seed: 2 })).found, true, '50% under ±5% noise');
  });

  it('a step down is no onset (the alert is about more cost)', () => {
    assert.equal(findOnset(series(720, (i) => (i < 400 ? 0.012 : 0.004))).found, false);
  });

  it('a series that starts mid-window: the onset within it, and where it began', () => {
    const v = series(300, (i) => (i < 250 ? 1000 : 150_000), { seed: 3 });
    const o = findOnset(v);
    assert.equal(o.found, true);
    assert.equal(o.at, at(v, 250));
    assert.equal(o.firstAt, at(v, 0));
  });

  it('restart spikes, gaps and NaN/Inf points (a counter reset, a zero request rate) are no onset', () => {
    const v = series(720, () => 0.004, { seed: 9 });
    v[300][1] = '0.4'; // a restart's spike: one point 100x
    v[301][1] = 'NaN';
    v[302][1] = '+Inf';
    v.splice(500, 30); // a scrape gap of an hour
    v[600][1] = '0'; // a reset counter's rate for one step
    assert.equal(findOnset(v).found, false, JSON.stringify(findOnset(v)));
    assert.equal(cleanPoints(v).length, 720 - 30 - 2, 'NaN and Inf are dropped, not read as 0');
  });

  it('a restart spike before a real step does not move the onset', () => {
    const v = series(720, (i) => (i < 650 ? 0.004 : 0.01), { seed: 11 });
    v[640][1] = '0.5';
    const o = findOnset(v);
    assert.equal(o.found, true);
    assert.ok(Math.abs(o.at - at(v, 650)) <= STEP * 1000, new Date(o.at).toISOString());
  });

  it('two steps in a day: the later one is the incident', () => {
    const v = series(720, (i) => (i < 200 ? 0.004 : i < 620 ? 0.008 : 0.02), { seed: 5 });
    const o = findOnset(v);
    assert.ok(Math.abs(o.at - at(v, 620)) <= STEP * 1000, new Date(o.at).toISOString());
  });

  it('a step after the alert fired is the incident getting worse, not its onset', () => {
    const v = series(720, (i) => (i < 500 ? 0.004 : i < 700 ? 0.01 : 0.03), { seed: 6 });
    const o = findOnset(v, { notAfter: at(v, 690) });
    assert.ok(Math.abs(o.at - at(v, 500)) <= STEP * 1000, new Date(o.at).toISOString());
  });

  it('too few points: says so', () => {
    const o = findOnset(series(8, () => 1));
    assert.equal(o.found, false);
    assert.match(o.why, /8 points/);
  });
});

describe('bestSplit', () => {
  it('cuts a clean step exactly, and needs MIN_SEGMENT points a side', () => {
    const s = bestSplit([1, 1, 1, 1, 1, 1, 1, 5, 5, 5, 5, 5, 5, 5]);
    assert.deepEqual([s.index, s.before, s.after, s.noise], [7, 1, 5, 0]);
    assert.equal(bestSplit([1, 2, 3]), undefined);
  });
});
