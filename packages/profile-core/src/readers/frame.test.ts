import { createDataFrame, DataFrame, FieldType } from '@grafana/data';
import fc from 'fast-check';

import { fromAscii, toAscii } from '../testing/ascii';
import { arbTree } from '../testing/arbitrary';
import { readProfileFrame, treeToFrame } from './frame';

function frame(fields: Record<string, unknown[]>, types: Record<string, FieldType> = {}, enumText?: string[]): DataFrame {
  return createDataFrame({
    fields: Object.entries(fields).map(([name, values]) => ({
      name,
      values,
      type: types[name],
      ...(name === 'label' && enumText ? { config: { type: { enum: { text: enumText } } } } : {}),
    })),
  });
}

const good = () => ({
  level: [0, 1, 2, 1],
  value: [10, 6, 4, 4],
  self: [0, 2, 4, 4],
  label: ['total', 'a', 'b', 'c'],
});

function error(f: DataFrame | undefined) {
  const r = readProfileFrame(f);
  if (r.ok) {
    throw new Error('expected an error');
  }
  return r.error;
}

describe('readProfileFrame', () => {
  it('reads a string-label frame', () => {
    const r = readProfileFrame(frame(good()));
    expect(r.ok && toAscii(r.tree)).toBe('total 10\n  a 6\n    b 4\n  c 4');
  });

  it('reads a path deeper than the reader first makes room for, on both sides of a diff', () => {
    // a chain 600 deep and then a sibling of the deepest node's parent: the path arrays grow twice
    const depth = 600;
    const level = [...Array.from({ length: depth + 1 }, (_, i) => i), depth];
    const value = level.map((l) => (l < depth ? depth + 1 - l : 1));
    value[depth - 1] = 3;
    const self = value.map((v, i) => (i >= depth - 1 ? 1 : 0));
    const label = level.map((_, i) => `f${i}`);
    const r = readProfileFrame(frame({ level, value, self, label, valueRight: value, selfRight: self }));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.tree.size).toBe(depth + 2);
      expect(r.tree.parent[depth + 1]).toBe(depth - 1);
      expect(r.tree.end[depth - 1]).toBe(depth + 2);
      expect(r.tree.end[depth]).toBe(depth + 1);
    }
    // a child larger than its parent 500 deep is still found
    const bad = { level, value: value.slice(), self, label };
    bad.value[500] = 1e9;
    expect(error(frame(bad)).field).toBe('value');
  });

  it('reads an enum label field (config.type.enum.text)', () => {
    const f = createDataFrame({
      fields: [
        { name: 'level', values: [0, 1], type: FieldType.number },
        { name: 'value', values: [3, 3], type: FieldType.number, config: { unit: 'ns' } },
        { name: 'self', values: [0, 3], type: FieldType.number },
        { name: 'label', values: [1, 0], type: FieldType.enum, config: { type: { enum: { text: ['leaf', 'total'] } } } },
      ],
    });
    const r = readProfileFrame(f);
    expect(r.ok && toAscii(r.tree)).toBe('total 3\n  leaf 3');
    expect(r.ok && r.tree.unit).toBe('ns');
  });

  it('property: reads every valid tree back exactly, parents and subtree ends included (the one-pass reader)', () => {
    fc.assert(
      fc.property(arbTree, (tree) => {
        const r = readProfileFrame(treeToFrame(tree));
        expect(r.ok).toBe(true);
        const got = r.ok ? r.tree : tree;
        expect(Array.from(got.parent)).toEqual(Array.from(tree.parent));
        expect(Array.from(got.end)).toEqual(Array.from(tree.end));
        expect(Array.from(got.level)).toEqual(Array.from(tree.level));
        expect(Array.from(got.total)).toEqual(Array.from(tree.total));
        expect(Array.from(got.self)).toEqual(Array.from(tree.self));
        expect(got.nameId.length).toBe(tree.size);
      })
    );
  });

  it('property: a child made heavier than its parent is refused, naming the parent', () => {
    fc.assert(
      fc.property(arbTree, fc.nat(), (tree, pick) => {
        const inner = Array.from({ length: tree.size }, (_, i) => i).filter((i) => tree.end[i] > i + 1);
        fc.pre(inner.length > 0);
        const p = inner[pick % inner.length];
        const frame = treeToFrame(tree);
        const value = frame.fields.find((f) => f.name === 'value')!.values as number[];
        const self = frame.fields.find((f) => f.name === 'self')!.values as number[];
        // the first child of p gets p's value and more (as self, so that it stays consistent below)
        value[p + 1] = tree.total[p] + 1;
        self[p + 1] = value[p + 1] - (tree.total[p + 1] - tree.self[p + 1]);
        const e = error(frame);
        expect(e.kind).toBe('invalid-value');
        expect(e.field).toBe('value');
      })
    );
  });

  it('round-trips treeToFrame, diff trees included', () => {
    const tree = fromAscii(`
total 10 | 20
  a 6 | 5
    b 4 | 0
  c 4 | 15`);
    const r = readProfileFrame(treeToFrame(tree));
    expect(r.ok && toAscii(r.tree)).toBe(toAscii(tree));
  });

  it.each([
    ['no frame', undefined, 'no-data', /no data frames/],
    ['a missing field', frame({ level: [0], value: [1], label: ['x'] }), 'missing-field', /missing field "self"/],
    [
      'only one side of a diff',
      frame({ ...good(), valueRight: [1, 1, 1, 1] }),
      'missing-field',
      /has "valueRight" but no "selfRight"/,
    ],
    ['a string value field', frame({ ...good(), value: ['10', '6', '4', '4'] }, { value: FieldType.string }), 'wrong-type', /"value" has type string/],
    ['strings in a number field', frame({ ...good(), value: [10, 6, '4', 4] }, { value: FieldType.number }), 'invalid-value', /"value" row 2 \("b"\): not a number \("4"\)/],
    ['a numeric label without enum', frame({ ...good(), label: [1, 2, 3, 4] }), 'wrong-type', /"label" has type number/],
    ['no rows', frame({ level: [], value: [], self: [], label: [] }, { level: FieldType.number, value: FieldType.number, self: FieldType.number, label: FieldType.string }), 'empty', /empty/],
    ['NaN', frame({ ...good(), self: [0, NaN, 4, 4] }), 'invalid-value', /"self" row 1 \("a"\): NaN/],
    ['a negative value', frame({ ...good(), value: [10, -6, 4, 4] }), 'invalid-value', /"value" row 1 \("a"\): negative value -6/],
    ['a root below level 0', frame({ ...good(), level: [1, 1, 2, 1] }), 'order', /row 0 is 1/],
    ['two roots', frame({ ...good(), level: [0, 1, 2, 0] }), 'order', /row 3 \("c"\) is a second root/],
    ['a depth jump', frame({ ...good(), level: [0, 1, 3, 1] }), 'order', /row 2 \("b"\) jumps from depth 1 to 3/],
    ['a fractional depth', frame({ ...good(), level: [0, 1, 1.5, 1] }), 'invalid-value', /"level" row 2 \("b"\): 1.5 is not an integer depth/],
    ['a missing depth', frame({ ...good(), level: [0, 1, null, 1] }), 'invalid-value', /"level" row 2 \("b"\): missing value/],
    // a value that is not a number is reported before an order error on an earlier row
    ['a depth jump and a negative depth', frame({ ...good(), level: [0, 3, 1, -1] }), 'invalid-value', /"level" row 3 \("c"\): negative value -1/],
    ['an infinite value', frame({ ...good(), value: [Infinity, 6, 4, 4] }), 'invalid-value', /"value" row 0 \("total"\): Infinity is not finite/],
    ['a missing self', frame({ ...good(), self: [0, 2, undefined, 4] }), 'invalid-value', /"self" row 2 \("b"\): missing value/],
    ['an enum index that is not an integer', frame({ ...good(), label: [0, 1, 2.5, 3] }, { label: FieldType.enum }, ['total', 'a', 'b', 'c']), 'invalid-value', /row 2: enum index 2.5 is outside/],
    ['an enum index given as a string', frame({ ...good(), label: [0, '1', 2, 3] }, { label: FieldType.enum }, ['total', 'a', 'b', 'c']), 'invalid-value', /row 1: enum index 1 is outside/],
    ['self above value', frame({ ...good(), self: [0, 7, 4, 4] }), 'invalid-value', /row 1 \("a"\): self 7 is larger than its value 6/],
    // the first row in order is named, though the check runs from the last row up
    ['two rows with too much self', frame({ ...good(), self: [0, 7, 5, 4] }), 'invalid-value', /row 1 \("a"\): self 7 is larger/],
    ['children above the parent', frame({ ...good(), value: [10, 3, 4, 4], self: [0, 0, 4, 4] }), 'invalid-value', /row 1 \("a"\): its children add up to 4/],
    // a diff frame's right side is checked like its left (both sides in the one-pass reader)
    ['a diff whose right children exceed their parent', frame({ ...good(), valueRight: [10, 3, 4, 4], selfRight: [0, 0, 4, 4] }), 'invalid-value', /"valueRight" row 1 \("a"\): its children add up to 4/],
    ['a diff with a negative right self', frame({ ...good(), valueRight: [10, 6, 4, 4], selfRight: [0, 2, -4, 4] }), 'invalid-value', /"selfRight" row 2 \("b"\): negative value -4/],
  ])('says what is wrong: %s', (_name, f, kind, message) => {
    const e = error(f as DataFrame | undefined);
    expect(e.kind).toBe(kind);
    expect(e.message).toMatch(message);
  });

  it("refuses an infinite self even under the largest finite value (where the one-pass reader's slack overflows)", () => {
    const e = error(frame({ level: [0, 1], value: [Number.MAX_VALUE, Number.MAX_VALUE], self: [0, Infinity], label: ['total', 'a'] }));
    expect(e.field).toBe('self');
    expect(e.row).toBe(1);
    expect(e.message).toMatch(/Infinity is not finite/);
  });

  it('names the field and row of a bad enum index', () => {
    const f = createDataFrame({
      fields: [
        { name: 'level', values: [0, 1], type: FieldType.number },
        { name: 'value', values: [3, 3], type: FieldType.number },
        { name: 'self', values: [0, 3], type: FieldType.number },
        { name: 'label', values: [0, 5], type: FieldType.enum, config: { type: { enum: { text: ['total'] } } } },
      ],
    });
    const e = error(f);
    expect(e.field).toBe('label');
    expect(e.row).toBe(1);
    expect(e.message).toMatch(/enum index 5 is outside config.type.enum.text \(1 names\)/);
  });

  it('keeps very long and unicode names intact', () => {
    const long = 'ü'.repeat(5000) + '🔥';
    const r = readProfileFrame(frame({ ...good(), label: ['total', long, 'b', '函数'] }));
    expect(r.ok && r.tree.names).toContain(long);
    expect(r.ok && r.tree.names).toContain('函数');
  });
});
