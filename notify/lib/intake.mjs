// From a webhook to work on disk. Every alert of the webhook is looked at (none is dropped for
// being the 201st), checked and normalised (labels and annotations become short strings: a value
// that is an array nested 10,000 deep cannot crash what prints it), decided (announce, update, or
// skip a repeat) and, before the webhook is answered, written to the journal: a crash or a
// restart after the 200 loses nothing. Each job runs in the queue under its alert's fingerprint,
// so an alert's resolve waits for its firing; a job that throws still sends its message (without
// the diff, saying why) and every alert gets a log line.
//
// The Intake owns the journal, the dedupe memory and the queue; the rest of the receiver asks it
// through its methods (accept, restore, health, idle, stop) and gives it the work a job does.
import { alertKey, alertTitle, fingerprintOf } from './alert-identity.mjs';
import { Dedupe } from './dedupe.mjs';
import { Journal } from './journal.mjs';
import { Queue } from './queue.mjs';

const MAX_ENTRIES = 200; // labels or annotations per alert
const MAX_VALUE = 8192; // characters of one value (a message shows 300)

function stringValue(v) {
  if (typeof v === 'string') {
    return v.length > MAX_VALUE ? v.slice(0, MAX_VALUE) : v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  return v === null || v === undefined ? '' : `(${Array.isArray(v) ? 'an array' : 'an object'}, not a label value)`;
}

function stringMap(o) {
  if (!o || typeof o !== 'object' || Array.isArray(o)) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(o)
      .slice(0, MAX_ENTRIES)
      .map(([k, v]) => [k.slice(0, 256), stringValue(v)])
  );
}

/** An alert as Alertmanager's webhook documents it, with strings where strings belong; or { error }. */
export function normalizeAlert(a) {
  if (!a || typeof a !== 'object' || Array.isArray(a)) {
    return { error: 'an alert that is not an object' };
  }
  const startsAt = typeof a.startsAt === 'string' ? a.startsAt : '';
  const t = Date.parse(startsAt);
  if (!Number.isFinite(t)) {
    return { error: 'an alert without a valid startsAt' };
  }
  return {
    alert: {
      status: a.status === 'resolved' ? 'resolved' : 'firing',
      labels: stringMap(a.labels),
      annotations: stringMap(a.annotations),
      startsAt,
      endsAt: typeof a.endsAt === 'string' ? a.endsAt : undefined,
      generatorURL: typeof a.generatorURL === 'string' ? a.generatorURL.slice(0, 4096) : undefined,
      fingerprint: typeof a.fingerprint === 'string' ? a.fingerprint.slice(0, 64) : undefined,
    },
  };
}

/**
 * What a job does is the caller's: work.run(job) sends its message; work.fallback(job, reason)
 * sends the message without its diff when run threw; work.stopping() says the process is going
 * away (a job that fails then stays in the journal for the next start).
 */
export class Intake {
  /**
   * @param {{ stateDir: string, workers: number, queueMax: number, now: () => number, log: (line: string) => void,
   *   work: { run: (job) => Promise<void>, fallback: (job, reason: string) => Promise<void>, stopping: () => boolean } }} opts
   */
  constructor({ stateDir, workers, queueMax, now, log, work }) {
    this.now = now;
    this.log = log;
    this.work = work;
    this.journal = new Journal(stateDir);
    this.dedupe = new Dedupe({ now });
    this.queue = new Queue({ concurrency: workers, max: queueMax, onError: (e) => log(`a job failed: ${e.stack ?? e.message}`) });
    this.inFlight = new Map(); // job id -> job, while it runs
  }

