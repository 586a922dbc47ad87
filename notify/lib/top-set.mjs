// Which of a service's functions get a series of their own: the top K by the last day's cost,
// sticky, so the series set does not churn. The last day's cost is a decayed sum (each
// interval's cost added, everything decayed with a time constant of a day): one number per
// function instead of a day of buckets, which at a thousand services of thousands of functions
// is the difference between megabytes and gigabytes. Only the 10·K costliest candidates are
// remembered between intervals, and every member (its cost is what ranks it back in); a function
// below them starts again from its next interval's cost.
//
// Fast entry. By the day's cost alone a function new to a service (new code in a deploy) needs
// hours to outrank the K-th member, and on a service of more than 10·K functions its one interval
// of cost is below the last candidate's day, so it is forgotten every interval and never enters:
// the function alert could never name it. So each function also has a short decayed sum (time
// constant entryWindowMs, 10 minutes), and the service's total the same: a function whose short
// sum is at least entryShare (1%) of the service's enters (up to maxMembers, as a top-K newcomer)
// and is renewed while it stays there, as a top-K rank renews a member. The function alert judges
// a function that entered recently against "it cost less than entryShare of its service before",
// so its rules' entry share must equal this one. 10 minutes at 100 Hz on a 0.05-core service is
// ~3000 samples: 1% is ~30 ± 5.5 of them, so a steady 0.5% function (~15 ± 3.9) does not flicker in.
// For the same reason the fast entry waits until the set has seen one entryWindowMs: a first
// minute is ~300 samples, where 1% is 3 and a 0.5% function reaches it one time in five.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

const d = await dataLayer();
const byCost = (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

export const DAY_MS = 86_400_000;
export const ENTRY_DEFAULTS = { entryWindowMs: 10 * 60_000, entryShare: 0.01 };

/**
 * Decays every value of `sums` by `factor` and adds `costs`. Returns what is remembered: the
 * `keep` costliest non-members and every member, as `ranked` (best first) and as `map`.
 */
function decayAndAdd(sums, factor, costs, keep, members) {
  for (const [f, c] of sums) {
    sums.set(f, c * factor);
  }
  for (const [f, c] of costs) {
    sums.set(f, (sums.get(f) ?? 0) + c);
  }
  // a bounded heap (a busy service has thousands of functions)
  const ranked = d.firstItems([...sums].filter(([f, c]) => c > 0 && !members.has(f)), byCost, keep);
  const kept = [...members.keys()].filter((f) => sums.has(f)).map((f) => [f, sums.get(f)]);
  return { ranked: [...kept, ...ranked].sort(byCost), map: new Map([...ranked, ...kept]) };
}

export class StickyTopSet {
  /**
   * @param {object} o
   * @param {number} [o.k] functions ranked in (default 20)
   * @param {number} [o.stickMs] how long a function stays after it last ranked in the top K or
   *   at or above the entry share (default a day)
   * @param {number} [o.decayMs] the decayed sum's time constant (default a day)
   * @param {number} [o.maxMembers] the most members at once (default 2·K): a churning service
   *   cannot grow its series without bound; a newcomer waits until a member expires, or takes the
   *   place of one kept only by its stickiness that costs less than half of it
   * @param {number} [o.entryWindowMs] the short decayed sum's time constant (default 10 minutes)
   * @param {number} [o.entryShare] the share of the service's short decayed total at which a
   *   function enters without waiting for its day's cost to rank it (default 0.01)
   */
  constructor({ k = 20, stickMs = DAY_MS, decayMs = DAY_MS, maxMembers = 2 * k, entryWindowMs = ENTRY_DEFAULTS.entryWindowMs, entryShare = ENTRY_DEFAULTS.entryShare } = {}) {
    Object.assign(this, { k, stickMs, decayMs, maxMembers, entryWindowMs, entryShare });
    this.cost = new Map(); // function -> decayed cost as of this.at
    this.recent = new Map(); // function -> short decayed cost as of this.at
    this.recentTotal = 0; // the service's short decayed total (every function, `other` included)
    this.members = new Map(); // function -> when it last ranked in the top K or at the entry share
    this.at = undefined;
    this.since = undefined; // the first update: the short share is judged after a window of it
  }

  /**
   * Adds one interval's cost by function at time `now` (ms) and updates the set.
   * @param {Map<string, number>} byFunction
   * @param {number} now
   * @param {number} [total] the interval's whole profile (default the sum of byFunction): the
   *   entry share is of the service's total, not of the functions the profile names
   * @returns {{ added: string[], removed: string[] }}
   */
  update(byFunction, now, total = [...byFunction.values()].reduce((a, b) => a + b, 0)) {
    const dt = this.at === undefined ? 0 : Math.max(0, now - this.at);
    this.at = now;
    this.since ??= now;
    const keep = Math.max(10 * this.k, this.maxMembers);
    const day = decayAndAdd(this.cost, Math.exp(-dt / this.decayMs), byFunction, keep, this.members);
    this.cost = day.map;
    const recent = decayAndAdd(this.recent, Math.exp(-dt / this.entryWindowMs), byFunction, keep, this.members);
    this.recent = recent.map;
    this.recentTotal = this.recentTotal * Math.exp(-dt / this.entryWindowMs) + total;
    const top = day.ranked.slice(0, this.k).map(([f]) => f);
    const warm = now - this.since >= this.entryWindowMs;
    const surging = warm ? recent.ranked.filter(([, c]) => c >= this.entryShare * this.recentTotal).map(([f]) => f) : [];
    const ranked = [...new Set([...top, ...surging])];
    for (const f of ranked) {
      if (this.members.has(f)) {
        this.members.set(f, now);
      }
    }
    // expired members go first, so a newcomer can take the place one frees in the same interval
    const removed = [];
    for (const [f, last] of this.members) {
      if (now - last >= this.stickMs) {
        this.members.delete(f);
        removed.push(f);
      }
    }
    // A full set still takes a newcomer that costs, lately, more than twice the cheapest member
    // kept only by its stickiness (neither in the top K nor at the entry share now): on a service
    // whose profile is flat, small functions flicker in and fill the set for a day, and a new
    // function taking 10% of it must not wait for one of them to expire. Twice: a newcomer barely
    // above a member would swap rows back and forth.
    const recentOf = (f) => this.recent.get(f) ?? 0;
    const rankedNow = new Set(ranked);
    const added = [];
    for (const f of ranked.filter((g) => !this.members.has(g)).sort((a, b) => recentOf(b) - recentOf(a))) {
      if (this.members.size >= this.maxMembers) {
        const [victim] = [...this.members.keys()].filter((m) => !rankedNow.has(m)).sort((a, b) => recentOf(a) - recentOf(b));
        if (victim === undefined || recentOf(f) <= 2 * recentOf(victim)) {
          break;
        }
        this.members.delete(victim);
        removed.push(victim);
      }
      this.members.set(f, now);
      added.push(f);
    }
    return { added, removed };
  }

  has(f) {
    return this.members.has(f);
  }
}
