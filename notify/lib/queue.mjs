// Bounded work: at most `concurrency` jobs at a time, at most `max` waiting. push() refuses
// (returns false) when full, so that the webhook can answer 503 and Alertmanager retries later,
// instead of the receiver growing without bound.
//
// Jobs with the same key (an alert's fingerprint) run one after the other, in the order they were
// pushed: an alert's resolve never starts before its firing message is out. A job that throws is
// reported to onError, never dropped in silence.
//
// A job that is about to wait for something bounded elsewhere (a render slot: render-gate.mjs)
// calls releaseWorker(): its worker takes the next job meanwhile, so alerts that need no picture
// are not stuck behind alerts that wait for one. The job still holds its key until it ends.
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage();

/** Frees the calling job's worker for the next job (the job itself goes on). No-op outside a job. */
export function releaseWorker() {
  current.getStore()?.release();
}

export class Queue {
  /** @param {{ concurrency?: number, max?: number, onError?: (error, job) => void }} opts */
  constructor({ concurrency = 2, max = 100, onError = () => {} } = {}) {
    this.concurrency = concurrency;
    this.max = max;
    this.onError = onError;
    this.waiting = []; // { job, key }
    this.running = 0; // jobs holding a worker
    this.active = 0; // jobs started and not ended (released ones too)
    this.runningKeys = new Set();
    this.stopped = false;
    this.idleWaiters = [];
  }

  /** Queues job (a function returning a promise); false when the queue is full. */
  push(job, key) {
    if (this.waiting.length >= this.max) {
      return false;
    }
    this.waiting.push({ job, key });
    this.next();
    return true;
  }

  /**
   * Queues job even when the queue is full: work already accepted (a restart's unfinished jobs,
   * in the journal) is never refused.
   */
  pushAlways(job, key) {
    this.waiting.push({ job, key });
    this.next();
  }

  /** How many more jobs push() takes now: the free workers take one each at once, the queue holds max more. */
  room() {
    return this.max + Math.max(0, this.concurrency - this.running) - this.waiting.length;
  }

  /** { waiting, running }: jobs waiting for a worker, jobs holding one. */
  counts() {
    return { waiting: this.waiting.length, running: this.running };
  }

  next() {
    while (!this.stopped && this.running < this.concurrency) {
      const i = this.waiting.findIndex((w) => w.key === undefined || !this.runningKeys.has(w.key));
      if (i === -1) {
        break;
      }
      const [{ job, key }] = this.waiting.splice(i, 1);
      this.running++;
      this.active++;
      if (key !== undefined) {
        this.runningKeys.add(key);
      }
      let released = false;
      const release = () => {
        if (!released) {
          released = true;
          this.running--;
          this.next();
        }
      };
      current
        .run({ release }, () => Promise.resolve().then(job))
        .catch((e) => this.onError(e, job))
        .finally(() => {
          this.active--;
          this.runningKeys.delete(key);
          if (released) {
            this.next();
          } else {
            release();
          }
        });
    }
    if (this.active === 0 && (!this.waiting.length || this.stopped)) {
      this.idleWaiters.splice(0).forEach((r) => r());
    }
  }

  /** Starts nothing more: what waits stays waiting (the journal keeps it for the next start). */
  stop() {
    this.stopped = true;
    this.next();
  }

  /** Resolves when no job is under way (and, unless stopped, nothing waits). */
  idle() {
    return this.active === 0 && (this.stopped || !this.waiting.length) ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }
}
