// A large pprof, generated: the benchmarks' stand-in for a busy service's profile (a real 1.2 MB Go
// CPU profile has ~425k nodes), encoded by pprof-format (npm), an encoder independent of the
// profile core's decoder.
import { requirePlugin } from '@hotpath/headless/env.mjs';

/** A pprof whose tree has about `nodes` nodes: random root-to-leaf walks over 5,000 functions. */
export function generatePprof(nodes, seed = 12) {
  const { Function: PFunction, Line, Location, Profile, Sample, StringTable, ValueType } = requirePlugin('pprof-format');
  let s = seed;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
  const st = new StringTable();
  const FUNCS = 5000;
  const functions = [];
  const locations = [];
  for (let i = 1; i <= FUNCS; i++) {
    functions.push(new PFunction({ id: i, name: st.dedup(`github.com/example/pkg${i % 97}.(*Type${i % 13}).Method${i}`) }));
    locations.push(new Location({ id: i, line: [new Line({ functionId: i })] }));
  }
  // a tree grown by walks that share prefixes: each sample extends a random existing path
  const paths = [[1]];
  const samples = [];
  let made = 1;
  while (made < nodes) {
    const base = paths[Math.floor(rand() * paths.length)];
    const keep = Math.max(1, Math.floor(rand() * base.length));
    const path = base.slice(0, keep);
    const extra = 1 + Math.floor(rand() * 6);
    for (let k = 0; k < extra && path.length < 60; k++) {
      path.push(1 + Math.floor(rand() * FUNCS));
    }
    made += path.length - keep;
    paths.push(path);
    samples.push(new Sample({ locationId: path.slice().reverse(), value: [1 + Math.floor(rand() * 5), 10_000_000 * (1 + Math.floor(rand() * 5))] }));
  }
  const p = new Profile({
    sampleType: [new ValueType({ type: st.dedup('samples'), unit: st.dedup('count') }), new ValueType({ type: st.dedup('cpu'), unit: st.dedup('nanoseconds') })],
    sample: samples,
    location: locations,
    function: functions,
    stringTable: st,
  });
  return requirePlugin('fflate').gzipSync(p.encode());
}

