/**
 * Pyroscope's truncation, reproduced: trees cut as its answers are, for the tests and benchmarks
 * that check what the panel makes of them (not part of module.js).
 */
import { kthLargest } from '../tree/collapse';
import { byName, makeTree, OTHER_NAME, Tree } from '../tree/tree';
import { Truncation } from '../analysis/truncation';

/**
 * The same for a tree read without its frame (no `truncated` marker): nodes named "other".
 * Only for trees nothing else folded: the panel's own folding (collapse.ts) names its nodes so too.
 */
export function treeTruncation(tree: Tree): Truncation {
  tree = byName(tree);
  const other = tree.names.indexOf(OTHER_NAME);
  const out: Truncation = { truncated: false, other: 0, total: tree.size ? tree.total[0] : 0, rows: 0 };
  if (tree.totalRight) {
    out.otherRight = 0;
    out.totalRight = tree.size ? tree.totalRight[0] : 0;
  }
  for (let i = 1; other >= 0 && i < tree.size; i++) {
    if (tree.nameId[i] !== other) {
      continue;
    }
    out.truncated = true;
    out.rows++;
    out.other += tree.total[i];
    if (tree.totalRight) {
      out.otherRight! += tree.totalRight[i];
    }
    i = tree.end[i] - 1;
  }
  return out;
}

/**
 * A single-sided tree cut as Pyroscope cuts its answers (pkg/model: `minValue` and
 * `NewFlameGraph`): the threshold is the `maxNodes`-th largest total among the nodes under
 * the root (0 when the tree has no more nodes than that); from the root down, a child is kept
 * when its total reaches the threshold and it is not itself named "other"; the others of a
 * parent are summed into one "other" child (self = total) after its kept children. Used by
 * tests and benchmarks to make trees exactly as a truncated answer shapes them.
 */
export function pyroscopeTruncate(tree: Tree, maxNodes: number): Tree {
  tree = byName(tree);
  const n = tree.size;
  const totals = tree.total.subarray(1, n);
  const minVal = maxNodes >= 1 && n - 1 > maxNodes ? kthLargest(Float64Array.from(totals), maxNodes) : 0;
  const names = tree.names.slice();
  let otherId = names.indexOf(OTHER_NAME);
  if (otherId < 0) {
    otherId = names.push(OTHER_NAME) - 1;
  }
  const level: number[] = [];
  const total: number[] = [];
  const self: number[] = [];
  const nameId: number[] = [];
  const emit = (l: number, t: number, s: number, id: number) => {
    level.push(l);
    total.push(t);
    self.push(s);
    nameId.push(id);
  };
  // the nodes to emit, depth first; node -1 is an "other" leaf of value `other`
  const stack: Array<[node: number, depth: number, other: number]> = [[0, 0, 0]];
  while (stack.length) {
    const [i, d, v] = stack.pop()!;
    if (i < 0) {
      emit(d, v, v, otherId);
      continue;
    }
    emit(d, tree.total[i], tree.self[i], tree.nameId[i]);
    const kept: number[] = [];
    let folded = 0;
    for (let c = i + 1; c < tree.end[i]; c = tree.end[c]) {
      if (tree.total[c] >= minVal && tree.nameId[c] !== otherId) {
        kept.push(c);
      } else {
        folded += tree.total[c];
      }
    }
    if (folded !== 0) {
      stack.push([-1, d + 1, folded]);
    }
    for (let k = kept.length - 1; k >= 0; k--) {
      stack.push([kept[k], d + 1, 0]);
    }
  }
  return makeTree(Int32Array.from(level), Float64Array.from(total), Float64Array.from(self), Int32Array.from(nameId), names, tree.unit);
}
