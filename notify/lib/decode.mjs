// Decoding a profile answer off the main thread, once: the worker reads it into the tree that
// the answer and the picture are both made from. A small gzip can inflate to gigabytes and a
// pprof of millions of samples takes seconds to decode: on the event loop either one stops the
// webhook, /-/healthy and every other alert. Decoding runs in a small pool of worker threads
// (as many as there are cores, at most 4: a storm's alerts share them) with three bounds: the
// inflated size (maxBytes), each worker's heap (maxHeapMb) and each task's time (timeoutMs: the
// worker is then terminated and replaced). Every failure is a DecodeError with a one-line reason.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./decode-worker.mjs', import.meta.url);
const MAX_HEAP_MB = 1024;

export class DecodeError extends Error {}

class Pool {
  constructor(size, maxHeapMb) {
    this.size = size;
    this.maxHeapMb = maxHeapMb;
    this.idle = [];
    this.count = 0;
    this.tasks = []; // { msg, transfer, timeoutMs, resolve, reject }
    this.seq = 0;
  }

  spawn() {
    const w = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb }, stdout: true, stderr: true });
    w.on('message', (m) => this.settle(w, m.ok ? null : new DecodeError(m.message), m.value));
    w.on('error', (e) => this.settle(w, new DecodeError(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `decoding needed more than ${this.maxHeapMb} MiB` : e.message), undefined, true));
    w.on('exit', (code) => this.settle(w, new DecodeError(`the decoder stopped (exit ${code})`), undefined, true));
    w.unref(); // an idle pool does not keep the receiver alive (after the listeners: they would ref it again)
    this.count++;
    return w;
  }

  run(msg, transfer, timeoutMs) {
    return new Promise((resolve, reject) => {
      this.tasks.push({ msg, transfer, timeoutMs, resolve, reject });
      this.next();
    });
  }

  next() {
    while (this.tasks.length && (this.idle.length || this.count < this.size)) {
      const w = this.idle.pop() ?? this.spawn();
      const t = this.tasks.shift();
      w.task = t;
      t.timer = setTimeout(() => {
        this.settle(w, new DecodeError(`decoding took longer than ${t.timeoutMs / 1000}s`), undefined, true);
        w.terminate().catch(() => {});
      }, t.timeoutMs);
      w.postMessage(t.msg, t.transfer);
    }
  }

  /** Ends the worker's task; a worker that failed or timed out is replaced, a healthy one waits for the next. */
  settle(w, error, value, dead = false) {
    const t = w.task;
    w.task = undefined;
    if (t) {
      clearTimeout(t.timer);
      error ? t.reject(error) : t.resolve(value);
    }
    if (dead || w.dead) {
      if (!w.dead) {
        w.dead = true;
        this.count--;
        w.terminate().catch(() => {});
      }
    } else if (!this.idle.includes(w)) {
      this.idle.push(w);
    }
    this.next();
  }
}

const pool = new Pool(Math.max(1, Math.min(4, availableParallelism())), MAX_HEAP_MB);

/**
 * A profile answer (pprof: gzip, zstd or plain) -> { bytes (the inflated pprof), samples,
 * total (of `sampleType`), read (the profile core's pprofToTree result: { tree, unit, ... };
 * undefined without samples) }. The tree is what the answer and the picture are made from.
 * @param {Uint8Array} body
 * @param {{ sampleType?: string, maxBytes?: number, timeoutMs?: number }} opts
 */
export async function decodeProfile(body, { sampleType, maxBytes = 64 << 20, timeoutMs = 20_000 } = {}) {
  const copy = new Uint8Array(body); // its buffer moves to the worker
  const v = await pool.run({ body: copy, maxBytes, sampleType }, [copy.buffer], timeoutMs);
  const total = v.read?.tree.size ? v.read.tree.total[0] : 0;
  return { bytes: v.bytes, samples: v.samples, total, read: v.read };
}
