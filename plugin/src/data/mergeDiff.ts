/**
 * Merging trees by call path: merge (values add up) and diff (the two sides side by side), and
 * how the two sides of a diff compare (shares, changes, width weights).
 */
import { addTree, isDiff, makeTree, Tree, TreeBuilder } from './tree';

/** Merges profiles by call path: values of the same path add up. */
export function mergeTrees(trees: Tree[]): Tree {
  if (trees.length === 0) {
    throw new Error('mergeTrees needs at least one tree');
  }
  const builder = new TreeBuilder(undefined, trees[0].names[trees[0].nameId[0]], Math.max(...trees.map((t) => t.size)) * 1.25);
  for (const t of trees) {
    addTree(builder, t, 0);
  }
  return builder.build(trees[0].unit, { diff: false });
}

/**
 * The diff tree of a baseline and a comparison: the union of their call paths, baseline
 * values in total/self, comparison values in totalRight/selfRight (raw, as in Grafana's
 * diff frame). Shares are computed against each side's own total (see shareOf/changeOf).
 */
export function diffTrees(baseline: Tree, comparison: Tree): Tree {
  return diffSortedTrees(baseline, comparison) ?? diffTreesByPath(baseline, comparison);
}

/** diffTrees for any sibling order: finds or creates each call path in a TreeBuilder. */
export function diffTreesByPath(baseline: Tree, comparison: Tree): Tree {
  const builder = new TreeBuilder(undefined, baseline.names[baseline.nameId[0]], Math.max(baseline.size, comparison.size) * 1.25);
  addTree(builder, baseline, 0);
  addTree(builder, comparison, 1);
  return builder.build(baseline.unit, { diff: true });
}

/**
 * diffTrees for the common case where both trees list siblings in name order (Pyroscope's
 * flamebearer and TreeBuilder both do): one merge walk over both pre-orders, no hashing.
 * Returns undefined when either tree is not in that order (diffTrees then builds by path).
 */
function diffSortedTrees(a: Tree, b: Tree): Tree | undefined {
  if (a.size === 0 || b.size === 0) {
    return undefined;
  }
  // one id space for both trees' names, ranked by name
  const all = Array.from(new Set([...a.names, ...b.names])).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const rankOf = new Map(all.map((n, r) => [n, r]));
  const rankA = Int32Array.from(a.names, (n) => rankOf.get(n)!);
  const rankB = Int32Array.from(b.names, (n) => rankOf.get(n)!);
  const sorted = (t: Tree, rank: Int32Array) => {
    for (let i = 0; i < t.size; i++) {
      const e = t.end[i];
      for (let c = i + 1, prev = -1; c < e; c = t.end[c]) {
        const r = rank[t.nameId[c]];
        if (r <= prev) {
          return false;
        }
        prev = r;
      }
    }
    return true;
  };
  if (!sorted(a, rankA) || !sorted(b, rankB) || rankA[a.nameId[0]] !== rankB[b.nameId[0]]) {
    return undefined;
  }
  const cap = a.size + b.size;
  const level = new Int32Array(cap);
  const nameId = new Int32Array(cap);
  const total = new Float64Array(cap);
  const self = new Float64Array(cap);
  const totalR = new Float64Array(cap);
  const selfR = new Float64Array(cap);
  let out = 0;
  // explicit stack of (nodeA or -1, nodeB or -1, depth): pre-order, children pushed in reverse
  const stackA: number[] = [0];
  const stackB: number[] = [0];
  const stackD: number[] = [0];
  const childA: number[] = [];
  const childB: number[] = [];
  while (stackA.length) {
    const i = stackA.pop()!;
    const j = stackB.pop()!;
    const d = stackD.pop()!;
    level[out] = d;
    nameId[out] = i >= 0 ? rankA[a.nameId[i]] : rankB[b.nameId[j]];
    if (i >= 0) {
      total[out] = a.total[i];
      self[out] = a.self[i];
    }
    if (j >= 0) {
      totalR[out] = b.total[j];
      selfR[out] = b.self[j];
    }
    out++;
    // merge the two sorted child lists
    childA.length = 0;
    childB.length = 0;
    let ca = i >= 0 ? i + 1 : 0;
    const ea = i >= 0 ? a.end[i] : 0;
    let cb = j >= 0 ? j + 1 : 0;
    const eb = j >= 0 ? b.end[j] : 0;
    while (ca < ea || cb < eb) {
      const ra = ca < ea ? rankA[a.nameId[ca]] : Infinity;
      const rb = cb < eb ? rankB[b.nameId[cb]] : Infinity;
      if (ra === rb) {
        childA.push(ca);
        childB.push(cb);
        ca = a.end[ca];
        cb = b.end[cb];
      } else if (ra < rb) {
        childA.push(ca);
        childB.push(-1);
        ca = a.end[ca];
      } else {
        childA.push(-1);
        childB.push(cb);
        cb = b.end[cb];
      }
    }
    for (let k = childA.length - 1; k >= 0; k--) {
      stackA.push(childA[k]);
      stackB.push(childB[k]);
      stackD.push(d + 1);
    }
  }
  return makeTree(level.slice(0, out), total.slice(0, out), self.slice(0, out), nameId.slice(0, out), all, a.unit, {
    total: totalR.slice(0, out),
    self: selfR.slice(0, out),
  });
}

/** The two sides of a diff tree as plain trees (paths absent from a side are dropped). */
export function splitDiff(diff: Tree): [Tree, Tree] {
  if (!isDiff(diff)) {
    throw new Error('splitDiff needs a diff tree');
  }
  const side = (right: boolean) => {
    const builder = new TreeBuilder(undefined, diff.names[diff.nameId[0]]);
    addTree(builder, diff, 0, right);
    return builder.build(diff.unit, { diff: false });
  };
  return [side(false), side(true)];
}

/** Share of node i in its side's total (0 when that side is empty). */
export function shareOf(tree: Tree, i: number, right = false): number {
  const total = right ? tree.totalRight! : tree.total;
  return total[0] > 0 ? total[i] / total[0] : 0;
}

/** Change of node i's share, comparison minus baseline, in [-1, 1]. */
export function changeOf(tree: Tree, i: number): number {
  return shareOf(tree, i, true) - shareOf(tree, i, false);
}

/**
 * How a diff compares its sides: by share (each side against its own total) or by value
 * (per request or absolute: the sides' values as they are, so a traffic change shows).
 */
export type DiffBasis = 'share' | 'value';

/** Width weight of node i: its total, or for a diff the sum of both sides' shares (or values). */
export function weightOf(tree: Tree, basis: DiffBasis = 'share'): Float64Array {
  if (!isDiff(tree)) {
    return tree.total;
  }
  const lt = basis === 'value' ? 1 : tree.total[0] || 1;
  const rt = basis === 'value' ? 1 : tree.totalRight[0] || 1;
  const w = new Float64Array(tree.size);
  for (let i = 0; i < tree.size; i++) {
    w[i] = tree.total[i] / lt + tree.totalRight[i] / rt;
  }
  return w;
}
