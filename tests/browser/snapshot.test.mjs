// The snapshot CLI end to end: real fixtures in, panel.png and summary.json out; clear errors.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { BROWSER_DIR } from './lib/env.mjs';
import { fixturePath } from './lib/frames.mjs';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'hotpath-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const snapshot = (...args) => run(process.execPath, [join(BROWSER_DIR, 'snapshot.mjs'), ...args], { timeout: 90_000 });

async function fails(args, message) {
  await assert.rejects(snapshot(...args), (e) => {
    assert.equal(e.code, 2);
    assert.match(e.stderr, message);
    return true;
  });
}

describe('npm run snapshot', () => {
  it('writes panel.png and summary.json for the println incident against its baseline', async () => {
    const out = join(dir, 'println');
    await snapshot('--profile', fixturePath('println-incident.cpu.pb.gz'), '--baseline', fixturePath('println-baseline.cpu.pb.gz'), '--sample-type', 'cpu', '--out', out, '--width', '800', '--height', '500');
    const png = readFileSync(join(out, 'panel.png'));
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.deepEqual(Object.keys(summary), ['total', 'unit', 'top', 'diff']);
    assert.equal(summary.unit, 'ns');
    assert.deepEqual(Object.keys(summary.top[0]), ['function', 'self', 'selfPercent', 'total', 'totalPercent']);
    assert.deepEqual(Object.keys(summary.diff.top[0]), ['function', 'baselineSelfPercent', 'comparisonSelfPercent', 'deltaPercent']);
    assert.equal(summary.diff.top[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
    assert.ok(summary.diff.top[0].deltaPercent > 10);
    const selfSum = summary.top.reduce((s, r) => s + r.self, 0);
    assert.ok(selfSum <= summary.total);
  });

  it('has no diff section without a baseline', async () => {
    const out = join(dir, 'gzip');
    await snapshot('--profile', fixturePath('gzip-incident.heap.pb.gz'), '--sample-type', 'alloc_space', '--out', out, '--width', '600', '--height', '400');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.unit, 'bytes');
    assert.equal(summary.diff, undefined);
    assert.equal(summary.top[0].function, 'compress/flate.NewWriter');
  });

  it('lists the sample types when asked for an unknown one', async () => {
    await fails(['--profile', fixturePath('gzip-incident.heap.pb.gz'), '--sample-type', 'cpu', '--out', join(dir, 'x')], /Unknown sample type "cpu": this profile has "alloc_objects", "alloc_space", "inuse_objects", "inuse_space"/);
  });

  it('names a missing or corrupt file', async () => {
    await fails(['--profile', join(dir, 'nope.pb.gz'), '--out', join(dir, 'x')], /--profile file not found/);
    const corrupt = join(dir, 'corrupt.pb.gz');
    writeFileSync(corrupt, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    await fails(['--profile', corrupt, '--out', join(dir, 'x')], /--profile: Not a valid gzip-compressed pprof profile/);
  });

  it('refuses to diff profiles of different types', async () => {
    await fails(['--profile', fixturePath('println-incident.cpu.pb.gz'), '--baseline', fixturePath('gzip-baseline.heap.pb.gz'), '--out', join(dir, 'x')], /--baseline is a .* profile \(bytes\) but --profile a cpu profile \(ns\)/);
  });
});
