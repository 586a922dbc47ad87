// Disk use over time: each alert leaves a folder (its picture, summary.json, message.json) in the
// images directory and the out-dir. Folders whose last change is older than maxAgeMs are removed
// at start and every hour after; messages.jsonl and deliveries.jsonl, the record other tools read,
// are appended to and never cut here (rotate them with logrotate's copytruncate).
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ALERT_FOLDER = /^[0-9a-f]{1,32}-\d{1,16}$/; // notifier.alertKey

/** Removes the alert folders of dir older than maxAgeMs; returns how many. */
export function sweep(dir, maxAgeMs, now = Date.now()) {
  let removed = 0;
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0; // not there yet
  }
  for (const e of entries) {
    if (!e.isDirectory() || !ALERT_FOLDER.test(e.name)) {
      continue;
    }
    const p = join(dir, e.name);
    try {
      if (now - statSync(p).mtimeMs > maxAgeMs) {
        rmSync(p, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // removed meanwhile
    }
  }
  return removed;
}

/** Sweeps the directories now and every hour (the timer does not keep the process alive). */
export function keepDiskBounded(dirs, maxAgeMs, log) {
  const run = () => {
    const n = [...new Set(dirs.filter(Boolean))].reduce((sum, d) => sum + sweep(d, maxAgeMs), 0);
    if (n) {
      log(`removed ${n} alert folder(s) older than ${Math.round(maxAgeMs / 86_400_000)}d`);
    }
  };
  run();
  setInterval(run, 3600_000).unref();
}