  /**
   * Takes a parsed webhook: returns { accepted, skipped, refused } once the accepted alerts are on
   * disk. Refused alerts (the queue is full, or the disk refused the write) are not remembered, so
   * Alertmanager's retry brings them again.
   */
  accept(payload) {
    const counts = { accepted: 0, skipped: 0, refused: 0 };
    const receivedAt = this.now();
    const planned = []; // { job, seen }
    const seenNow = new Map(); // fingerprint -> status planned in this webhook
    const touched = [];
    const room = this.queue.room();
    for (const raw of payload.alerts ?? []) {
      const { alert, error } = normalizeAlert(raw);
      if (error) {
        counts.skipped++;
        this.log(`${error}: skipped`);
        continue;
      }
      const { status } = alert;
      const key = alertKey(alert);
      const fp = fingerprintOf(key);
      const title = alertTitle(alert);
      const action = seenNow.get(fp) === status ? 'skip' : this.dedupe.action(fp, status, alert.startsAt);
      if (action === 'skip') {
        counts.skipped++;
        touched.push(fp);
        this.log(`${title} ${status}: skipped (${status === 'firing' ? 'already announced' : 'never announced here'})`);
        continue;
      }
      if (planned.length >= room) {
        counts.refused++;
        this.log(`${title} ${status}: refused, the queue holds ${this.queue.max} alerts`);
        continue;
      }
      seenNow.set(fp, status);
      planned.push({
        job: { t: 'job', id: `${key}:${status}`, fp, key, status, alert, receivedAt },
        seen: { t: 'seen', fp, startsAt: alert.startsAt, status, at: receivedAt },
      });
    }
    const touches = touched.map((fp) => this.dedupe.entry(fp)).map((v, i) => v && { t: 'seen', fp: touched[i], ...v }).filter(Boolean);
    try {
      this.journal.append([...touches, ...planned.flatMap((p) => [p.seen, p.job])]);
    } catch (e) {
      this.log(`the journal refused the webhook's alerts (${e.message}): answered 503, Alertmanager will send them again`);
      return { accepted: 0, skipped: counts.skipped, refused: counts.refused + planned.length };
    }
    for (const { job, seen } of planned) {
      this.dedupe.commit(job.fp, job.status, seen.startsAt, seen.at);
      this.queueJob(job);
      counts.accepted++;
    }
    this.journal.maybeCompact(this.dedupe.entries());
    return counts;
  }

  /** Queues a journalled job (at acceptance, or at start for what the last process left). */
  queueJob(job, { force = false } = {}) {
    const run = () => this.runJob(job);
    if (force) {
      this.queue.pushAlways(run, job.fp);
    } else {
      this.queue.push(run, job.fp);
    }
  }

  /** Runs one job; whatever happens, its alert gets a message and a log line, and the journal its end. */
  async runJob(job) {
    const { alert, status } = job;
    this.inFlight.set(job.id, job);
    try {
      await this.work.run(job);
    } catch (e) {
      if (this.work.stopping()) {
        return; // the process is going away: the journal keeps the job for the next start
      }
      this.log(`${alertTitle(alert)} ${status}: ${e.message}: the message goes out without its diff`);
      try {
        await this.work.fallback(job, `unexpected error: ${e.message}`);
      } catch (e2) {
        this.log(`${alertTitle(alert)} ${status}: NOT delivered (${e2.message})`);
      }
    } finally {
      this.inFlight.delete(job.id);
    }
    this.journal.append([{ t: 'done', id: job.id }]);
  }

  /** At start: the dedupe state and the unfinished jobs the last process left in the journal; returns how many jobs resumed. */
  restore() {
    for (const s of this.journal.takeSeen()) {
      this.dedupe.commit(s.fp, s.status, s.startsAt, s.at);
    }
    const jobs = this.journal.unfinishedJobs();
    this.journal.compact(this.dedupe.entries());
    for (const job of jobs) {
      this.log(`${alertTitle(job.alert)} ${job.status}: resumed from the journal (accepted ${new Date(job.receivedAt).toISOString()})`);
      this.queueJob(job, { force: true });
    }
    return jobs.length;
  }

  /** What /-/healthy reports: alerts waiting, running, and Slack deliveries kept for later. */
  health() {
    const { waiting, running } = this.queue.counts();
    return { queued: waiting, running, retrying: this.journal.parkedRecords().length };
  }

  /** The jobs under way now (a shutdown names those it interrupts). */
  running() {
    return [...this.inFlight.values()];
  }

  /** Resolves when no job is under way (and, unless stopped, nothing waits). */
  idle() {
    return this.queue.idle();
  }

  /** Starts no more jobs: what waits stays in the journal for the next start. */
  stop() {
    this.queue.stop();
  }
}
