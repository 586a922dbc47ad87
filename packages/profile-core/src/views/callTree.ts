/**
 * The call tree's rows: which nodes are shown, in which order, computed from the tree's
 * nested-set columns only for the nodes a user expanded. Nothing here is proportional to the
 * tree's size: a collapsed 1M-node tree costs its root's children, and each expansion costs
 * the children it opens (sorted once, then cached).
 */
import { Tree } from '../tree/tree';

/** Children of each node the call tree has opened, heaviest first (cached per tree). */
export class ChildOrder {
  private cache = new Map<number, Int32Array>();

  constructor(readonly tree: Tree) {}

  /**
   * Children of `node` by total, descending (a diff by both sides' totals together), the tree's
   * own order breaking ties: the order a reader scans for "where did the time go".
   */
  of(node: number): Int32Array {
    let kids = this.cache.get(node);
    if (!kids) {
      const t = this.tree;
      const list: number[] = [];
      for (let c = node + 1, end = t.end[node]; c < end; c = t.end[c]) {
        list.push(c);
      }
      const w = (i: number) => t.total[i] + (t.totalRight ? t.totalRight[i] : 0);
      list.sort((a, b) => w(b) - w(a) || a - b);
      kids = Int32Array.from(list);
      this.cache.set(node, kids);
    }
    return kids;
  }
}

export function hasChildren(tree: Tree, node: number): boolean {
  return tree.end[node] > node + 1;
}

/**
 * The rows shown, in display order: `root`, then the children of every expanded node under
 * it, depth first. Only expanded nodes are visited.
 */
export function visibleRows(order: ChildOrder, root: number, expanded: ReadonlySet<number>): Int32Array {
  const out: number[] = [];
  const stack: number[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    out.push(n);
    if (expanded.has(n)) {
      const kids = order.of(n);
      for (let k = kids.length - 1; k >= 0; k--) {
        stack.push(kids[k]);
      }
    }
  }
  return Int32Array.from(out);
}

/**
 * The nodes to expand so that every node down to `depth` levels below `root` shows (depth 1:
 * the root's children). Visits only those nodes, never the rest of the tree.
 */
export function expandToDepth(order: ChildOrder, root: number, depth: number): Set<number> {
  const tree = order.tree;
  const expanded = new Set<number>();
  const base = tree.level[root];
  const stack: number[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (tree.level[n] - base >= depth || !hasChildren(tree, n)) {
      continue;
    }
    expanded.add(n);
    order.of(n).forEach((c) => stack.push(c));
  }
  return expanded;
}

/** `expanded` plus every ancestor of `node` from `root` down (so `node` shows); a new set. */
export function withPathTo(tree: Tree, expanded: ReadonlySet<number>, root: number, node: number): Set<number> {
  const out = new Set(expanded);
  for (let p = tree.parent[node]; p >= 0 && isUnder(tree, root, p); p = tree.parent[p]) {
    out.add(p);
  }
  return out;
}

/**
 * Expanded nodes that lead to a search match (ancestors of matching nodes under `root`),
 * capped at `limit` matches: a search that hits half a 1M-node tree opens the first ones only.
 */
export function expandToMatches(tree: Tree, root: number, matches: Uint8Array, limit = 500): Set<number> {
  const out = new Set<number>();
  let found = 0;
  for (let i = root + 1; i < tree.end[root] && found < limit; i++) {
    if (!matches[i]) {
      continue;
    }
    found++;
    for (let p = tree.parent[i]; p >= root && !out.has(p); p = tree.parent[p]) {
      out.add(p);
    }
  }
  return out;
}

/** Is `node` inside the subtree of `root` (itself included)? */
export function isUnder(tree: Tree, root: number, node: number): boolean {
  return node >= root && node < tree.end[root];
}
