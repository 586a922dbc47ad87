// Conformance of the plugin's pprof reading (packages/profile-core, the code the panel, the sandbox
// and the snapshot CLI share) with `go tool pprof`, on real profiles from outside this repo
// (tests/fixtures/corpus, see its MANIFEST.tsv) and this repo's own captures: for every file
// and every sample type with samples, the total, the top 10 by self (flat) and by cumulative,
// and for pairs the diff against `pprof -top -diff_base -normalize`, read both from the two
// files and from the diff profile `go tool pprof -proto -diff_base` writes. pprof's legacy
// originals must be refused with the message that says how to convert them.
//
// Prints the agreement table and every differing row with its reason (known-differences.mjs);
// fails below 100% top-1 or 95% of top-10 rows, or on a difference nobody has explained.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';

import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { FIXTURES_DIR } from '@hotpath/headless/env.mjs';
import { explain } from './known-differences.mjs';
import { pprofDiffProto, pprofTop, samePercent, toBase } from './reference.mjs';

const CORPUS = join(FIXTURES_DIR, 'corpus');
// the corpus folders of readable profiles, one per source (see the corpus README)
const RUNTIMES = ['google-pprof', 'node', 'java', 'python', 'rust', 'ruby'];
const d = await dataLayer();
const tmp = mkdtempSync(join(tmpdir(), 'hotpath-pprof-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const profiles = [
  ...RUNTIMES.flatMap((sub) => readdirSync(join(CORPUS, sub)).map((f) => join(CORPUS, sub, f))),
  ...readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.pb.gz')).map((f) => join(FIXTURES_DIR, f)),
].sort();
// diff pairs: [baseline, comparison, sample type]
const pairs = [
  ['println-baseline.cpu.pb.gz', 'println-incident.cpu.pb.gz', 'cpu'],
  ['epoll-baseline.cpu.pb.gz', 'epoll-incident.cpu.pb.gz', 'cpu'],
  ['gzip-baseline.heap.pb.gz', 'gzip-incident.heap.pb.gz', 'alloc_space'],
].map(([b, c, t]) => [join(FIXTURES_DIR, b), join(FIXTURES_DIR, c), t]);

const name = (file) => relative(FIXTURES_DIR, file);

/**
 * The file as go tool pprof can read it: pprof reads gzip and raw protobuf, not the zstd
 * dd-trace-py writes (Pyroscope and hotpath do), so that one is handed over decompressed.
 * Written once per file: its sample types are compared by pprof runs side by side, and writing
 * it again for each would truncate the file under a run still reading it.
 */
const readable = new Map();
function pprofReadable(file) {
  if (!readable.has(file)) {
    const bytes = readFileSync(file);
    let out = file;
    if (bytes.readUInt32LE(0) === 0xfd2fb528) {
      out = join(tmp, `${relative(CORPUS, file).replaceAll('/', '_')}.pb`);
      writeFileSync(out, d.pprofBytes(new Uint8Array(bytes)));
    }
    readable.set(file, out);
  }
  return readable.get(file);
}
const pct = (v, total) => (total ? (v / total) * 100 : 0);
// pprof marks inlined functions in -top; the function is the same
const plain = (n) => n.replace(/ \(inline\)$/, '');

/**
 * Compares our rows with pprof's, row by row. A row agrees when the names match, or when it is
 * a tie (same percentage) and pprof's function is among our rows of that percentage (pprof
 * breaks ties by name, we by name too but over a different set of names near the cut).
 */
function compareRows(ours, theirs, key) {
  const out = [];
  theirs.forEach((t, i) => {
    const o = ours[i];
    const same = o && plain(t.name) === o.name && samePercent(o[key], t[key]);
    const tie = o && samePercent(o[key], t[key]) && ours.some((r) => r.name === plain(t.name) && samePercent(r[key], t[key]));
    out.push({ row: i, ok: !!(same || tie), pprof: `${plain(t.name)} ${t[key]}%`, ours: o ? `${o.name} ${o[key].toFixed(2)}%` : 'none' });
  });
  return out;
}

/** fn over items, at most n at a time, results in order */
async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const k = next++;
        out[k] = await fn(items[k]);
      }
    })
  );
  return out;
}

const results = []; // { file, type, check, rows: [{ ok, ... }] }
const differences = []; // { where, pprof, ours, reason }

function record(file, type, check, rows) {
  results.push({ file, type, check, rows });
  for (const r of rows.filter((x) => !x.ok)) {
    const where = `${file} ${type} ${check} row ${r.row + 1}`;
    differences.push({ where, pprof: r.pprof, ours: r.ours, reason: explain(file, type, check, r) });
  }
}

