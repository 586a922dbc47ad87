// The snapshot CLI end to end: real fixtures in, panel.png and summary.json out; every bad
// input refused fast, in one line, with exit 3 and no output files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { manySamples, writeBadInputs } from './lib/bad-profiles.mjs';
import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { openSnapshotHost, renderSnapshot } from '@hotpath/headless/snapshot-render.mjs';
import { SNAPSHOT_CLI } from '@hotpath/headless/env.mjs';
import { fixturePath } from './lib/frames.mjs';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'hotpath-snapshot-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const snapshot = (...args) => run(process.execPath, [SNAPSHOT_CLI, ...args], { timeout: 90_000 });

/** The CLI must exit `code` with one line on stderr matching `message`, no stack trace, no output dir. */
async function fails(args, message, code = 3) {
  const out = args[args.indexOf('--out') + 1];
  const t0 = Date.now();
  await assert.rejects(snapshot(...args), (e) => {
    assert.equal(e.code, code, e.stderr);
    const lines = e.stderr.trimEnd().split('\n');
    assert.equal(lines.length, code === 2 ? 2 : 1, `one line expected:\n${e.stderr}`);
    assert.match(lines[0], /^snapshot: /);
    assert.match(lines[0], message);
    assert.doesNotMatch(e.stderr, /\n\s+at /);
    return true;
  });
  assert.equal(existsSync(out), false, `${out} must not exist after a refusal`);
  return Date.now() - t0;
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

  /** The picture of an incident's CPU diff (fixtures NAME-baseline and NAME-incident): { png, text }. */
  async function cpuDiffPicture(name, headline) {
    const d = await dataLayer();
    const tree = (f) => d.pprofToTree(new Uint8Array(readFileSync(fixturePath(f))), 'cpu');
    const frame = (t, refId) => d.flamebearerToFrame(d.treeToFlamebearer(t.tree), t.unit, { refId });
    const spec = { width: 800, height: 500, theme: 'dark', diff: true, headline };
    const series = [frame(tree(`${name}-baseline.cpu.pb.gz`), 'B'), frame(tree(`${name}-incident.cpu.pb.gz`), 'A')];
    const { png, text, close } = await renderSnapshot(openSnapshotHost(spec), { ...spec, series });
    await close();
    return { png, text };
  }

  it('the picture shows the headline, the flame graph and the legend, not the panel\'s controls', async () => {
    const { png, text } = await cpuDiffPicture('println', 'cpu (ns) · incident against baseline · total 2.04 s');
    assert.ok(png.length > 10_000);
    assert.match(text, /^cpu \(ns\) · incident against baseline · total 2\.04 s\n/);
    assert.match(text, /less in comparison/);
    assert.match(text, /more in comparison/);
    assert.match(text, /Function \(biggest changes\)/);
    // the overlay's status line, view buttons and links, and the explorer's search/focus toolbar
    for (const control of [/Dashboard range/, /hotpath-window/, /Drag on the strip/, /Explore/, /Flame graph/, /Side by side/, /Reset/]) {
      assert.doesNotMatch(text, control);
    }
  });

  it('the picture\'s changes table charges runtime time to the calling code, as the alert messages do', async () => {
    const { text } = await cpuDiffPicture('epoll', 'cpu (ns) · incident against baseline');
    // the busy loop spends its time in a syscall: the raw table's first row is the syscall itself
    const first = text.split('Function (biggest changes)')[1].split('\n')[1];
    assert.match(first, /^github\.com\/hotpath\/hotpath\/demo\/incidents\.\(\*EventLoop\)\.Run \(via internal\/runtime\/syscall\/linux\.Syscall6\)\t/);
    assert.doesNotMatch(text, /Charge runtime time/, 'the toggle is hidden');
  });

  it('renders a diff profile written by go tool pprof -proto -diff_base as the diff of its two sides', async () => {
    const diff = join(dir, 'println.diff.pb.gz');
    await run('sh', ['-c', 'go tool pprof -proto -symbolize=none -diff_base="$1" "$2" > "$3"', 'sh', fixturePath('println-baseline.cpu.pb.gz'), fixturePath('println-incident.cpu.pb.gz'), diff], { timeout: 60_000 });
    const out = join(dir, 'println-diff');
    await snapshot('--profile', diff, '--sample-type', 'cpu', '--out', out, '--width', '600', '--height', '400');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.diff.top[0].function, 'google.golang.org/protobuf/internal/encoding/text.appendString');
    assert.ok(summary.diff.top[0].deltaPercent > 10);
    // signed values: the comparison's total, not the net of the two sides nor an unsigned wrap
    assert.equal(summary.total, 2_040_000_000);
    await fails(['--profile', diff, '--baseline', fixturePath('println-baseline.cpu.pb.gz'), '--out', join(dir, 'x')], /is already a diff \(written by go tool pprof -diff_base\): drop --baseline$/);
  });

  it('reads a profile of 10M samples (streamed: the bytes plus the tree in memory) and refuses nothing', async () => {
    const file = join(dir, 'ten-million.pb');
    writeFileSync(file, manySamples(10_000_000));
    const out = join(dir, 'ten-million');
    await snapshot('--profile', file, '--sample-type', 'cpu', '--out', out, '--width', '400', '--height', '300');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    assert.equal(summary.total, 100_000_000);
    assert.equal(summary.top[0].function, 'main.work');
    assert.equal(summary.top[0].selfPercent, 100);
  });

  it('refuses every bad input in one line with exit 3, before starting a browser, and writes nothing', async () => {
    const timings = [];
    for (const bad of writeBadInputs(join(dir, 'bad'))) {
      const ms = await fails(['--profile', bad.file, '--sample-type', 'cpu', '--out', join(dir, 'x')], bad.message);
      timings.push(`${bad.name} ${ms} ms`);
    }
    process.stdout.write(`# refusals: ${timings.join(', ')}\n`);
  });

  it('lists the sample types when asked for an unknown one', async () => {
    await fails(['--profile', fixturePath('gzip-incident.heap.pb.gz'), '--sample-type', 'cpu', '--out', join(dir, 'x')], /Unknown sample type "cpu": this profile has "alloc_objects", "alloc_space", "inuse_objects", "inuse_space"/);
  });

  it('names a missing file', async () => {
    await fails(['--profile', join(dir, 'nope.pb.gz'), '--out', join(dir, 'x')], /--profile .*nope\.pb\.gz: file not found$/);
  });

  it('keeps exit 2 and the usage for a wrong command line', async () => {
    await fails(['--profile', fixturePath('gzip-incident.heap.pb.gz'), '--out', join(dir, 'x'), '--width', 'wide'], /--width and --height are pixels/, 2);
  });

  it('refuses to diff profiles of different types', async () => {
    await fails(['--profile', fixturePath('println-incident.cpu.pb.gz'), '--baseline', fixturePath('gzip-baseline.heap.pb.gz'), '--out', join(dir, 'x')], /--baseline is a .* profile \(bytes\) but --profile a cpu profile \(ns\)/);
  });
});
