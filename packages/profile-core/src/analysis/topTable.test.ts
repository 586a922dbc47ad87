import fc from 'fast-check';

import { arbTree } from '../testing/arbitrary';
import { recursive } from '../testing/trees';
import { firstItems, functionRows, topTable } from './topTable';

describe('top table', () => {
  it('does not double-count recursion in totals', () => {
    const rows = Object.fromEntries(topTable(recursive()).map((r) => [r.name, r]));
    expect(rows['main.walk'].total).toBe(10);
    expect(rows['main.walk'].self).toBe(10 - 6 - 3 + (6 - 4));
    expect(rows['main.visit'].total).toBe(7);
    expect(rows['main.visit'].self).toBe(7);
  });

  it('property: self adds up to the root total; no total exceeds it', () => {
    fc.assert(
      fc.property(arbTree, (a) => {
        const rows = topTable(a);
        expect(rows.reduce((s, r) => s + r.self, 0)).toBe(a.total[0]);
        rows.forEach((r) => expect(r.total).toBeLessThanOrEqual(a.total[0]));
      })
    );
  });
});

describe('first rows of an order', () => {
  const byValueThenName = (a: { v: number; name: string }, b: { v: number; name: string }) => b.v - a.v || (a.name < b.name ? -1 : 1);

  it('are the first k of a full sort, ties included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.integer({ min: 0, max: 40 }), (values, k) => {
        const items = values.map((v, i) => ({ v, name: `f${i}` }));
        const expected = items.slice().sort(byValueThenName).slice(0, k);
        expect(firstItems(items, byValueThenName, k)).toEqual(expected);
      })
    );
  });

  it('leave the input alone', () => {
    const items = [3, 1, 2].map((v) => ({ v, name: String(v) }));
    firstItems(items, byValueThenName, 2);
    expect(items.map((i) => i.v)).toEqual([3, 1, 2]);
  });

  it('topTable is functionRows sorted by self', () => {
    fc.assert(
      fc.property(arbTree, (tree) => {
        const rows = functionRows(tree);
        expect(topTable(tree)).toEqual(rows.slice().sort((a, b) => b.self - a.self || b.total - a.total || (a.name < b.name ? -1 : 1)));
      })
    );
  });
});
