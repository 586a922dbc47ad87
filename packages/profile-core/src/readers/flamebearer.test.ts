import { createDataFrame } from '@grafana/data';
import { checkFields, data as grafanaSample } from '@grafana/flamegraph';

import { fromAscii, toAscii } from '../testing/ascii';
import { flamebearerToFrame, levelsToTree, treeToFlamebearer, unitFromProfileType } from './flamebearer';
import { readProfileFrame } from './frame';
import { generateTree } from '../testing/generate';
import { topTable } from '../analysis/topTable';

// A flamebearer as the querier's JSON API returns it: int64s as strings, offsets relative to
// the previous bar's end on the same level.
//   total 10  [0..10)
//   a 6 [0..6)            c 3 [7..10)   (1 unit of total's self in between)
//   b 4 [0..4)            d 3 [7..10)
const flamebearer = {
  names: ['total', 'a', 'c', 'b', 'd'],
  levels: [
    { values: ['0', '10', '1', '0'] },
    { values: ['0', '6', '2', '1', '1', '3', '0', '2'] },
    { values: ['0', '4', '4', '3', '3', '3', '3', '4'] },
  ],
  total: '10',
  maxSelf: '4',
};

describe('flamebearerToFrame (the Pyroscope datasource backend, step by step)', () => {
  it('rebuilds the tree level by level and emits rows depth-first', () => {
    const frame = flamebearerToFrame(flamebearer, 'ns');
    const fields = Object.fromEntries(frame.fields.map((f) => [f.name, f]));
    expect(fields.level.values).toEqual([0, 1, 2, 1, 2]);
    expect(fields.value.values).toEqual([10, 6, 4, 3, 3]);
    expect(fields.self.values).toEqual([1, 2, 4, 0, 3]);
    // enum numbered by first appearance in the depth-first walk
    expect(fields.label.config.type?.enum?.text).toEqual(['total', 'a', 'b', 'c', 'd']);
    expect(fields.label.values).toEqual([0, 1, 2, 3, 4]);
    expect(fields.value.config.unit).toBe('ns');
    expect(frame.meta).toEqual({ preferredVisualisationType: 'flamegraph' });
    expect(checkFields(createDataFrame(frame))).toBeUndefined();
  });

  it('takes plain number arrays as levels too', () => {
    const plain = { names: flamebearer.names, levels: flamebearer.levels.map((l) => l.values.map(Number)) };
    expect(flamebearerToFrame(plain, 'ns').fields[1].values).toEqual([10, 6, 4, 3, 3]);
  });

  it('keeps the backend quirk: the root name is names[levels[0][0]]', () => {
    const odd = { names: ['first', 'second'], levels: [{ values: ['0', '5', '5', '1'] }] };
    expect(levelsToTree(odd)?.name).toBe('first');
  });

  it('drops bars that fit no parent, as the backend does (it logs and breaks)', () => {
    const broken = { names: ['total', 'x'], levels: [{ values: [0, 5, 5, 0] }, { values: [10, 5, 0, 1] }] };
    expect(flamebearerToFrame(broken, 'short').fields[0].values).toEqual([0]);
  });

  it('emits the rows of levelsToTree walked depth-first (the object tree Grafana builds), on a 5k-node profile', () => {
    const fb = treeToFlamebearer(generateTree(5000, 7));
    // a bar that fits no parent, mid-level: the backend stops the level there
    fb.levels[3] = { values: [...(fb.levels[3] as { values: string[] }).values, '1e12', '5', '0', '1'] };
    const rows: Array<[number, number, number, string]> = [];
    const walk = (t: NonNullable<ReturnType<typeof levelsToTree>>) => {
      rows.push([t.level, t.value, t.self, t.name]);
      t.nodes.forEach(walk);
    };
    walk(levelsToTree(fb)!);
    const frame = flamebearerToFrame(fb, 'ns');
    const [level, value, self, label] = frame.fields.map((f) => f.values as number[]);
    const text = frame.fields[3].config.type!.enum!.text!;
    expect(frame.length).toBe(rows.length);
    expect(level.map((l, i) => [l, value[i], self[i], text[label[i]]])).toEqual(rows);
  });

  it('gives an empty frame for an empty flamebearer', () => {
    const frame = flamebearerToFrame({ names: [], levels: [] }, 'short');
    expect(frame.length).toBe(0);
    const r = readProfileFrame(frame);
    expect(!r.ok && r.error.kind).toBe('empty');
  });

  it('maps profile type units as Grafana does', () => {
    expect(unitFromProfileType('process_cpu:cpu:nanoseconds:cpu:nanoseconds')).toBe('ns');
    expect(unitFromProfileType('memory:alloc_objects:count:space:bytes')).toBe('short');
    expect(unitFromProfileType('memory:alloc_space:bytes:space:bytes')).toBe('bytes');
  });

  it('round-trips tree -> flamebearer -> frame -> tree', () => {
    const tree = fromAscii(`
total 100
  main.main 90
    a 40
      b 10
    c 45
  runtime.gcBgMarkWorker 10`);
    const fb = treeToFlamebearer(tree);
    expect(fb.levels[0]).toEqual({ values: ['0', '100', '0', '0'] });
    const r = readProfileFrame(flamebearerToFrame(fb, 'ns'));
    expect(r.ok && toAscii(r.tree)).toBe(toAscii(tree));
  });
});

describe("@grafana/flamegraph's sample frame", () => {
  const frame = createDataFrame(grafanaSample);
  const r = readProfileFrame(frame);

  it('validates and builds the tree', () => {
    expect(r.ok).toBe(true);
    if (!r.ok) {
      return;
    }
    expect(r.tree.size).toBe(frame.length);
    expect(r.tree.total[0]).toBe(frame.fields.find((f) => f.name === 'value')!.values[0]);
  });

  it('survives flamebearer and back unchanged', () => {
    if (!r.ok) {
      throw r.error;
    }
    const back = readProfileFrame(flamebearerToFrame(treeToFlamebearer(r.tree), r.tree.unit));
    expect(back.ok && toAscii(back.tree)).toBe(toAscii(r.tree));
  });

  it('aggregates self by function name: the top table conserves the self column', () => {
    if (!r.ok) {
      throw r.error;
    }
    const rows = topTable(r.tree);
    const selfSum = rows.reduce((s, row) => s + row.self, 0);
    expect(selfSum).toBe(r.tree.self.reduce((s, v) => s + v, 0));
    expect(rows.find((row) => row.name === r.tree.names[r.tree.nameId[0]])?.total).toBe(r.tree.total[0]);
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
  });
});
