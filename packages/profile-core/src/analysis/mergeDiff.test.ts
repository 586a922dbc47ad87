import fc from 'fast-check';

import { toAscii } from '../testing/ascii';
import { changeOf, diffTrees, diffTreesByPath, mergeTrees, splitDiff } from './mergeDiff';
import { arbTree, canonical } from '../testing/arbitrary';
import { printlnAfter, printlnBefore } from '../testing/trees';
import { biggestChanges } from './topTable';
import { makeTree, pathOf, Tree } from '../tree/tree';

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

  it('siblings out of name order: the diff by path, on either side', () => {
    const tree = (names: string[], level: number[], total: number[]) =>
      makeTree(Int32Array.from(level), Float64Array.from(total), new Float64Array(level.length), Int32Array.from(names.keys()), names, 'short');
    // b before a under the root, and d before c one level down
    const unsorted = tree(['total', 'b', 'a', 'x', 'd', 'c'], [0, 1, 1, 2, 3, 3], [9, 2, 7, 7, 3, 4]);
    const sorted = tree(['total', 'a', 'x', 'c', 'd', 'b'], [0, 1, 2, 3, 3, 1], [9, 7, 7, 4, 3, 2]);
    for (const [a, b] of [
      [unsorted, sorted],
      [sorted, unsorted],
    ]) {
      expect(toAscii(diffTrees(a, b))).toBe(toAscii(diffTreesByPath(a, b)));
    }
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
