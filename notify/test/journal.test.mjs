// The journal and the disk's bounds: a torn last line is skipped, a live owner keeps the
// directory, dead lines are compacted away; old alert folders go, the record stays.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Journal } from '../lib/journal.mjs';
import { sweep } from '../lib/retention.mjs';

const fresh = () => mkdtempSync(join(tmpdir(), 'hotpath-notify-journal-'));

describe('Journal', () => {
  it('replays what is alive; a line torn by a kill mid-write is skipped', () => {
    const dir = fresh();
    const j = new Journal(dir);
    j.append([{ t: 'seen', fp: 'a', startsAt: 's', status: 'firing', at: 1 }, { t: 'job', id: 'a:firing', fp: 'a' }, { t: 'job', id: 'b:firing', fp: 'b' }, { t: 'done', id: 'a:firing' }]);
    appendFileSync(join(dir, 'journal.jsonl'), '{"t":"job","id":"c:fir');
    const again = new Journal(dir);
    assert.deepEqual([...again.jobs.keys()], ['b:firing']);
    assert.deepEqual(again.seen.map((s) => s.fp), ['a']);
  });

  it('refuses a directory another live receiver holds', async () => {
    const dir = fresh();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, 'lock'), String(other.pid));
      assert.throws(() => new Journal(dir), /in use by another hotpath-notify \(pid \d+\)/);
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.on('exit', r));
    }
    assert.doesNotThrow(() => new Journal(dir), 'a dead owner\'s lock is taken over');
  });

  it('compacts to the live records', () => {
    const dir = fresh();
    const j = new Journal(dir);
    for (let i = 0; i < 1200; i++) {
      j.append([{ t: 'job', id: `k${i}`, fp: 'x' }, { t: 'done', id: `k${i}` }]);
    }
    j.maybeCompact([['x', { startsAt: 's', status: 'firing', at: 1 }]]);
    assert.equal(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').length, 1);
  });
});

describe('retention', () => {
  it('removes alert folders older than the limit, keeps the rest and the record', () => {
    const dir = fresh();
    const old = Date.now() / 1000 - 20 * 86_400;
    for (const name of ['a1b2-1700000000000', 'c3d4-1700000000001', '.state', 'notes']) {
      mkdirSync(join(dir, name));
    }
    writeFileSync(join(dir, 'messages.jsonl'), '{}\n');
    for (const name of ['a1b2-1700000000000', '.state', 'notes', 'messages.jsonl']) {
      utimesSync(join(dir, name), old, old);
    }
    assert.equal(sweep(dir, 14 * 86_400_000), 1);
    assert.deepEqual(['a1b2-1700000000000', 'c3d4-1700000000001', '.state', 'notes', 'messages.jsonl'].map((n) => existsSync(join(dir, n))), [false, true, true, true, true]);
  });
});
