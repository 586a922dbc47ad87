import fc from 'fast-check';

import { fromAscii, toAscii } from './ascii';
import { collapseBelow, limitNodes } from './collapse';
import { arbTree } from './testdata/arbitrary';
import { topTable } from './topTable';

describe('collapse', () => {
  it('collapses tiny nodes into "other", keeping totals', () => {
    const tree = fromAscii(`
total 100
  big 90
    a 2
    b 1
    c 80
  tiny 10`);
    const { tree: c, collapsed } = collapseBelow(tree, 5);
    expect(collapsed).toBe(2);
    expect(toAscii(c)).toBe('total 100\n  big 90\n    c 80\n    other 3\n  tiny 10');
  });

  it('property: limitNodes keeps the node budget and the root total', () => {
    fc.assert(
      fc.property(arbTree, fc.integer({ min: 2, max: 30 }), (a, max) => {
        const { tree } = limitNodes(a, max);
        expect(tree.size).toBeLessThanOrEqual(Math.max(max, 1));
        expect(tree.total[0]).toBe(a.total[0]);
        expect(topTable(tree).reduce((s, r) => s + r.self, 0)).toBe(a.total[0]);
      })
    );
  });
});
