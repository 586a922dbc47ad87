// From a webhook to work on disk. Every alert of the webhook is looked at (none is dropped for
// being the 201st), checked and normalised (labels and annotations become short strings: a value
// that is an array nested 10,000 deep cannot crash what prints it), decided (announce, update, or
// skip a repeat) and, before the webhook is answered, written to the journal: a crash or a
// restart after the 200 loses nothing. Each job runs in the queue under its alert's fingerprint,
// so an alert's resolve waits for its firing; a job that throws still sends its message (without
// the diff, saying why) and every alert gets a log line.
import { alertKey } from './notifier.mjs';
import { alertTitle, buildMessage } from './message.mjs';

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
 * Takes a parsed webhook: returns { accepted, skipped, refused } once the accepted alerts are on
 * disk. Refused alerts (the queue is full, or the disk refused the write) are not remembered, so
 * Alertmanager's retry brings them again.
 */
export function acceptWebhook(n, payload) {
  const counts = { accepted: 0, skipped: 0, refused: 0 };
  const receivedAt = n.now();
  const planned = []; // { job, seen }
  const seenNow = new Map(); // fingerprint -> status planned in this webhook
  const touched = [];
  for (const raw of payload.alerts ?? []) {
    const { alert, error } = normalizeAlert(raw);
    if (error) {
      counts.skipped++;
      n.log(`${error}: skipped`);
      continue;
    }
    const { status } = alert;
    const key = alertKey(alert);
    const fp = key.split('-')[0];
    const title = alertTitle(alert);
    const action = seenNow.get(fp) === status ? 'skip' : n.dedupe.action(fp, status, alert.startsAt);
    if (action === 'skip') {
      counts.skipped++;
      touched.push(fp);
      n.log(`${title} ${status}: skipped (${status === 'firing' ? 'already announced' : 'never announced here'})`);
      continue;
    }
    // room: the free workers take one each at once, the queue holds queueMax more
    if (n.queue.waiting.length + planned.length >= n.cfg.queueMax + Math.max(0, n.queue.concurrency - n.queue.running)) {
      counts.refused++;
      n.log(`${title} ${status}: refused, the queue holds ${n.cfg.queueMax} alerts`);
      continue;
    }
    seenNow.set(fp, status);
    planned.push({
      job: { t: 'job', id: `${key}:${status}`, fp, key, status, alert, receivedAt },
      seen: { t: 'seen', fp, startsAt: alert.startsAt, status, at: receivedAt },
    });
  }
  const touches = touched.map((fp) => n.dedupe.seen.get(fp)).map((v, i) => v && { t: 'seen', fp: touched[i], ...v }).filter(Boolean);
  try {
    n.journal.append([...touches, ...planned.flatMap((p) => [p.seen, p.job])]);
  } catch (e) {
    n.log(`the journal refused the webhook's alerts (${e.message}): answered 503, Alertmanager will send them again`);
    return { accepted: 0, skipped: counts.skipped, refused: counts.refused + planned.length };
  }
  for (const { job, seen } of planned) {
    n.dedupe.commit(job.fp, job.status, seen.startsAt, seen.at);
    queueJob(n, job);
    counts.accepted++;
  }
  n.journal.maybeCompact(n.dedupe.entries());
  return counts;
}

/** Queues a journalled job (at acceptance, or at start for what the last process left). */
export function queueJob(n, job, { force = false } = {}) {
  const run = () => runJob(n, job);
  if (force) {
    n.queue.waiting.push({ job: run, key: job.fp });
    n.queue.next();
  } else {
    n.queue.push(run, job.fp);
  }
}

/** Runs one job; whatever happens, its alert gets a message and a log line, and the journal its end. */
export async function runJob(n, job) {
  const { alert, key, status, receivedAt } = job;
  n.inFlight.set(job.id, job);
  try {
    await (status === 'firing' ? n.announce(alert, key, receivedAt) : n.resolve(alert, key, receivedAt));
  } catch (e) {
    if (n.stopping) {
      return; // the process is going away: the journal keeps the job for the next start
    }
    n.log(`${alertTitle(alert)} ${status}: ${e.message}: the message goes out without its diff`);
    try {
      const reason = `unexpected error: ${e.message}`;
      const payload = status === 'firing' ? buildMessage({ alert, status, reason }) : buildMessage({ alert, status });
      await n.deliver(alert, key, status, receivedAt, payload, { reason });
    } catch (e2) {
      n.log(`${alertTitle(alert)} ${status}: NOT delivered (${e2.message})`);
    }
  } finally {
    n.inFlight.delete(job.id);
  }
  n.journal.append([{ t: 'done', id: job.id }]);
}

/** At start: the dedupe state and the unfinished jobs the last process left in the journal. */
export function restore(n) {
  if (n.renders.orphansKilled) {
    n.log(`ended ${n.renders.orphansKilled} render process(es) left by an earlier process`);
  }
  if (n.renders.leftBehind) {
    n.log(`could not remove the renders' folder an earlier process left (${n.renders.leftBehind}): the next start tries again`);
  }
  for (const s of n.journal.seen) {
    n.dedupe.commit(s.fp, s.status, s.startsAt, s.at);
  }
  n.journal.seen = [];
  const jobs = [...n.journal.jobs.values()];
  n.journal.compact(n.dedupe.entries());
  for (const job of jobs) {
    n.log(`${alertTitle(job.alert)} ${job.status}: resumed from the journal (accepted ${new Date(job.receivedAt).toISOString()})`);
    queueJob(n, job, { force: true });
  }
  return jobs.length;
}
