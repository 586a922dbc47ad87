// The top set's fast entry: a function new to a service, or surging, gets its series within
// minutes, however many functions the service has; a steady small one does not flicker in; a
// member keeps its day's cost; maxMembers still bounds the set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { DAY_MS, StickyTopSet } from '../lib/top-set.mjs';
import { rng } from './rng.mjs';

const MIN = 60_000;
const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);

/** n functions sharing `total` by Zipf's law (the r-th costs ∝ 1/r): f1 is the costliest. */
function zipf(n, total) {
  const h = Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
  return new Map(Array.from({ length: n }, (_, i) => [`f${i + 1}`, total / ((i + 1) * h)]));
}

/** One interval of a sampled profile: `samples` draws from `shares` (function -> share), 1e7 ns (10 ms at 100 Hz) each. */
function sampled(shares, samples, random) {
  const out = new Map();
  const entries = [...shares];
  for (let i = 0; i < samples; i++) {
    let u = random();
    const [f] = entries.find(([, s]) => (u -= s) < 0) ?? entries.at(-1);
    out.set(f, (out.get(f) ?? 0) + 1e7);
  }
  return out;
}

describe('fast entry', () => {
  it('a new function at 10% of a service of 1000 functions is a member within 15 intervals', () => {
    const s = new StickyTopSet({ k: 20 });
    const steady = zipf(1000, 1e9);
    for (let i = 0; i < 1440; i++) {
      s.update(steady, i * MIN, 1e9);
    }
    assert.equal(s.members.size, 20);
    // the new code adds 10% to the service's total: 1/9 of what it cost before
    const withNew = new Map([...steady, ['deploy.NewHandler', 1e9 / 9]]);
    let entered;
    for (let i = 1440; i < 1440 + 60; i++) {
      const { added } = s.update(withNew, i * MIN, sum(withNew));
      if (added.includes('deploy.NewHandler')) {
        entered = i - 1440 + 1;
      }
      if (entered !== undefined) {
        assert.ok(s.has('deploy.NewHandler'), `interval ${i - 1440 + 1}: it stays while at 10%`);
      }
    }
    assert.ok(entered !== undefined && entered <= 15, `entered at interval ${entered}`);
    assert.ok(s.members.size <= 40);
    // both sums stay bounded: the 10·K costliest plus the members
    assert.ok(s.cost.size <= 200 + s.members.size && s.recent.size <= 200 + s.members.size, `${s.cost.size} / ${s.recent.size} remembered`);
  });

  it('a steady function at 0.5% never enters by the fast path over a day of sampled profiles; one at 2% does', () => {
    const random = rng(7);
    // a 0.05-core service at 100 Hz: 300 samples a minute
    const shares = new Map([['a', 0.5], ['b', 0.3], ['two', 0.02], ['half', 0.005]]);
    for (let i = 0; i < 100; i++) {
      shares.set(`small${i}`, 0.00175);
    }
    const s = new StickyTopSet({ k: 2 });
    let twoFrom;
    for (let i = 0; i < 1440; i++) {
      const costs = sampled(shares, 300, random);
      s.update(costs, i * MIN, sum(costs));
      assert.ok(!s.has('half'), `minute ${i}: the 0.5% function entered`);
      twoFrom ??= s.has('two') ? i : undefined;
    }
    assert.ok(s.has('a') && s.has('b'));
    // not before a window of samples (the first minutes are too few), then at once
    assert.ok(twoFrom >= 10 && twoFrom <= 15, `the 2% function entered at minute ${twoFrom}`);
    assert.ok([...s.members.keys()].every((f) => !f.startsWith('small')), [...s.members.keys()].join());
  });

  it('a member whose day cost ranks below the 10·K-th candidate keeps its accumulated cost', () => {
    // room for all: a full set would give old's place to a newcomer (tested below)
    const s = new StickyTopSet({ k: 1, maxMembers: 30 });
    s.update(new Map([['old', 100]]), 0);
    assert.ok(s.has('old'));
    // 20 functions, each costlier in a minute than `old`'s day: `old` ranks 21st of candidates kept to 10
    const others = new Map(Array.from({ length: 20 }, (_, i) => [`g${i}`, 200]));
    for (let m = 1; m <= 60; m++) {
      s.update(others, m * MIN);
    }
    assert.ok(s.has('old'), 'a member stays a day after it last ranked');
    assert.ok(Math.abs(s.cost.get('old') - 100 * Math.exp(-60 * MIN / DAY_MS)) < 1e-9, `its cost is ${s.cost.get('old')}`);
    assert.ok(s.cost.size <= 10 + s.members.size);
  });

  it('a full set takes a new function at 10% in the place of the cheapest member kept only by its stickiness; one barely above it waits', () => {
    const s = new StickyTopSet({ k: 2, maxMembers: 4 });
    // a flat profile: a and b rank in the top 2; c and d at 1.5% flicker in and stay by stickiness
    const flat = new Map([['a', 480], ['b', 470], ['c', 15], ['d', 15], ['e', 10], ['f', 10]]);
    for (let m = 0; m < 30; m++) {
      s.update(flat, m * MIN);
    }
    assert.deepEqual([...s.members.keys()].sort(), ['a', 'b', 'c', 'd']);
    // c and d fall to 0.5%: kept by stickiness only, the set is full
    const quiet = new Map([...flat, ['c', 5], ['d', 6]]);
    for (let m = 30; m < 90; m++) {
      s.update(quiet, m * MIN);
    }
    assert.equal(s.members.size, 4);
    // g at 1.1% (entry share reached, but not twice c's cost) waits; h, new at 10%, takes c's place
    const withNew = new Map([...quiet, ['g', 11], ['h', 110]]);
    let removed = [];
    for (let m = 90; m < 105; m++) {
      removed = removed.concat(s.update(withNew, m * MIN).removed);
    }
    assert.ok(s.has('h'), 'the new function is a member');
    assert.deepEqual(removed, ['c'], 'the cheapest sticky member made way, and only it');
    assert.ok(!s.has('g'), 'a newcomer not twice the cheapest sticky member waits');
    assert.equal(s.members.size, 4);
  });

  it('maxMembers bounds the set when many functions surge at once', () => {
    const s = new StickyTopSet({ k: 3 });
    const steady = new Map([['a', 500], ['b', 300], ['c', 200]]);
    for (let m = 0; m < 60; m++) {
      s.update(steady, m * MIN);
    }
    assert.deepEqual([...s.members.keys()].sort(), ['a', 'b', 'c']);
    // 30 functions at 3% each of the new total, all at once
    const surge = new Map([...steady, ...Array.from({ length: 30 }, (_, i) => [`s${i}`, 1000 * 0.03 / 0.1])]);
    for (let m = 60; m < 90; m++) {
      s.update(surge, m * MIN);
      assert.ok(s.members.size <= 6, `minute ${m}: ${s.members.size} members`);
    }
    assert.equal(s.members.size, 6, 'the free places are taken by surging functions');
    assert.equal([...s.members.keys()].filter((f) => f.startsWith('s')).length, 3);
  });
});
