// Slack deliveries that outlive a bad minute. A message is posted at once (postWebhook: five
// attempts over ~8 s); when Slack stays down or keeps answering 429, the message is kept in the
// journal ("parked") and retried with backoff (Retry-After when Slack gives one, else doubling
// up to maxBackoffMs) across restarts, until it is delivered or giveUpMs after its first failure.
// An alert's messages leave in order: while one of them is parked, the later ones (its resolve)
// wait behind it instead of overtaking it.
// stop() waits for a retry already on the wire: its outcome reaches the journal before the
// process ends, so the next start neither posts a delivered message again nor forgets one.
import { DeliveryError, postWebhook, redactUrl } from './deliver.mjs';

export class Outbox {
  /**
   * @param {{ url: string, journal, log: (line) => void, now?: () => number, post?: object,
   *   retryEveryMs?: number, maxBackoffMs?: number, giveUpMs?: number,
   *   onSettled?: (record) => void }} opts  post: postWebhook's options
   */
  constructor({ url, journal, log, now = Date.now, post = {}, retryEveryMs = 15_000, firstBackoffMs = 30_000, maxBackoffMs = 10 * 60_000, giveUpMs = 24 * 3600_000, onSettled = () => {} }) {
    Object.assign(this, { url, journal, log, now, post, firstBackoffMs, maxBackoffMs, giveUpMs, onSettled });
    this.retrying = undefined; // the retry round under way (a promise), if any
    this.stopped = false;
    this.timer = setInterval(() => this.retryParked(), retryEveryMs);
    this.timer.unref();
  }

  /**
   * No more retries; resolves once the retry under way, if any, is settled and journaled. An
   * attempt ends within its timeout (post.timeoutMs), so the wait is bounded by it; `boundMs`
   * caps it again should the journal or the log hang.
   */
  async stop({ boundMs = (this.post.timeoutMs ?? 30_000) + 5000 } = {}) {
    clearInterval(this.timer);
    this.stopped = true;
    if (!this.retrying) {
      return true;
    }
    let timer;
    const gaveUp = new Promise((r) => {
      timer = setTimeout(() => r(false), boundMs);
      timer.unref();
    });
    const settled = await Promise.race([this.retrying.then(() => true, () => true), gaveUp]);
    clearTimeout(timer);
    if (!settled) {
      this.log(`stopped before a Slack retry under way for ${boundMs / 1000}s had an answer: it stays in the journal and is posted again at the next start`);
    }
    return settled;
  }

  /** Parked deliveries of this alert, oldest first. */
  parkedFor(fp) {
    return this.journal.parkedRecords().filter((p) => p.fp === fp);
  }

  /**
   * Delivers the record's payload; resolves with what to write in the record:
   * { slack: 'delivered' | 'retrying' | 'failed', attempts, deliveryFailures }.
   */
  async send({ id, fp, record, title }) {
    if (this.parkedFor(fp).length) {
      this.park({ id, fp, record, title, failures: [], waitingBehind: true });
      return { slack: 'retrying', attempts: 0, deliveryFailures: [{ at: new Date(this.now()).toISOString(), attempt: 0, error: 'waiting behind an earlier message of this alert that Slack has not taken yet' }] };
    }
    const failures = [];
    try {
      const attempts = await postWebhook(this.url, record.payload, { ...this.post, now: this.now, failures });
      return { slack: 'delivered', attempts, deliveryFailures: failures };
    } catch (e) {
      if (!failures.length) {
        failures.push({ at: new Date(this.now()).toISOString(), attempt: 1, error: e.message });
      }
      if (e instanceof DeliveryError && e.permanent) {
        return { slack: 'failed', attempts: failures.length, deliveryFailures: failures, error: e.message };
      }
      this.park({ id, fp, record, title, failures, retryInMs: e.retryInMs });
      return { slack: 'retrying', attempts: failures.length, deliveryFailures: failures, error: e.message };
    }
  }

  park({ id, fp, record, title, failures, retryInMs, waitingBehind = false }) {
    const now = this.now();
    const backoffMs = this.firstBackoffMs;
    this.journal.append([{ t: 'park', id, fp, key: record.key, status: record.status, title, record: structuredClone(record), failures, firstFailedAt: now, backoffMs, nextAt: waitingBehind ? now : now + (retryInMs ?? backoffMs) }]);
  }

  /** One attempt for the first parked message of each alert whose time has come. */
  retryParked() {
    if (this.retrying || this.stopped) {
      return this.retrying;
    }
    this.retrying = this.retryHeads().finally(() => {
      this.retrying = undefined;
    });
    return this.retrying;
  }

  async retryHeads() {
    const heads = new Map();
    for (const p of this.journal.parkedRecords()) {
      if (!heads.has(p.fp)) {
        heads.set(p.fp, p);
      }
    }
    for (const p of heads.values()) {
      if (this.stopped) {
        return;
      }
      if (p.nextAt <= this.now()) {
        await this.retryOne(p);
      }
    }
  }

  async retryOne(p) {
    const attempt = p.failures.length + 1;
    let outcome;
    try {
      await postWebhook(this.url, p.record.payload, { ...this.post, attempts: 1, now: this.now });
      outcome = 'delivered';
    } catch (e) {
      const failures = [...p.failures, ...(e.failures ?? []).map((f) => ({ ...f, attempt }))];
      if (e.permanent) {
        outcome = 'failed';
        p = { ...p, failures };
      } else if (this.now() - p.firstFailedAt >= this.giveUpMs) {
        outcome = 'gave up';
        p = { ...p, failures };
      } else {
        const backoffMs = Math.min(p.backoffMs * 2, this.maxBackoffMs);
        this.journal.append([{ ...p, failures, backoffMs, nextAt: this.now() + (e.retryInMs ?? backoffMs) }]);
        return;
      }
    }
    this.journal.append([{ t: 'unpark', id: p.id }]);
    const record = { ...p.record, slack: outcome === 'delivered' ? 'delivered' : 'failed', attempts: p.failures.length + (outcome === 'delivered' ? 1 : 0), deliveryFailures: p.failures, settledAt: new Date(this.now()).toISOString() };
    this.log(`${p.title ?? p.key} ${p.status}: ${outcome === 'delivered' ? `delivered to ${redactUrl(this.url)} on retry` : `NOT delivered to ${redactUrl(this.url)} (${outcome}: ${p.failures.at(-1)?.error})`} after ${record.attempts} attempts`);
    this.onSettled(record);
    // the next message of this alert (its resolve) goes now, not a whole period later
    const next = this.parkedFor(p.fp)[0];
    if (next && outcome === 'delivered' && !this.stopped) {
      await this.retryOne(next);
    }
  }
}
