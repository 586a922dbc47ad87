/** Folding the lightest nodes into "other" so that a large profile stays drawable. */
import { weightOf } from '../analysis/mergeDiff';
import { byName, isDiff, makeTree, maxLevelOf, OTHER_NAME, Tree } from './tree';

export interface CollapseResult {
  tree: Tree;
  /** nodes folded into "other" nodes */
  collapsed: number;
  /** the threshold used, in weight units (see weightOf) */
  threshold: number;
}

/**
 * Folds the children of each node whose weight is below `threshold` into one "other" child
 * (a leaf holding their totals as self; merged into a kept child already named "other", as
 * Pyroscope's own truncated trees have). Totals and shares are unchanged everywhere.
 *
 * One pre-order pass that copies the kept rows and appends each node's "other" as its last
 * child when its subtree ends: no rebuilding through a TreeBuilder (which hashed and re-sorted
 * every kept node: 290 ms of folding 2M nodes to 1M), and the kept nodes keep their order.
 */
export function collapseBelow(tree: Tree, threshold: number): CollapseResult {
  tree = byName(tree); // its "other" nodes stand for many rows: one name, one id
  const w = weightOf(tree);
  const n = tree.size;
  const right = isDiff(tree) ? { total: tree.totalRight, self: tree.selfRight } : undefined;
  const names = tree.names.slice();
  let otherId = names.indexOf(OTHER_NAME);
  if (otherId < 0) {
    otherId = names.push(OTHER_NAME) - 1;
  }
  // every "other" stands for at least one folded node: the result has at most n rows
  const level = new Int32Array(n);
  const total = new Float64Array(n);
  const self = new Float64Array(n);
  const nameId = new Int32Array(n);
  const totalR = right ? new Float64Array(n) : undefined;
  const selfR = right ? new Float64Array(n) : undefined;
  let out = 0;
  const copy = (i: number) => {
    level[out] = tree.level[i];
    total[out] = tree.total[i];
    self[out] = tree.self[i];
    nameId[out] = tree.nameId[i];
    if (right) {
      totalR![out] = right.total[i];
      selfR![out] = right.self[i];
    }
    return out++;
  };
  // the open kept nodes (the path to the current row, one per level): input row, output row,
  // what was folded under it, and its kept child named "other" (output row, -1 when none)
  const depth = maxLevelOf(tree) + 1;
  const openIn = new Int32Array(depth);
  const openOut = new Int32Array(depth);
  const foldedL = new Float64Array(depth);
  const foldedR = new Float64Array(depth);
  const folds = new Int32Array(depth);
  const otherAt = new Int32Array(depth);
  let sp = 0;
  const open = (i: number, o: number) => {
    openIn[sp] = i;
    openOut[sp] = o;
    foldedL[sp] = 0;
    foldedR[sp] = 0;
    folds[sp] = 0;
    otherAt[sp] = -1;
    sp++;
  };
  const close = () => {
    sp--;
    if (folds[sp] === 0) {
      return;
    }
    let o = otherAt[sp];
    if (o < 0) {
      o = out++;
      level[o] = level[openOut[sp]] + 1;
      nameId[o] = otherId;
    }
    total[o] += foldedL[sp];
    self[o] += foldedL[sp];
    if (right) {
      totalR![o] += foldedR[sp];
      selfR![o] += foldedR[sp];
    }
  };
  let collapsed = 0;
  if (n > 0) {
    open(0, copy(0));
  }
  for (let i = 1; i < n; ) {
    while (tree.end[openIn[sp - 1]] <= i) {
      close();
    }
    if (w[i] < threshold) {
      foldedL[sp - 1] += tree.total[i];
      if (right) {
        foldedR[sp - 1] += right.total[i];
      }
      folds[sp - 1]++;
      collapsed += tree.end[i] - i;
      i = tree.end[i];
      continue;
    }
    const o = copy(i);
    if (tree.nameId[i] === otherId) {
      otherAt[sp - 1] = o;
    }
    open(i, o);
    i++;
  }
  while (sp > 0) {
    close();
  }
  const result = makeTree(
    level.slice(0, out),
    total.slice(0, out),
    self.slice(0, out),
    nameId.slice(0, out),
    names,
    tree.unit,
    right ? { total: totalR!.slice(0, out), self: selfR!.slice(0, out) } : undefined
  );
  return { tree: result, collapsed, threshold };
}

/**
 * Limits a tree to about `maxNodes` nodes by collapsing the lightest ones into "other":
 * keeps the maxNodes/2 heaviest nodes (ancestors are at least as heavy, so the kept set is a
 * tree), which leaves room for one "other" per kept node. Returns the tree unchanged when it
 * is small enough.
 */
export function limitNodes(tree: Tree, maxNodes: number): CollapseResult {
  if (tree.size <= maxNodes) {
    return { tree, collapsed: 0, threshold: 0 };
  }
  const w = weightOf(tree);
  const keep = Math.max(1, Math.floor(maxNodes / 2));
  const threshold = kthLargest(w, keep);
  // nodes equal to the threshold are kept; nudge up to the next larger weight when ties
  // would overflow the budget
  let t = threshold;
  let kept = 0;
  let above = Infinity;
  for (let i = 0; i < w.length; i++) {
    if (w[i] >= t) {
      kept++;
    }
    if (w[i] > threshold && w[i] < above) {
      above = w[i];
    }
  }
  if (kept > keep) {
    t = above;
  }
  return collapseBelow(tree, t);
}

/**
 * The k-th largest of `values` (1-based), by quickselect on a copy: O(n), where sorting 2M
 * weights took 150 ms.
 */
export function kthLargest(values: Float64Array, k: number): number {
  const a = Float64Array.from(values);
  let lo = 0;
  let hi = a.length - 1;
  const target = a.length - k; // its index in ascending order
  while (lo < hi) {
    // median of three as the pivot: sorted or reversed input stays linear
    const mid = (lo + hi) >> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) {
        i++;
      }
      while (a[j] > pivot) {
        j--;
      }
      if (i <= j) {
        const tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
        i++;
        j--;
      }
    }
    if (target <= j) {
      hi = j;
    } else if (target >= i) {
      lo = i;
    } else {
      break;
    }
  }
  return a[target];
}
