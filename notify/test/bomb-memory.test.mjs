// hotpath-notify as a process under gzip bombs from its profile source: each answer is refused in
// one line, and the process's resident memory stays under 300 MB. The kernel's high-water mark
// (VmHWM) counts the main thread and the decode workers together, the moment of the worst peak
// included. Both of an alert's windows are asked at once, so two bombs inflate side by side.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { alert, downUrl, post, waitFor, webhook } from './helpers.mjs';
import { gzipBomb, jsonLines, startProfileSource, startReceiver } from './standins.mjs';

const MAX_RSS_MB = 300;
const dirs = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The process's peak resident memory so far, in MB (MiB, as /proc counts kB). */
const peakMb = (pid) => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A gzip of `bytes` zero bytes whose trailer says it inflates to `claims` bytes. */
async function lyingBomb(bytes, claims) {
  const gz = Buffer.from(await gzipBomb(bytes));
  gz.writeUInt32LE(claims, gz.length - 4);
  return gz;
}

describe('a gzip bomb from the profile source', () => {
  for (const [name, answer, reason] of [
    ['256 MiB of zeros: refused at the 64 MiB bound', async () => ({ bomb: 256 << 20 }), /^profile source answered something unusable: the profile is 64\.\d MiB decompressed \(and more\), above the 64 MiB hotpath reads/],
    // the trailer is what the fast path sizes its buffer by: a bomb that says it is small fills 1 KiB, no more
    ['256 MiB of zeros whose trailer says 1 KiB: read as 1 KiB, refused', async () => ({ raw: await lyingBomb(256 << 20, 1024) }), /^profile source answered something unusable: /],
  ]) {
    it(`${name}, the receiver's resident memory under ${MAX_RSS_MB} MB`, async (t) => {
      const a = await answer();
      if (a.bomb) {
        await gzipBomb(a.bomb); // made before the receiver asks, off its fetch timeout
      }
      const src = await startProfileSource(() => a);
      const dir = mkdtempSync(join(tmpdir(), 'hotpath-notify-bomb-'));
      dirs.push(dir);
      // a fixed free port: the log names the address it was given
      const r = startReceiver(['--listen', new URL(await downUrl()).host, '--profiles', src.url, '--out-dir', join(dir, 'out'), '--decode-timeout', '120s']);
      try {
        const url = await r.ready();
        const atStart = peakMb(r.p.pid);
        assert.equal((await post(url, webhook([alert({ fingerprint: 'b0' })]))).status, 200);
        const [m] = await waitFor(() => ((x) => x.length > 0 && x)(jsonLines(join(dir, 'out', 'messages.jsonl'))), 180_000, `the message\n${r.log()}`);
        assert.match(m.reason, reason);
        assert.equal(src.calls(), 2, 'both windows were asked');
        const peak = peakMb(r.p.pid);
        t.diagnostic(`resident memory: ${atStart.toFixed(0)} MB listening, ${peak.toFixed(0)} MB at the peak`);
        assert.ok(peak < MAX_RSS_MB, `peak resident memory ${peak.toFixed(0)} MB (${atStart.toFixed(0)} MB listening), want under ${MAX_RSS_MB} MB`);
      } finally {
        await r.stop();
        await src.close();
      }
    });
  }
});
