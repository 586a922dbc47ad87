// Window derivation: the panel's rule (windowAt + baselineFor of plugin/src/windows/windows.ts)
// applied to an alert's startsAt, the rules' for:, and now.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { alertWindows, MINUTE, siblingWindows } from '../lib/windows.mjs';

const T = Date.parse('2026-01-01T12:00:00Z');
const opts = (o = {}) => ({ now: T, pendingMs: 15 * MINUTE, minWindowMs: 5 * MINUTE, maxWindowMs: 60 * MINUTE, ...o });
const m = (ms) => (ms - T) / MINUTE; // minutes relative to T, readable in failures
const rel = (w) => [m(w.from), m(w.to)];

describe('alertWindows', () => {
  it('an alert that just fired: the pending time against the same length before it', () => {
    const w = alertWindows({ startsAt: T - 1 * MINUTE }, opts());
    assert.deepEqual(rel(w.incident), [-16, 0]);
    assert.deepEqual(rel(w.baseline), [-32, -16]);
    assert.equal(w.reason, 'before the anomaly');
  });

  it('the baseline never overlaps the anomaly, whatever for: and the firing time', () => {
    for (const pending of [0, 2, 15]) {
      for (const firing of [0, 1, 30, 120]) {
        const w = alertWindows({ startsAt: T - firing * MINUTE }, opts({ pendingMs: pending * MINUTE }));
        assert.ok(w.baseline.to <= w.anomaly.from || w.baseline.to <= w.incident.from, `for ${pending}m, firing ${firing}m`);
        assert.equal(w.baseline.to - w.baseline.from, w.incident.to - w.incident.from, 'same length');
        assert.equal(w.incident.to, T, 'the incident window ends now');
      }
    }
  });

  it('a short anomaly still gets the minimum window, and the baseline ends where that window starts', () => {
    const w = alertWindows({ startsAt: T - 30_000 }, opts({ pendingMs: 0 }));
    assert.deepEqual(rel(w.incident), [-5, 0]);
    assert.deepEqual(rel(w.baseline), [-10, -5]);
    assert.match(w.reason, /before the selection/);
  });

  it('a long-firing alert is judged on its last maxWindow, against the time before the anomaly', () => {
    const w = alertWindows({ startsAt: T - 3 * 60 * MINUTE }, opts());
    assert.deepEqual(rel(w.incident), [-60, 0]);
    assert.deepEqual(rel(w.baseline), [-255, -195]);
  });

  it('a resolved alert ends at endsAt, not now', () => {
    const w = alertWindows({ startsAt: T - 40 * MINUTE, endsAt: T - 20 * MINUTE }, opts());
    assert.deepEqual(rel(w.incident), [-55, -20]);
    assert.deepEqual(rel(w.baseline), [-90, -55]);
  });
});

describe('siblingWindows', () => {
  it('the outlier alert\'s baseline is its own incident window (for the other instances)', () => {
    const own = alertWindows({ startsAt: T - 1 * MINUTE }, opts());
    const w = siblingWindows({ startsAt: T - 1 * MINUTE }, opts());
    assert.deepEqual(w.incident, own.incident);
    assert.deepEqual(w.baseline, own.incident);
    assert.equal(w.reason, 'the other instances of the service over the same window');
  });
});
