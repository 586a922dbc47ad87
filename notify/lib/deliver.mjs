// Delivery: a Slack-compatible incoming webhook (POST JSON, retried with exponential backoff on
// network errors, 429 and 5xx, honouring Retry-After) and/or a directory:
//   DIR/messages.jsonl           one line per delivered message (the payload and its timings)
//   DIR/<key>/message.json       the last message of that alert (firing, then resolved)
//   DIR/<key>/diff.png, summary.json   the picture and the biggest changes (when rendered)
import { appendFileSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * POSTs the payload; resolves with the number of attempts, rejects after the last one.
 * @param {{ attempts?: number, baseDelayMs?: number, timeoutMs?: number }} opts
 */
export async function postWebhook(url, payload, { attempts = 5, baseDelayMs = 500, timeoutMs = 10_000 } = {}) {
  let last;
  for (let i = 1; i <= attempts; i++) {
    let wait = baseDelayMs * 2 ** (i - 1);
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      if (res.ok) {
        return i;
      }
      last = new Error(`${url} answered ${res.status}`);
      if (res.status < 500 && res.status !== 429) {
        throw Object.assign(last, { permanent: true });
      }
      const after = Number(res.headers.get('retry-after'));
      if (Number.isFinite(after) && after > 0) {
        wait = Math.min(after * 1000, 60_000);
      }
    } catch (e) {
      if (e.permanent) {
        throw e;
      }
      last = e;
    }
    if (i < attempts) {
      await sleep(wait);
    }
  }
  throw new Error(`delivery to ${url} failed after ${attempts} attempts: ${last?.message}`);
}

/** Writes the message (and its picture and summary) under dir; appends it to messages.jsonl. */
export function writeToDirectory(dir, key, record, { png, summary } = {}) {
  const d = join(dir, key);
  mkdirSync(d, { recursive: true });
  if (png) {
    copyFileSync(png, join(d, 'diff.png'));
  }
  if (summary) {
    writeFileSync(join(d, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  }
  writeFileSync(join(d, 'message.json'), JSON.stringify(record, null, 2) + '\n');
  appendFileSync(join(dir, 'messages.jsonl'), JSON.stringify(record) + '\n');
}
