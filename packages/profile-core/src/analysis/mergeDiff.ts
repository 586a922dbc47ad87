/**
 * Merging trees by call path: merge (values add up) and diff (the two sides side by side), and
 * how the two sides of a diff compare (shares, changes, width weights).
 */
import { addTree, isDiff, maxLevelOf, Tree, TreeBuilder } from '../tree/tree';

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
  // the default sort orders strings by UTF-16 code units, as < does, without calling a
  // comparator per comparison (10k names: ~2 ms against 4-15 ms with one)
  const all = Array.from(new Set([...a.names, ...b.names])).sort();
  const rankOf = new Map<string, number>();
  for (let r = 0; r < all.length; r++) {
    rankOf.set(all[r], r);
  }
  const rankA = ranks(a.names, rankOf);
  const rankB = ranks(b.names, rankOf);
  if (rankA[a.nameId[0]] !== rankB[b.nameId[0]]) {
    return undefined;
  }
  return mergeWalk(a, b, rankA, rankB, all);
}

/** Each name's rank. */
function ranks(names: string[], rankOf: Map<string, number>): Int32Array {
  const out = new Int32Array(names.length);
  for (let i = 0; i < names.length; i++) {
    out[i] = rankOf.get(names[i])!;
  }
  return out;
}

/**
 * The merge walk of diffSortedTrees: both pre-orders at once, writing the diff tree's columns
 * (parent and subtree end included) as it goes. One stack entry per open node holds its two
 * child cursors, in typed arrays sized by the deeper tree's depth: no allocation per node
 * (the walk that pushed every child pair onto JS arrays spent a third of a 200k diff growing
 * and truncating them). Checks the name order as it goes (each side's next sibling ranks
 * above the one just merged) rather than in a pass of its own, and gives up when it is not.
 */
function mergeWalk(a: Tree, b: Tree, rankA: Int32Array, rankB: Int32Array, names: string[]): Tree | undefined {
  const cap = a.size + b.size;
  const level = new Int32Array(cap);
  const nameId = new Int32Array(cap);
  const parent = new Int32Array(cap);
  const end = new Int32Array(cap);
  const total = new Float64Array(cap);
  const self = new Float64Array(cap);
  const totalR = new Float64Array(cap);
  const selfR = new Float64Array(cap);
  // columns in locals: a first diff runs this loop in V8's lower tiers, which look a property up at every use
  const aName = a.nameId;
  const aEnd = a.end;
  const aTotal = a.total;
  const aSelf = a.self;
  const bName = b.nameId;
  const bEnd = b.end;
  const bTotal = b.total;
  const bSelf = b.self;
  // per open node (the path to the current one): its row in the output and the next unmerged
  // child on each side up to that side's subtree end (cursor = end: that side has no more)
  const depth = Math.max(maxLevelOf(a), maxLevelOf(b)) + 2;
  const node = new Int32Array(depth);
  const nextA = new Int32Array(depth);
  const endA = new Int32Array(depth);
  const nextB = new Int32Array(depth);
  const endB = new Int32Array(depth);
  level[0] = 0;
  nameId[0] = rankA[aName[0]];
  parent[0] = -1;
  total[0] = aTotal[0];
  self[0] = aSelf[0];
  totalR[0] = bTotal[0];
  selfR[0] = bSelf[0];
  node[0] = 0;
  nextA[0] = 1;
  endA[0] = aEnd[0];
  nextB[0] = 1;
  endB[0] = bEnd[0];
  let out = 1;
  let sp = 0; // the open node on top of the stack
  while (sp >= 0) {
    const ca = nextA[sp];
    const ea = endA[sp];
    const cb = nextB[sp];
    const eb = endB[sp];
    if (ca >= ea && cb >= eb) {
      end[node[sp]] = out;
      sp--;
      continue;
    }
    const ra = ca < ea ? rankA[aName[ca]] : 0x7fffffff;
    const rb = cb < eb ? rankB[bName[cb]] : 0x7fffffff;
    const o = out++;
    level[o] = sp + 1;
    parent[o] = node[sp];
    // the child on each side (or none), and its subtree on that side for the next level
    let ia = ea;
    let ja = ea;
    let ib = eb;
    let jb = eb;
    if (ra <= rb) {
      nameId[o] = ra;
      total[o] = aTotal[ca];
      self[o] = aSelf[ca];
      ia = ca + 1;
      ja = aEnd[ca];
      nextA[sp] = ja;
      if (ja < ea && rankA[aName[ja]] <= ra) {
        return undefined; // siblings out of name order
      }
    }
    if (rb <= ra) {
      nameId[o] = rb;
      totalR[o] = bTotal[cb];
      selfR[o] = bSelf[cb];
      ib = cb + 1;
      jb = bEnd[cb];
      nextB[sp] = jb;
      if (jb < eb && rankB[bName[jb]] <= rb) {
        return undefined;
      }
    }
    sp++;
    node[sp] = o;
    nextA[sp] = ia;
    endA[sp] = ja;
    nextB[sp] = ib;
    endB[sp] = jb;
  }
  // views of the first `out` rows, not copies: a page of these arrays is only backed by memory
  // once written, so the unused tail costs nothing, and a copy would write every row again into
  // fresh memory (first writes to fresh pages, ~2 us each here, are most of a diff's cost)
  return {
    size: out,
    level: level.subarray(0, out),
    total: total.subarray(0, out),
    self: self.subarray(0, out),
    nameId: nameId.subarray(0, out),
    names,
    parent: parent.subarray(0, out),
    end: end.subarray(0, out),
    unit: a.unit,
    totalRight: totalR.subarray(0, out),
    selfRight: selfR.subarray(0, out),
  };
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
