// The receiver's memory on disk, so that a restart (a deploy, a SIGTERM, a crash, SIGKILL)
// loses nothing and repeats nothing: one append-only file of JSON lines, DIR/journal.jsonl,
//
//   {"t":"seen", fp, startsAt, status, at}        what was announced (the dedupe state)
//   {"t":"job", id, fp, key, status, alert, receivedAt}   accepted work
//   {"t":"done", id}                               that work is delivered (or given up, logged)
//   {"t":"park", id, fp, key, status, payload, record, failures, firstFailedAt}   a Slack delivery to retry later
//   {"t":"unpark", id}                             that delivery is finished
//
// append() writes and fdatasyncs before it returns: the webhook answers 200 only after its
// alerts are on disk. open() replays the file (a torn last line, from a kill mid-write, is
// skipped) and rewrites it with only what is still alive; so does compact() when it has grown.
// One receiver per directory: DIR/lock holds the owner's pid.
import { closeSync, existsSync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class JournalError extends Error {}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

export class Journal {
  /** @param {string} dir created when missing */
  constructor(dir) {
    this.dir = dir;
    this.file = join(dir, 'journal.jsonl');
    mkdirSync(dir, { recursive: true });
    this.lock();
    this.jobs = new Map(); // id -> job record, in acceptance order
    this.parked = new Map(); // id -> park record
    this.seen = []; // seen records, oldest first (the dedupe state at open)
    this.lines = 0;
    this.replay();
  }

  lock() {
    const lock = join(this.dir, 'lock');
    if (existsSync(lock)) {
      const pid = Number(readFileSync(lock, 'utf8'));
      if (pid && pid !== process.pid && alive(pid)) {
        throw new JournalError(`${this.dir} is in use by another hotpath-notify (pid ${pid}): give each receiver its own --state-dir`);
      }
    }
    writeFileSync(lock, String(process.pid));
  }

  replay() {
    const text = existsSync(this.file) ? readFileSync(this.file, 'utf8') : '';
    for (const line of text.split('\n')) {
      let r;
      try {
        r = line && JSON.parse(line);
      } catch {
        continue; // a line torn by a kill mid-write: its webhook was never answered 200
      }
      this.apply(r);
    }
  }

  apply(r) {
    switch (r?.t) {
      case 'seen':
        this.seen.push(r);
        break;
      case 'job':
        this.jobs.set(r.id, r);
        break;
      case 'done':
        this.jobs.delete(r.id);
        break;
      case 'park':
        this.parked.set(r.id, r);
        break;
      case 'unpark':
        this.parked.delete(r.id);
        break;
      default:
    }
  }

  /** The Slack deliveries kept for later (park records), oldest first. */
  parkedRecords() {
    return [...this.parked.values()];
  }

  /** The accepted jobs not done yet (job records), in acceptance order. */
  unfinishedJobs() {
    return [...this.jobs.values()];
  }

  /** The dedupe state the file held at open (seen records, oldest first), once: the caller keeps it from then on. */
  takeSeen() {
    const seen = this.seen;
    this.seen = [];
    return seen;
  }

  /** Writes the records and waits for the disk. */
  append(records) {
    if (!records.length) {
      return;
    }
    for (const r of records) {
      this.apply(r);
    }
    const fd = openSync(this.file, 'a');
    try {
      writeSync(fd, records.map((r) => JSON.stringify(r) + '\n').join(''));
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.lines += records.length;
  }

  /** Rewrites the file with the live records only (seen: the dedupe entries now); atomic. */
  compact(seenEntries) {
    const records = [...seenEntries.map(([fp, v]) => ({ t: 'seen', fp, ...v })), ...this.jobs.values(), ...this.parked.values()];
    const tmp = `${this.file}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, records.map((r) => JSON.stringify(r) + '\n').join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    const dirFd = openSync(this.dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    this.lines = records.length;
  }

  /** Compacts when dead lines outnumber live ones (and there are enough to matter). */
  maybeCompact(seenEntries) {
    const live = seenEntries.length + this.jobs.size + this.parked.size;
    if (this.lines > 1000 && this.lines > 3 * live) {
      this.compact(seenEntries);
    }
  }
}
