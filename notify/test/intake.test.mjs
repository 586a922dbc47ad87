// The Intake alone: a webhook's alerts decided, journalled and run through the work it is given;
// a job whose work throws still gets its message; a full queue refuses; a restart resumes what
// the journal kept. Its journal, dedupe memory and queue are reached only through its methods.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Intake } from '../lib/intake.mjs';
import { alert, webhook } from './helpers.mjs';

/** An Intake on a fresh state folder whose work is run(job); records what it does. */
function intake({ run = async () => {}, stopping = () => false, dir = mkdtempSync(join(tmpdir(), 'hotpath-intake-')), workers = 2, queueMax = 10 } = {}) {
  const ran = [];
  const fallbacks = [];
  const logs = [];
  const i = new Intake({
    stateDir: dir,
    workers,
    queueMax,
    now: Date.now,
    log: (l) => logs.push(l),
    work: {
      run: async (job) => {
        ran.push(`${job.fp} ${job.status}`);
        await run(job);
      },
      fallback: async (job, reason) => fallbacks.push({ id: job.id, reason }),
      stopping,
    },
  });
  return { i, ran, fallbacks, logs, dir };
}

describe('Intake', () => {
  it('accepts, runs each alert once, skips repeats and what is not an alert; health says what is left', async () => {
    const { i, ran } = intake();
    const counts = i.accept(webhook([alert({ fingerprint: 'a1' }), alert({ fingerprint: 'b2' }), { labels: {} }]));
    assert.deepEqual(counts, { accepted: 2, skipped: 1, refused: 0 });
    await i.idle();
    assert.deepEqual(ran.sort(), ['a1 firing', 'b2 firing']);
    assert.deepEqual(i.accept(webhook([alert({ fingerprint: 'a1' })])), { accepted: 0, skipped: 1, refused: 0 }, 'already announced');
    assert.deepEqual(i.accept(webhook([alert({ fingerprint: 'c3', status: 'resolved' })])), { accepted: 0, skipped: 1, refused: 0 }, 'never announced here');
    assert.deepEqual(i.accept(webhook([alert({ fingerprint: 'a1', status: 'resolved' })])), { accepted: 1, skipped: 0, refused: 0 });
    await i.idle();
    assert.equal(ran.at(-1), 'a1 resolved');
    assert.deepEqual(i.health(), { queued: 0, running: 0, retrying: 0 });
    assert.deepEqual(i.running(), []);
  });

  it('a job whose work throws: its message all the same, saying why, a log line, and it is done', async () => {
    const { i, fallbacks, logs, dir } = intake({
      run: async () => {
        throw new Error('boom');
      },
    });
    i.accept(webhook([alert({ fingerprint: 'd4' })]));
    await i.idle();
    assert.deepEqual(fallbacks.map((f) => f.reason), ['unexpected error: boom']);
    assert.ok(logs.some((l) => /^CPUPerRequestRegression job=api firing: boom: the message goes out without its diff$/.test(l)), logs.join('\n'));
    assert.equal(intake({ dir }).i.restore(), 0, 'nothing left for the next start');
  });

  it('a job that fails while the process stops stays in the journal, and the next start runs it', async () => {
    let stopping = false;
    const { i, fallbacks, dir } = intake({
      run: async () => {
        stopping = true;
        throw new Error('ended by the stop');
      },
      stopping: () => stopping,
    });
    i.accept(webhook([alert({ fingerprint: 'e5' })]));
    await i.idle();
    assert.deepEqual(fallbacks, []);
    const next = intake({ dir });
    assert.equal(next.i.restore(), 1);
    await next.i.idle();
    assert.deepEqual(next.ran, ['e5 firing']);
    assert.ok(next.logs.some((l) => / firing: resumed from the journal \(accepted /.test(l)), next.logs.join('\n'));
    assert.deepEqual(next.i.accept(webhook([alert({ fingerprint: 'e5' })])), { accepted: 0, skipped: 1, refused: 0 }, 'the dedupe memory came back too');
  });

  it('refuses what a full queue cannot take: the free workers take one each, the queue holds queueMax', async () => {
    let release;
    const held = new Promise((r) => (release = r));
    const { i, logs } = intake({ run: () => held, workers: 1, queueMax: 1 });
    const counts = i.accept(webhook(['f1', 'f2', 'f3', 'f4'].map((fingerprint) => alert({ fingerprint }))));
    assert.deepEqual(counts, { accepted: 2, skipped: 0, refused: 2 });
    assert.deepEqual(i.health(), { queued: 1, running: 1, retrying: 0 });
    await new Promise((r) => setImmediate(r)); // the worker starts its job on the next tick
    assert.deepEqual(i.running().map((j) => j.id), [`f1-${Date.parse(alert().startsAt)}:firing`]);
    assert.equal(logs.filter((l) => / firing: refused, the queue holds 1 alerts$/.test(l)).length, 2);
    release();
    await i.idle();
    assert.deepEqual(i.health(), { queued: 0, running: 0, retrying: 0 });
  });
});
