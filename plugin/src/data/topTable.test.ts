import fc from 'fast-check';

import { arbTree } from './testdata/arbitrary';
import { recursive } from './testdata/trees';
import { topTable } from './topTable';

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
