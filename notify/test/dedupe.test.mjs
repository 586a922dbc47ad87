// One message per fingerprint; Alertmanager's repeats are skipped; a resolve updates once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Dedupe } from '../lib/dedupe.mjs';

const run = (d, fp, status, startsAt) => {
  const a = d.action(fp, status, startsAt);
  if (a !== 'skip') {
    d.commit(fp, status, startsAt);
  }
  return a;
};

describe('Dedupe', () => {
  it('announces once, skips repeats, updates once on resolve, announces a new incident', () => {
    const d = new Dedupe();
    assert.equal(run(d, 'a1', 'firing', 's1'), 'fire');
    assert.equal(run(d, 'a1', 'firing', 's1'), 'skip', 'repeat_interval re-send');
    assert.equal(run(d, 'b2', 'firing', 's1'), 'fire', 'another alert of the same group');
    assert.equal(run(d, 'a1', 'resolved', 's1'), 'resolve');
    assert.equal(run(d, 'a1', 'resolved', 's1'), 'skip', 'resolved re-sent');
    assert.equal(run(d, 'a1', 'firing', 's2'), 'fire', 'fires again later: a new startsAt');
  });

  it('skips the resolve of an alert it never announced (started before this receiver)', () => {
    assert.equal(run(new Dedupe(), 'c3', 'resolved', 's1'), 'skip');
  });

  it('action() alone changes nothing: a refused alert is announced when Alertmanager retries', () => {
    const d = new Dedupe();
    assert.equal(d.action('a1', 'firing', 's1'), 'fire');
    assert.equal(d.action('a1', 'firing', 's1'), 'fire');
  });

  it('keeps an alert that fires for days as long as Alertmanager repeats it: its resolve is sent', () => {
    let now = 0;
    const h = 3600_000;
    const d = new Dedupe({ ttlMs: 24 * h, now: () => now });
    assert.equal(run(d, 'a1', 'firing', 's1'), 'fire');
    for (const at of [4, 20, 40, 60]) {
      now = at * h; // repeat_interval re-sends
      assert.equal(run(d, 'a1', 'firing', 's1'), 'skip', `repeat at ${at}h`);
    }
    now = 70 * h;
    assert.equal(run(d, 'a1', 'resolved', 's1'), 'resolve', 'the resolve after 70 h still updates the message');
  });

  it('is bounded in size and age', () => {
    let now = 0;
    const d = new Dedupe({ max: 3, ttlMs: 1000, now: () => now });
    for (const fp of ['a', 'b', 'c', 'd']) {
      run(d, fp, 'firing', 's');
    }
    assert.equal(d.seen.size, 3);
    assert.equal(d.action('a', 'firing', 's'), 'fire', 'the oldest went first');
    now = 5000;
    assert.equal(d.action('d', 'firing', 's'), 'fire', 'expired');
    assert.equal(d.seen.size, 0);
  });
});
