// One message per alert (Alertmanager's fingerprint), and one update when it resolves.
// Alertmanager re-sends a group's alerts on every group_interval / repeat_interval and sends the
// whole group when one alert changes: a firing alert already announced is not announced again.
// An alert that fires again after it resolved (a new startsAt) is a new incident: a new message.
//
// An entry lives ttlMs from the last time Alertmanager mentioned the alert (a repeat refreshes
// it), not from its first announcement: an alert that fires for days keeps its entry as long as
// Alertmanager keeps repeating it, so its resolve still finds the firing it updates. The notifier
// keeps the entries on disk (the journal), so a restart neither announces again nor loses a resolve.

export class Dedupe {
  /** @param {{ max?: number, ttlMs?: number, now?: () => number }} opts bounded: the least recently seen go first */
  constructor({ max = 10_000, ttlMs = 7 * 24 * 3600_000, now = Date.now } = {}) {
    this.max = max;
    this.ttlMs = ttlMs;
    this.now = now;
    this.seen = new Map(); // fingerprint -> { startsAt, status, at }, in order of `at`
  }

  /**
   * What to do with an alert of a webhook: 'fire' (announce), 'resolve' (update an announced
   * alert), or 'skip' (a repeat, or a resolve of an alert never announced here). Changes nothing
   * but the age of a repeat: commit() records the decision once its work is queued.
   */
  action(fingerprint, status, startsAt) {
    this.expire();
    const prev = this.seen.get(fingerprint);
    if (status === 'firing') {
      if (prev && prev.startsAt === startsAt) {
        this.touch(fingerprint);
        return 'skip';
      }
      return 'fire';
    }
    return prev && prev.startsAt === startsAt && prev.status === 'firing' ? 'resolve' : 'skip';
  }

  commit(fingerprint, status, startsAt, at = this.now()) {
    this.seen.delete(fingerprint);
    this.seen.set(fingerprint, { startsAt, status, at });
    while (this.seen.size > this.max) {
      this.seen.delete(this.seen.keys().next().value);
    }
  }

  /** Alertmanager mentioned the alert again: it is still alive. */
  touch(fingerprint, at = this.now()) {
    const prev = this.seen.get(fingerprint);
    if (prev) {
      this.commit(fingerprint, prev.status, prev.startsAt, Math.max(at, prev.at));
    }
  }

  expire() {
    const cutoff = this.now() - this.ttlMs;
    for (const [k, v] of this.seen) {
      if (v.at >= cutoff) {
        break; // insertion order is the order of `at`
      }
      this.seen.delete(k);
    }
  }

  /** What is remembered of an alert: { startsAt, status, at }, or undefined. */
  entry(fingerprint) {
    return this.seen.get(fingerprint);
  }

  /** [[fingerprint, { startsAt, status, at }], ...] oldest first: what the journal keeps. */
  entries() {
    return [...this.seen];
  }
}
