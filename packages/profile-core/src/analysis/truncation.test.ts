import { FieldType } from '@grafana/data';

import { fromAscii } from '../testing/ascii';
import { treeToFrame } from '../readers/frame';
import { generateTree } from '../testing/generate';
import { topTable } from './topTable';
import { pyroscopeTruncate, treeTruncation } from '../testing/pyroscopeTruncate';
import { frameTruncation, otherShare } from './truncation';
import { OTHER_NAME } from '../tree/tree';

const frameOf = (labels: string[], extra: Array<{ name: string; type: FieldType; values: unknown[] }> = []) => ({
  length: labels.length,
  fields: [
    { name: 'level', type: FieldType.number, values: labels.map((_, i) => (i === 0 ? 0 : 1)), config: {} },
    { name: 'value', type: FieldType.number, values: labels.map((_, i) => (i === 0 ? 100 : 10)), config: {} },
    { name: 'label', type: FieldType.string, values: labels, config: {} },
    ...extra.map((f) => ({ ...f, config: {} })),
  ],
});

describe('truncation, as Grafana 13 detects it', () => {
  it('the reserved label "other" marks a cut tree; "Other" or "otherwise" do not', () => {
    expect(frameTruncation(frameOf(['total', 'visible', 'other']))).toMatchObject({ truncated: true, other: 10, total: 100, rows: 1 });
    expect(frameTruncation(frameOf(['total', 'Other', 'otherwise'])).truncated).toBe(false);
  });

  it('a truncated field decides alone: a real function named other is not a cut', () => {
    expect(frameTruncation(frameOf(['total', 'other'], [{ name: 'truncated', type: FieldType.boolean, values: [false, false] }])).truncated).toBe(false);
    expect(frameTruncation(frameOf(['total', 'remainder'], [{ name: 'truncated', type: FieldType.boolean, values: [false, true] }]))).toMatchObject({ truncated: true, other: 10 });
  });

  it('enum labels by their text; a diff frame sums each side', () => {
    const frame = treeToFrame(fromAscii('total 10 | 20\n  a 5 | 10\n  other 5 | 10'));
    expect(frame.fields.find((f) => f.name === 'label')!.type).toBe(FieldType.enum);
    expect(frameTruncation(frame)).toMatchObject({ truncated: true, other: 5, total: 10, otherRight: 10, totalRight: 20 });
    expect(otherShare(frameTruncation(frame))).toBe(0.5);
  });

  it('an enum that names "other" twice: rows of either index are cut', () => {
    const frame = treeToFrame(fromAscii('total 10\n  a 5\n  other 3\n  b 2'));
    const label = frame.fields.find((f) => f.name === 'label')!;
    const text = label.config.type!.enum!.text!;
    label.config = { type: { enum: { text: [...text, OTHER_NAME] } } };
    // the row of "b" now reads "other" too, through the second index
    label.values = (label.values as number[]).map((id) => (text[id] === 'b' ? text.length : id));
    expect(frameTruncation(frame)).toMatchObject({ truncated: true, other: 5, rows: 2 });
  });

  it('a cut row nested in another counts as a row, its value only once', () => {
    const frame = treeToFrame(fromAscii('total 10\n  other 6\n    other 2\n    a 1\n  b 3\n    other 1'));
    expect(frameTruncation(frame)).toMatchObject({ truncated: true, other: 7, total: 10, rows: 3 });
  });

  it('an enum without "other" is not cut, and its rows are not read', () => {
    const frame = treeToFrame(generateTree(1000, 3));
    const label = frame.fields.find((f) => f.name === 'label')!;
    label.values = new Proxy(label.values as number[], {
      get: (t, k) => {
        if (typeof k === 'string' && /^\d+$/.test(k)) {
          throw new Error(`row ${k} read`);
        }
        return Reflect.get(t, k);
      },
    });
    expect(frameTruncation(frame)).toMatchObject({ truncated: false, rows: 0 });
  });
});

describe('a tree cut as Pyroscope cuts it', () => {
  const full = generateTree(20_000, 5);

  it('keeps the nodes whose total reaches the maxNodes-th largest, folds the rest of each parent into one "other"', () => {
    const cut = pyroscopeTruncate(full, 1000);
    const t = treeTruncation(cut);
    expect(t.truncated).toBe(true);
    // kept nodes (not "other") are at most maxNodes plus ties, and no parent has two "other"s
    const other = cut.names.indexOf(OTHER_NAME);
    let kept = 0;
    for (let i = 1; i < cut.size; i++) {
      if (cut.nameId[i] !== other) {
        kept++;
      }
    }
    expect(kept).toBeLessThanOrEqual(1000 + 50);
    expect(kept).toBeGreaterThan(900);
    // totals are kept: each node's total is its self plus its children's
    for (let i = 0; i < cut.size; i++) {
      let sum = cut.self[i];
      for (let c = i + 1; c < cut.end[i]; c = cut.end[c]) {
        sum += cut.total[c];
      }
      expect(sum).toBeCloseTo(cut.total[i], 6);
    }
    expect(cut.total[0]).toBe(full.total[0]);
    expect(pyroscopeTruncate(full, full.size)).toMatchObject({ size: full.size });
  });

  it('its top table is wrong: "other" ranks among the heaviest functions', () => {
    const cut = pyroscopeTruncate(full, 1000);
    const rank = topTable(cut).findIndex((r) => r.name === OTHER_NAME);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(3);
    expect(otherShare(treeTruncation(cut))).toBeGreaterThan(0.1);
  });
});
