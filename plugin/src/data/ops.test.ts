import fc from 'fast-check';

import { fromAscii, toAscii } from './ascii';
import {
  biggestChanges,
  changeOf,
  collapseBelow,
  diffTrees,
  diffTreesByPath,
  limitNodes,
  mergeTrees,
  searchTree,
  splitDiff,
  subtree,
  topTable,
} from './ops';
import { printlnAfter, printlnBefore, recursive } from './testdata/trees';
import { pathOf, Tree, TreeBuilder } from './tree';

/** path -> [total, self] of every node with a non-zero total (canonical form for comparisons). */
function canonical(tree: Tree): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < tree.size; i++) {
    if (tree.total[i] > 0) {
      out.set(pathOf(tree, i).join(';'), [tree.total[i], tree.self[i]]);
    }
  }
  return out;
}

const NAMES = ['main', 'fmt.Println', 'write', 'runtime.mallocgc', 'json.Marshal', 'io.Copy'];

/** Random profiles: lists of (stack, value) samples over a small alphabet (recursion happens). */
const arbTree = fc
  .array(fc.tuple(fc.array(fc.constantFrom(...NAMES), { minLength: 0, maxLength: 6 }), fc.integer({ min: 1, max: 1000 })), {
    minLength: 1,
    maxLength: 40,
  })
  .map((samples) => {
    const b = new TreeBuilder();
    for (const [stack, value] of samples) {
      b.addStack(
        stack.map((n) => b.interner.id(n)),
        value
      );
    }
    return b.build('short');
  });

describe('merge', () => {
  it('adds values by call path', () => {
    const merged = mergeTrees([printlnBefore(), printlnAfter()]);
    expect(toAscii(merged)).toContain('main.streamFromCache 140');
    expect(merged.total[0]).toBe(500);
  });

  it('property: merging conserves totals, per path and overall', () => {
    fc.assert(
      fc.property(arbTree, arbTree, (a, b) => {
        const m = mergeTrees([a, b]);
        expect(m.total[0]).toBe(a.total[0] + b.total[0]);
        const ca = canonical(a);
        const cb = canonical(b);
        for (const [path, [total, self]] of canonical(m)) {
          expect(total).toBe((ca.get(path)?.[0] ?? 0) + (cb.get(path)?.[0] ?? 0));
          expect(self).toBe((ca.get(path)?.[1] ?? 0) + (cb.get(path)?.[1] ?? 0));
        }
      })
    );
  });
});

describe('diff', () => {
  it('normalises each side to its own total: the println story', () => {
    const diff = diffTrees(printlnBefore(), printlnAfter());
    const rows = biggestChanges(diff);
    // fmt.Println's self share goes from 0 to 20/400 and its callee's to 280/400
    expect(rows[0].name).toBe('google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format');
    expect(rows[0].comparisonSelfShare).toBeCloseTo(0.7);
    expect(rows[0].baselineSelfShare).toBe(0);
    // streamFromCache keeps 70 samples but falls from 70% to 17.5% of its side
    const recv = rows.find((r) => r.name.endsWith('RecvMsg'))!;
    expect(recv.delta).toBeCloseTo(0.175 - 0.7);
  });

  it('property: diff(a, a) changes nothing', () => {
    fc.assert(
      fc.property(arbTree, (a) => {
        const d = diffTrees(a, a);
        for (let i = 0; i < d.size; i++) {
          expect(changeOf(d, i)).toBe(0);
        }
        expect(biggestChanges(d).every((r) => r.delta === 0)).toBe(true);
      })
    );
  });

  it('property: the merge walk over sorted trees equals the diff by path', () => {
    const sides = (t: Tree) => {
      const out = new Map<string, number[]>();
      for (let i = 0; i < t.size; i++) {
        out.set(pathOf(t, i).join(';'), [t.total[i], t.self[i], t.totalRight![i], t.selfRight![i]]);
      }
      return out;
    };
    fc.assert(
      fc.property(arbTree, arbTree, (a, b) => {
        expect(toAscii(diffTrees(a, b))).toBe(toAscii(diffTreesByPath(a, b)));
        expect(sides(diffTrees(a, b))).toEqual(sides(diffTreesByPath(a, b)));
      })
    );
  });

  it('property: split(diff(a, b)) gives back a and b', () => {
    fc.assert(
      fc.property(arbTree, arbTree, (a, b) => {
        const [a2, b2] = splitDiff(diffTrees(a, b));
        expect(canonical(a2)).toEqual(canonical(a));
        expect(canonical(b2)).toEqual(canonical(b));
      })
    );
  });
});

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

describe('search', () => {
  it('finds "write" frames and the share of samples under them (the fluentd story)', () => {
    const tree = fromAscii(`
total 100
  fluentd.emit 80
    out_timescale.write 50
      pg.exec 30
    parser.parse 30
      out_timescale.write 10
  io.write 20`);
    const r = searchTree(tree, { text: 'write' });
    expect(r.ok && r.result?.matchCount).toBe(3);
    expect(r.ok && r.result?.share).toBeCloseTo(0.8);
    expect(r.ok && r.result?.selfShare).toBeCloseTo((20 + 10 + 20) / 100);
  });

  it('supports regular expressions and reports bad ones', () => {
    const tree = printlnAfter();
    const r = searchTree(tree, { text: '^fmt\\.', regex: true });
    expect(r.ok && r.result?.share).toBeCloseTo(0.75);
    const bad = searchTree(tree, { text: '(', regex: true });
    expect(!bad.ok && bad.error).toMatch(/Invalid regular expression/);
  });

  it('property: share = sum of self over matched samples / total, = sum of total over outermost matches', () => {
    fc.assert(
      fc.property(arbTree, fc.constantFrom('write', 'fmt', 'main', 'o', 'zzz'), (a, text) => {
        const r = searchTree(a, { text });
        if (!r.ok || !r.result) {
          throw new Error('search failed');
        }
        let selfOfCovered = 0;
        let selfOfMatches = 0;
        for (let i = 0; i < a.size; i++) {
          if (r.result.covered[i]) {
            selfOfCovered += a.self[i];
          }
          if (r.result.matches[i]) {
            selfOfMatches += a.self[i];
          }
        }
        expect(r.result.matchedValue).toBe(selfOfCovered);
        expect(r.result.share).toBeCloseTo(selfOfCovered / a.total[0], 12);
        expect(r.result.selfShare).toBeCloseTo(selfOfMatches / a.total[0], 12);
        expect(r.result.share).toBeLessThanOrEqual(1 + 1e-12);
      })
    );
  });
});

describe('focus and collapse', () => {
  it('focuses on a subtree', () => {
    const tree = printlnAfter();
    const i = Array.from(tree.nameId).findIndex((id) => tree.names[id] === 'fmt.Println');
    expect(toAscii(subtree(tree, i))).toBe(
      'fmt.Println 300\n  google.golang.org/protobuf/encoding/prototext.MarshalOptions.Format 280'
    );
  });

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
