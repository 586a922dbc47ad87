// Which of a service's functions get a series of their own: the top K by the last day's cost,
// sticky, so the series set does not churn. The last day's cost is a decayed sum (each
// interval's cost added, everything decayed with a time constant of a day): one number per
// function instead of a day of buckets, which at a thousand services of thousands of functions
// is the difference between megabytes and gigabytes. Only the 10·K costliest candidates are
// remembered between intervals; a function below them starts again from its next interval's cost.
import { dataLayer } from '@hotpath/headless/data-node.mjs';

const d = await dataLayer();
const byCost = (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);

export const DAY_MS = 86_400_000;

export class StickyTopSet {
  /**
   * @param {object} o
   * @param {number} [o.k] functions ranked in (default 20)
   * @param {number} [o.stickMs] how long a function stays after it last ranked in the top K (default a day)
   * @param {number} [o.decayMs] the decayed sum's time constant (default a day)
   * @param {number} [o.maxMembers] the most members at once (default 2·K): a churning service
   *   cannot grow its series without bound; a newcomer waits until a member expires
   */
  constructor({ k = 20, stickMs = DAY_MS, decayMs = DAY_MS, maxMembers = 2 * k } = {}) {
    Object.assign(this, { k, stickMs, decayMs, maxMembers });
    this.cost = new Map(); // function -> decayed cost as of this.at
    this.members = new Map(); // function -> when it last ranked in the top K
    this.at = undefined;
  }

  /**
   * Adds one interval's cost by function at time `now` (ms) and updates the set.
   * @param {Map<string, number>} byFunction
   * @returns {{ added: string[], removed: string[] }}
   */
  update(byFunction, now) {
    const decay = this.at === undefined ? 1 : Math.exp(-Math.max(0, now - this.at) / this.decayMs);
    this.at = now;
    for (const [f, c] of this.cost) {
      this.cost.set(f, c * decay);
    }
    for (const [f, c] of byFunction) {
      this.cost.set(f, (this.cost.get(f) ?? 0) + c);
    }
    // the candidates kept, best first: a bounded heap (a busy service has thousands of functions)
    const ranked = d.firstItems([...this.cost].filter(([, c]) => c > 0), byCost, Math.max(10 * this.k, this.maxMembers));
    this.cost = new Map(ranked);
    const top = ranked.slice(0, this.k).map(([f]) => f);
    for (const f of top) {
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
    const added = [];
    for (const f of top) {
      if (!this.members.has(f) && this.members.size < this.maxMembers) {
        this.members.set(f, now);
        added.push(f);
      }
    }
    return { added, removed };
  }

  has(f) {
    return this.members.has(f);
  }
}
