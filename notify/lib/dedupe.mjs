// One message per alert (Alertmanager's fingerprint), and one update when it resolves.
// Alertmanager re-sends a group's alerts on every group_interval / repeat_interval and sends the
// whole group when one alert changes: a firing alert already announced is not announced again.
// An alert that fires again after it resolved (a new startsAt) is a new incident: a new message.

export class Dedupe {
  /** @param {{ max?: number, ttlMs?: number, now?: () => number }} opts bounded: the oldest entries go first */
  constructor({ max = 10_000, ttlMs = 24 * 3600_000, now = Date.now } = {}) {
    this.max = max;
    this.ttlMs = ttlMs;
    this.now = now;
    this.seen = new Map(); // fingerprint -> { startsAt, status, at }
  }

  /**
   * What to do with an alert of a webhook: 'fire' (announce), 'resolve' (update an announced
   * alert), or 'skip' (a repeat, or a resolve of an alert never announced here). Changes nothing:
   * commit() records the decision once its work is queued.
   */
  action(fingerprint, status, startsAt) {
    this.expire();
    const prev = this.seen.get(fingerprint);
    if (status === 'firing') {
      return prev && prev.startsAt === startsAt ? 'skip' : 'fire';
    }
    return prev && prev.startsAt === startsAt && prev.status === 'firing' ? 'resolve' : 'skip';
  }

  commit(fingerprint, status, startsAt) {
    this.seen.delete(fingerprint);
    this.seen.set(fingerprint, { startsAt, status, at: this.now() });
    while (this.seen.size > this.max) {
      this.seen.delete(this.seen.keys().next().value);
    }
  }

  expire() {
    const cutoff = this.now() - this.ttlMs;
    for (const [k, v] of this.seen) {
      if (v.at >= cutoff) {
        break; // insertion order is time order
      }
      this.seen.delete(k);
    }
  }
}
