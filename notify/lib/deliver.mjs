// Delivery: a Slack-compatible incoming webhook (POST JSON, retried with exponential backoff on
// network errors, timeouts, 429 and 5xx, honouring Retry-After in seconds or as an HTTP date)
// and/or a directory:
//   DIR/messages.jsonl           one line per message (the payload, its timings, its delivery)
//   DIR/deliveries.jsonl         the later outcome of a Slack delivery that was retried after the message was written
//   DIR/<key>/message.json       the last message of that alert (firing, then resolved)
//   DIR/<key>/diff.png, summary.json   the picture and the biggest changes (when rendered)
//
// The webhook URL is a secret (whoever has it can post to the channel): logs and errors show
// only its origin (redactUrl).
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** https://hooks.slack.com/services/T0/B0/XYZ -> https://hooks.slack.com/… (the path is the secret) */
export function redactUrl(url) {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '(the webhook URL)';
  }
}

/** Retry-After as ms from now: delay-seconds or an HTTP-date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value, now = Date.now()) {
  if (!value) {
    return undefined;
  }
  if (/^\s*\d+\s*$/.test(value)) {
    return Number(value) * 1000;
  }
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** A delivery that failed: permanent (a 4xx but 429: retrying cannot help) or not; retryInMs from Retry-After. */
export class DeliveryError extends Error {
  constructor(message, { permanent = false, failures = [], retryInMs } = {}) {
    super(message);
    this.permanent = permanent;
    this.failures = failures;
    this.retryInMs = retryInMs;
  }
}

/**
 * POSTs the payload; resolves with the number of attempts, rejects with a DeliveryError after the
 * last one. `failures` (an array, given or new) gets one { at, attempt, error } per failed attempt. A Retry-After longer
 * than maxWaitMs ends the attempts early: the caller keeps the message and retries it then.
 * A timed-out attempt is retried: Slack may have got it (a duplicate), but a page is never lost
 * for fear of one; the timeout (30 s) is far above what a healthy Slack takes.
 * @param {{ attempts?: number, baseDelayMs?: number, timeoutMs?: number, maxWaitMs?: number, now?: () => number, failures?: object[] }} opts
 */
export async function postWebhook(url, payload, { attempts = 5, baseDelayMs = 500, timeoutMs = 30_000, maxWaitMs = 60_000, now = Date.now, failures = [] } = {}) {
  const where = redactUrl(url);
  let retryInMs;
  for (let i = 1; i <= attempts; i++) {
    let wait = baseDelayMs * 2 ** (i - 1);
    let error;
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(timeoutMs) });
      const body = (await res.text()).slice(0, 200).replace(/\s+/g, ' ').trim();
      if (res.ok) {
        return i;
      }
      error = `${where} answered ${res.status}${body ? ` ${body}` : ''}`;
      if (res.status < 500 && res.status !== 429) {
        failures.push({ at: new Date(now()).toISOString(), attempt: i, error });
        throw new DeliveryError(`delivery to ${where} refused: ${res.status}${body ? ` ${body}` : ''}`, { permanent: true, failures });
      }
      retryInMs = retryAfterMs(res.headers.get('retry-after'), now());
      if (retryInMs !== undefined) {
        wait = retryInMs;
      }
    } catch (e) {
      if (e instanceof DeliveryError) {
        throw e;
      }
      error = e.name === 'TimeoutError' ? `${where}: no answer within ${timeoutMs / 1000}s` : `${where}: ${e.cause?.code ?? e.cause?.message ?? e.message}`;
    }
    failures.push({ at: new Date(now()).toISOString(), attempt: i, error });
    if (i < attempts) {
      if (wait > maxWaitMs) {
        break; // Slack asks for more patience than a request should hold: kept and retried later
      }
      await sleep(wait);
    }
  }
  throw new DeliveryError(`delivery to ${where} failed after ${failures.length} attempts: ${failures.at(-1)?.error}`, { failures, retryInMs });
}

/** Writes a file whole or not at all (a kill mid-write leaves the old one). */
function writeAtomic(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Writes the message (and its picture and summary) under dir; appends it to messages.jsonl. */
export function writeToDirectory(dir, key, record, { png, summary } = {}) {
  const d = join(dir, key);
  mkdirSync(d, { recursive: true });
  if (png && png !== join(d, 'diff.png')) {
    copyFileSync(png, join(d, 'diff.png'));
  }
  if (summary) {
    writeAtomic(join(d, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  }
  writeAtomic(join(d, 'message.json'), JSON.stringify(record, null, 2) + '\n');
  appendFileSync(join(dir, 'messages.jsonl'), JSON.stringify(record) + '\n');
}

/**
 * The later outcome of a retried Slack delivery: a line of DIR/deliveries.jsonl, and the alert's
 * message.json when that file still holds this message (a later resolve is never overwritten).
 */
export function writeDeliveryOutcome(dir, record) {
  appendFileSync(join(dir, 'deliveries.jsonl'), JSON.stringify({ key: record.key, status: record.status, alertname: record.alertname, slack: record.slack, attempts: record.attempts, deliveryFailures: record.deliveryFailures, settledAt: record.settledAt }) + '\n');
  const file = join(dir, record.key, 'message.json');
  let current;
  try {
    current = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return;
  }
  if (current.status === record.status && current.receivedAt === record.receivedAt) {
    writeAtomic(file, JSON.stringify(record, null, 2) + '\n');
  }
}
