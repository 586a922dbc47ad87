/** Folding the lightest nodes into "other" so that a large profile stays drawable. */
import { weightOf } from './mergeDiff';
import { isDiff, OTHER_NAME, Tree, TreeBuilder } from './tree';

export interface CollapseResult {
  tree: Tree;
  /** nodes folded into "other" nodes */
  collapsed: number;
  /** the threshold used, in weight units (see weightOf) */
  threshold: number;
}

/**
 * Folds the children of each node whose weight is below `threshold` into one "other" child
 * (a leaf holding their totals as self). Totals and shares are unchanged everywhere.
 */
export function collapseBelow(tree: Tree, threshold: number): CollapseResult {
  const w = weightOf(tree);
  const diff = isDiff(tree);
  const builder = new TreeBuilder(undefined, tree.names[tree.nameId[0]]);
  const otherId = builder.interner.id(OTHER_NAME);
  const ids = tree.names.map((n) => builder.interner.id(n));
  const map = new Int32Array(tree.size);
  builder.add(0, tree.total[0], tree.self[0], 0);
  if (diff) {
    builder.add(0, tree.totalRight![0], tree.selfRight![0], 1);
  }
  let collapsed = 0;
  for (let i = 1; i < tree.size; ) {
    const p = map[tree.parent[i]];
    if (w[i] < threshold) {
      const o = builder.child(p, otherId);
      builder.add(o, tree.total[i], tree.total[i], 0);
      if (diff) {
        builder.add(o, tree.totalRight![i], tree.totalRight![i], 1);
      }
      collapsed += tree.end[i] - i;
      i = tree.end[i];
      continue;
    }
    const b = builder.child(p, ids[tree.nameId[i]]);
    map[i] = b;
    builder.add(b, tree.total[i], tree.self[i], 0);
    if (diff) {
      builder.add(b, tree.totalRight![i], tree.selfRight![i], 1);
    }
    i++;
  }
  return { tree: builder.build(tree.unit, { diff }), collapsed, threshold };
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
  const sorted = Float64Array.from(w).sort();
  const keep = Math.max(1, Math.floor(maxNodes / 2));
  const threshold = sorted[sorted.length - keep];
  // nodes equal to the threshold are kept; nudge up when ties would overflow the budget
  let t = threshold;
  let kept = 0;
  for (let i = 0; i < w.length; i++) {
    if (w[i] >= t) {
      kept++;
    }
  }
  if (kept > keep) {
    t = Infinity;
    for (let k = sorted.length - keep; k < sorted.length; k++) {
      if (sorted[k] > threshold) {
        t = sorted[k];
        break;
      }
    }
  }
  return collapseBelow(tree, t);
}
