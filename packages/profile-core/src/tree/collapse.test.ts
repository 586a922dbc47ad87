import fc from 'fast-check';

import { fromAscii, toAscii } from '../testing/ascii';
import { collapseBelow, kthLargest, limitNodes } from './collapse';
import { pathOf, Tree } from './tree';
import { arbTree } from '../testing/arbitrary';
import { topTable } from '../analysis/topTable';

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

describe('folding large trees', () => {
  it('merges folded nodes into a kept "other" child (Pyroscope truncated trees have them)', () => {
    const tree = fromAscii(`
total 100
  other 40
  a 2
  b 1
  c 57`);
    const { tree: c, collapsed } = collapseBelow(tree, 5);
    expect(collapsed).toBe(2);
    expect(toAscii(c)).toBe('total 100\n  c 57\n  other 43');
  });

  it('property: kept nodes keep their values, folded weight reappears as "other" under its parent', () => {
    fc.assert(
      fc.property(arbTree, fc.integer({ min: 1, max: 50 }), (a, thresholdPct) => {
        const threshold = (a.total[0] * thresholdPct) / 100;
        const { tree, collapsed } = collapseBelow(a, threshold);
        // kept nodes keep their values; folded weight reappears as "other" self, under the same parents
        const kept = canonical(a, (i) => a.total[i] >= threshold);
        const got = canonical(tree, (i) => tree.names[tree.nameId[i]] !== 'other');
        expect(got).toEqual(kept);
        expect(tree.total[0]).toBe(a.total[0]);
        const folded = Array.from(a.total).filter((t, i) => i > 0 && t < threshold && a.total[a.parent[i]] >= threshold).reduce((s, t) => s + t, 0);
        const others = Array.from(tree.self).filter((_, i) => tree.names[tree.nameId[i]] === 'other').reduce((s, t) => s + t, 0);
        const keptOthers = Array.from(a.self).filter((_, i) => a.names[a.nameId[i]] === 'other' && a.total[i] >= threshold).reduce((s, t) => s + t, 0);
        expect(others).toBeCloseTo(folded + keptOthers, 6);
        expect(collapsed).toBe(Array.from(a.total).filter((t, i) => i > 0 && t < threshold).length);
      })
    );
  });

  it('folds under a path deeper than a short stack (a 300-deep chain)', () => {
    // a chain of 300 frames, each with a light sibling leaf that folds into "other"
    const lines = ['total 1000'];
    for (let d = 1; d <= 300; d++) {
      lines.push(`${'  '.repeat(d)}f${d} ${1000 - 2 * d}`);
    }
    // each light leaf after its sibling's whole subtree, as pre-order has it
    for (let d = 300; d >= 1; d--) {
      lines.push(`${'  '.repeat(d)}light${d} 1`);
    }
    const tree = fromAscii(lines.join('\n'));
    const { tree: c, collapsed } = collapseBelow(tree, 1.5);
    expect(collapsed).toBe(300);
    expect(c.size).toBe(1 + 300 + 300); // the root, the chain, one "other" beside each chain frame
    expect(c.names[c.nameId[c.size - 1]]).toBe('other');
    expect(c.total[0]).toBe(1000);
  });

  it('picks the k-th largest weight without sorting', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 200 }), fc.nat(), (xs, r) => {
        const k = 1 + (r % xs.length);
        const sorted = xs.slice().sort((p, q) => q - p);
        expect(kthLargest(Float64Array.from(xs), k)).toBe(sorted[k - 1]);
      })
    );
  });
});

/** path -> [total, self] of the nodes `keep` selects (paths by name, root excluded). */
function canonical(t: Tree, keep: (i: number) => boolean): Map<string, [number, number]> {
  const m = new Map<string, [number, number]>();
  for (let i = 0; i < t.size; i++) {
    if (keep(i)) {
      m.set(pathOf(t, i).join(';'), [t.total[i], t.self[i]]);
    }
  }
  return m;
}
