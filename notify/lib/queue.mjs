// Bounded work: at most `concurrency` jobs at a time, at most `max` waiting. push() refuses
// (returns false) when full, so that the webhook can answer 503 and Alertmanager retries later,
// instead of the receiver growing without bound.
export class Queue {
  constructor({ concurrency = 2, max = 100 } = {}) {
    this.concurrency = concurrency;
    this.max = max;
    this.waiting = [];
    this.running = 0;
    this.idleWaiters = [];
  }

  push(job) {
    if (this.waiting.length >= this.max) {
      return false;
    }
    this.waiting.push(job);
    this.next();
    return true;
  }

  next() {
    while (this.running < this.concurrency && this.waiting.length) {
      const job = this.waiting.shift();
      this.running++;
      Promise.resolve()
        .then(job)
        .catch(() => {}) // jobs log their own failures
        .finally(() => {
          this.running--;
          this.next();
        });
    }
    if (this.running === 0 && !this.waiting.length) {
      this.idleWaiters.splice(0).forEach((r) => r());
    }
  }

  /** Resolves when nothing runs or waits. */
  idle() {
    return this.running === 0 && !this.waiting.length ? Promise.resolve() : new Promise((r) => this.idleWaiters.push(r));
  }
}