describe('pprof conformance: the data layer against go tool pprof', () => {
  it('every corpus file, every sample type with samples: total, top 10 by self and by cumulative', async () => {
    const cases = profiles.flatMap((file) => {
      const decoded = d.decodePprof(new Uint8Array(readFileSync(file)));
      const types = decoded.sampleTypes.filter((_, i) => decoded.absTotals[i] > 0);
      assert.ok(types.length > 0, `${name(file)} has no sample type with samples`);
      return types.map(({ type, unit }) => ({ file, type, unit }));
    });
    // one pprof run per case (every node, sorted by flat; the cumulative order is sorted here),
    // two at a time
    const refs = await pool(cases, 2, ({ file, type }) => pprofTop(pprofReadable(file), { type, nodecount: 0 }));
    cases.forEach(({ file, type, unit }, k) => {
      const ref = refs[k];
      const p = d.pprofToTree(new Uint8Array(readFileSync(file)), type);
      const total = p.tree.total[0];
      // the root is no function: pprof has no row for it (nor for samples without a stack)
      const rows = d.topTable(p.tree).filter((r) => r.name !== 'total');
      const ours = rows.map((r) => ({ name: r.name, flatPct: pct(r.self, total), cumPct: pct(r.total, total) }));
      const rel = Math.abs(toBase(total, unit) - ref.total) / Math.max(1, ref.total);
      record(name(file), type, 'total', [{ row: 0, ok: rel < 0.01, pprof: String(ref.total), ours: `${total} ${unit}` }]);
      record(name(file), type, 'self', compareRows(ours, ref.rows.slice(0, 10), 'flatPct'));
      const byCum = (rs) => rs.slice().sort((a, b) => b.cumPct - a.cumPct || (plain(a.name) < plain(b.name) ? -1 : 1));
      record(name(file), type, 'cum', compareRows(byCum(ours), byCum(ref.rows).slice(0, 10), 'cumPct'));
    });
  });

  it('diffs: biggest changes of self share against pprof -top -diff_base -normalize, from two files and from pprof\'s diff profile', async () => {
    for (const [base, cmp, type] of pairs) {
      const ref = await pprofTop(cmp, { type, base });
      // pprof prints |flat%|; the sign is the flat value's
      const theirs = ref.rows.map((r) => ({ name: r.name, delta: Math.sign(r.flat) * r.flatPct }));
      const b = d.pprofToTree(new Uint8Array(readFileSync(base)), type);
      const c = d.pprofToTree(new Uint8Array(readFileSync(cmp)), type);
      const ours = d.biggestChanges(d.diffTrees(b.tree, c.tree)).map((r) => ({ name: r.name, delta: r.delta * 100 }));
      const label = `${name(cmp)} - ${name(base)}`;
      record(label, type, 'diff', compareRows(ours, theirs, 'delta'));
      // the same diff read from the profile pprof writes with -proto -diff_base
      const proto = join(tmp, 'diff.pb.gz');
      await pprofDiffProto(cmp, base, proto);
      const fromProto = d.pprofToTree(new Uint8Array(readFileSync(proto)), type);
      assert.ok(fromProto.baseline, `${label}: pprof's diff profile is read as a diff`);
      const ours2 = d.biggestChanges(d.diffTrees(fromProto.baseline, fromProto.tree)).map((r) => ({ name: r.name, delta: r.delta * 100 }));
      record(`${label} (pprof -proto -diff_base)`, type, 'diff', compareRows(ours2, theirs, 'delta'));
    }
  });

  it("pprof's legacy originals are refused with how to convert them", async () => {
    const legacy = readdirSync(join(CORPUS, 'legacy'));
    assert.ok(legacy.length >= 10);
    for (const f of legacy) {
      assert.throws(
        () => d.pprofToTree(new Uint8Array(readFileSync(join(CORPUS, 'legacy', f)))),
        (e) => /^this is pprof's legacy .* format .*: convert it with `go tool pprof -proto FILE > FILE\.pb\.gz`\.$/.test(e.message),
        `legacy/${f}`
      );
    }
  });

  it("each runtime's profile opens on the type Pyroscope shows, its frames named as the runtime names them", () => {
    // [file, the default sample type, functions of its workload that must be frames, by name]
    const expect = [
      ['python/python.ddtrace.pprof.zst', 'cpu-time', ['sort_numbers', 'Tokenizer.tokenize', 'JSONEncoder.iterencode']],
      ['rust/rust.cpu.pb.gz', 'cpu', ['rust_workload::sort_numbers', 'rust_workload::Tokenizer::tokenize', 'rust_workload::json_round_trip']],
      ['java/example.cpu.pb.gz', 'cpu', ['App.fib', 'java/util/concurrent/atomic/AtomicLong.compareAndSet']],
      ['java/dd-trace-java.cpu.pb.gz', 'cpu', ['java/util/regex/Pattern$GroupTail.match']],
      ['java/example.alloc_in_new_tlab.pb.gz', 'alloc_in_new_tlab_bytes', []],
      ['node/node.wall.pb.gz', 'wall', ['sortNumbers', 'jsonRoundTrip', 'tokenize']],
      // rbspy names a frame by its method (Ruby's label) and leaves C functions unnamed, as Pyroscope shows them
      ['ruby/ruby.wall.pb.gz', 'wall', ['tokenize', 'sort_numbers', 'block in sort_numbers', 'json_round_trip']],
    ];
    for (const [file, type, functions] of expect) {
      const p = d.pprofToTree(new Uint8Array(readFileSync(join(CORPUS, file))));
      assert.equal(p.sampleType, type, `${file}: the default sample type`);
      const names = new Set(d.topTable(p.tree).map((r) => r.name));
      for (const f of functions) {
        assert.ok(names.has(f), `${file}: a frame named ${f} (have ${[...names].slice(0, 8).join(', ')}, ...)`);
      }
    }
  });

  it('the row comparison can fail: another function, or another share, is a difference', () => {
    const ours = [{ name: 'a', flatPct: 50 }, { name: 'b', flatPct: 30 }];
    assert.deepEqual(compareRows(ours, [{ name: 'b', flatPct: 50 }, { name: 'a', flatPct: 30 }], 'flatPct').map((r) => r.ok), [false, false]);
    assert.deepEqual(compareRows(ours, [{ name: 'a', flatPct: 50.02 }, { name: 'b (inline)', flatPct: 30 }], 'flatPct').map((r) => r.ok), [false, true]);
    // a tie may come in either order
    const tie = [{ name: 'a', flatPct: 40 }, { name: 'b', flatPct: 40 }];
    assert.deepEqual(compareRows(tie, [{ name: 'b', flatPct: 40 }, { name: 'a', flatPct: 40 }], 'flatPct').map((r) => r.ok), [true, true]);
  });

  it('agrees: 100% of top-1 rows and >= 95% of top-10 rows; every difference has a reason', () => {
    const table = new Map();
    let top1 = 0;
    let top1ok = 0;
    let rows = 0;
    let rowsOk = 0;
    for (const r of results) {
      const key = r.check;
      const t = table.get(key) ?? { cases: 0, top1: 0, rows: 0, ok: 0 };
      t.cases++;
      t.rows += r.rows.length;
      t.ok += r.rows.filter((x) => x.ok).length;
      t.top1 += r.rows[0]?.ok ? 1 : 0;
      table.set(key, t);
      top1++;
      top1ok += r.rows[0]?.ok ? 1 : 0;
      rows += r.rows.length;
      rowsOk += r.rows.filter((x) => x.ok).length;
    }
    const lines = ['', `pprof conformance: ${profiles.length} profiles, ${pairs.length} diff pairs, ${results.length} comparisons (go tool pprof of the Go toolchain)`, '| check | cases | top-1 agree | rows agree |', '|---|---|---|---|'];
    for (const [k, t] of table) {
      lines.push(`| ${k} | ${t.cases} | ${t.top1}/${t.cases} | ${t.ok}/${t.rows} (${((t.ok / t.rows) * 100).toFixed(1)}%) |`);
    }
    lines.push(`| all | ${results.length} | ${top1ok}/${top1} (${((top1ok / top1) * 100).toFixed(1)}%) | ${rowsOk}/${rows} (${((rowsOk / rows) * 100).toFixed(1)}%) |`);
    lines.push(differences.length ? 'differences:' : 'no differences');
    for (const x of differences) {
      lines.push(`- ${x.where}: pprof "${x.pprof}", hotpath "${x.ours}": ${x.reason ?? 'UNEXPLAINED'}`);
    }
    process.stdout.write(lines.map((l) => `# ${l}`).join('\n') + '\n');
    assert.equal(top1ok, top1, 'every top-1 row agrees');
    assert.ok(rowsOk / rows >= 0.95, `top-10 rows agree ${rowsOk}/${rows}`);
    assert.deepEqual(differences.filter((x) => !x.reason).map((x) => x.where), [], 'every difference has a reason in known-differences.mjs');
  });
});
