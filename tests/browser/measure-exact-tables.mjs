// Which way to exact tables for a window Pyroscope truncated is practical, measured on a
// real-shaped profile (the benchmark's Pyroscope shape: Go-like names, a skewed fan-out, depth
// up to 40, 1M nodes): (a) the same query at a larger maxNodes, as the panel does; (b) the
// complete profile as pprof from Pyroscope's querier (SelectMergeProfile, as hotpath-notify
// fetches it), decoded in the browser. For each: the bytes on the wire, the time to read it
// into the panel's tree and compute the top table (Node, one run after a warm-up), the share
// left in "other", and how many of the top 20 functions (by self) match the complete profile's.
//   node tests/browser/measure-exact-tables.mjs [nodes]
import { cpus, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';

import { dataLayer } from '@hotpath/headless/data-node.mjs';
import { requirePlugin } from '@hotpath/headless/env.mjs';

const d = await dataLayer();
// the synthetic profile and Pyroscope's cut, from the core's test aids (built beside dist/index.mjs)
const { generateTree, pyroscopeTruncate } = await import('@hotpath/profile-core/testing');
const { Profile, ValueType, Sample, Location, Line, Function: PFunction, StringTable } = requirePlugin('pprof-format');
const N = Number(process.argv[2] ?? 1_000_000);
const full = generateTree(N, 3);
const top = (tree, k = 20) => d.topTable(tree).filter((r) => r.name !== 'other').slice(0, k).map((r) => r.name);
const fullTop = top(full);
const time = (fn) => {
  fn();
  const t0 = performance.now();
  const r = fn();
  return { ms: performance.now() - t0, r };
};

const rows = [];
for (const maxNodes of [16_384, 262_144, 1_048_576]) {
  const cut = pyroscopeTruncate(full, maxNodes);
  // what Grafana's backend sends the browser: the nested-set frame as JSON (values per field)
  const frame = d.treeToFrame(cut, { refId: 'C' });
  const json = JSON.stringify({ results: { C: { frames: [{ schema: { fields: frame.fields.map((f) => ({ name: f.name, type: f.type, config: f.config })) }, data: { values: frame.fields.map((f) => Array.from(f.values)) } }] } } });
  const read = time(() => {
    const back = JSON.parse(json).results.C.frames[0];
    const f = { ...frame, fields: frame.fields.map((x, i) => ({ ...x, values: back.data.values[i] })) };
    const tree = d.readOrThrow(f);
    return { tree, rows: d.functionRows(tree) };
  });
  const t = d.frameTruncation(frame);
  const same = top(read.r.tree).filter((n, i) => n === fullTop[i]).length;
  rows.push({ way: `maxNodes ${maxNodes.toLocaleString('en-US')}`, nodes: cut.size, bytes: json.length, gzip: gzipSync(json).length, readMs: read.ms, other: d.otherShare(t), top20: same });
}

// (b) the complete profile as pprof: one sample per node with self, its stack as locations
const strings = new StringTable();
const fnIds = new Map();
const functions = [];
const locations = [];
const locOf = (name) => {
  let id = fnIds.get(name);
  if (!id) {
    id = functions.length + 1;
    fnIds.set(name, id);
    functions.push(new PFunction({ id, name: strings.dedup(name) }));
    locations.push(new Location({ id, line: [new Line({ functionId: id })] }));
  }
  return id;
};
const samples = [];
for (let i = 1; i < full.size; i++) {
  if (full.self[i] > 0) {
    const stack = [];
    for (let n = i; n > 0; n = full.parent[n]) {
      stack.push(locOf(d.nodeName(full, n)));
    }
    samples.push(new Sample({ locationId: stack, value: [full.self[i]] }));
  }
}
const profile = new Profile({ sampleType: [new ValueType({ type: strings.dedup('cpu'), unit: strings.dedup('nanoseconds') })], sample: samples, location: locations, function: functions, stringTable: strings });
const raw = profile.encode();
const gz = gzipSync(raw);
const decoded = time(() => {
  const p = d.pprofToTree(gz, 'cpu');
  return { tree: p.tree, rows: d.functionRows(p.tree) };
});
rows.push({ way: 'pprof (SelectMergeProfile)', nodes: decoded.r.tree.size, bytes: raw.length, gzip: gz.length, readMs: decoded.ms, other: 0, top20: top(decoded.r.tree).filter((n, i) => n === fullTop[i]).length });

console.log(`${cpus()[0].model}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}; profile of ${full.size.toLocaleString('en-US')} nodes, ${full.names.length.toLocaleString('en-US')} names\n`);
console.log('| answer | nodes | bytes | gzipped | read + top table | in "other" | top 20 right |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.way} | ${r.nodes.toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(1)} MB | ${(r.gzip / 1e6).toFixed(1)} MB | ${r.readMs.toFixed(0)} ms | ${(r.other * 100).toFixed(1)}% | ${r.top20}/20 |`);
}
