import { addTree, isDiff, makeTree, OTHER_NAME, Tree, TreeBuilder } from './tree';

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

export interface FunctionRow {
  name: string;
  self: number;
  total: number;
  selfRight?: number;
  totalRight?: number;
}

/**
 * Top table: self and total per function name, aggregated over the whole tree as Pyroscope
 * does. Self adds up over every node of the name; total counts each sample once per name,
 * so recursion (a name on its own stack twice) is not double-counted: a node adds its total
 * only when no ancestor has the same name. Sorted by self, descending.
 */
export function topTable(tree: Tree): FunctionRow[] {
  const names = tree.names.length;
  const self = new Float64Array(names);
  const total = new Float64Array(names);
  const diff = isDiff(tree);
  const selfR = diff ? new Float64Array(names) : undefined;
  const totalR = diff ? new Float64Array(names) : undefined;
  const onStack = new Int32Array(names);
  const stack = new Int32Array(tree.size + 1); // node indices on the current path
  let sp = 0;
  for (let i = 0; i < tree.size; i++) {
    while (sp > 0 && tree.end[stack[sp - 1]] <= i) {
      onStack[tree.nameId[stack[--sp]]]--;
    }
    const id = tree.nameId[i];
    self[id] += tree.self[i];
    if (selfR) {
      selfR[id] += tree.selfRight![i];
    }
    if (onStack[id] === 0) {
      total[id] += tree.total[i];
      if (totalR) {
        totalR[id] += tree.totalRight![i];
      }
    }
    onStack[id]++;
    stack[sp++] = i;
  }
  const rows: FunctionRow[] = [];
  for (let id = 0; id < names; id++) {
    if (total[id] === 0 && (!totalR || totalR[id] === 0)) {
      continue;
    }
    rows.push({
      name: tree.names[id],
      self: self[id],
      total: total[id],
      selfRight: selfR?.[id],
      totalRight: totalR?.[id],
    });
  }
  rows.sort((a, b) => b.self - a.self || b.total - a.total || (a.name < b.name ? -1 : 1));
  return rows;
}

export interface ChangeRow {
  name: string;
  /** self share in the baseline, 0..1 */
  baselineSelfShare: number;
  /** self share in the comparison, 0..1 */
  comparisonSelfShare: number;
  /** comparison minus baseline */
  delta: number;
}

/** "Biggest changes": functions ranked by the change of their self share (largest |change| first). */
export function biggestChanges(diff: Tree): ChangeRow[] {
  if (!isDiff(diff)) {
    return [];
  }
  const lt = diff.total[0];
  const rt = diff.totalRight[0];
  return topTable(diff)
    .map((r) => {
      const b = lt > 0 ? r.self / lt : 0;
      const c = rt > 0 ? (r.selfRight ?? 0) / rt : 0;
      return { name: r.name, baselineSelfShare: b, comparisonSelfShare: c, delta: c - b };
    })
    .filter((r) => r.delta !== 0 || r.baselineSelfShare !== 0 || r.comparisonSelfShare !== 0)
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.name < b.name ? -1 : 1));
}

export interface SearchQuery {
  text: string;
  regex?: boolean;
}

export interface SearchResult {
  /** 1 where the node's own label matches */
  matches: Uint8Array;
  /** 1 where the node or an ancestor matches: the node's samples are matched samples */
  covered: Uint8Array;
  matchCount: number;
  /**
   * Matched samples: the samples whose stack holds at least one matching frame. Equals the
   * sum of `self` over covered nodes, and the sum of `total` over matching nodes that have no
   * matching ancestor.
   */
  matchedValue: number;
  /** matchedValue / root total: "the share of samples matched" (0..1) */
  share: number;
  /** samples spent in a matching function itself: sum of self over matching nodes */
  selfValue: number;
  /** selfValue / root total */
  selfShare: number;
  /** comparison side of a diff tree */
  matchedValueRight?: number;
  shareRight?: number;
}

export type SearchOutcome = { ok: true; result: SearchResult | undefined } | { ok: false; error: string };

/**
 * Search by substring (case-insensitive) or regular expression over the labels. The label
 * test runs once per distinct name, not per node.
 */
export function searchTree(tree: Tree, query: SearchQuery): SearchOutcome {
  const text = query.text;
  if (!text) {
    return { ok: true, result: undefined };
  }
  let test: (s: string) => boolean;
  if (query.regex) {
    let re: RegExp;
    try {
      re = new RegExp(text);
    } catch (e) {
      return { ok: false, error: `Invalid regular expression: ${(e as Error).message}` };
    }
    test = (s) => re.test(s);
  } else {
    const needle = text.toLowerCase();
    test = (s) => s.toLowerCase().includes(needle);
  }
  const nameMatch = new Uint8Array(tree.names.length);
  tree.names.forEach((n, id) => (nameMatch[id] = test(n) ? 1 : 0));
  const matches = new Uint8Array(tree.size);
  const covered = new Uint8Array(tree.size);
  let matchCount = 0;
  let matchedValue = 0;
  let selfValue = 0;
  let matchedValueRight = 0;
  for (let i = 0; i < tree.size; i++) {
    const m = nameMatch[tree.nameId[i]];
    matches[i] = m;
    const p = tree.parent[i];
    const parentCovered = p >= 0 ? covered[p] : 0;
    covered[i] = m | parentCovered;
    if (m) {
      matchCount++;
      selfValue += tree.self[i];
      if (!parentCovered) {
        matchedValue += tree.total[i];
        if (tree.totalRight) {
          matchedValueRight += tree.totalRight[i];
        }
      }
    }
  }
  const root = tree.size ? tree.total[0] : 0;
  const rootR = tree.totalRight ? tree.totalRight[0] : 0;
  return {
    ok: true,
    result: {
      matches,
      covered,
      matchCount,
      matchedValue,
      share: root > 0 ? matchedValue / root : 0,
      selfValue,
      selfShare: root > 0 ? selfValue / root : 0,
      matchedValueRight: tree.totalRight ? matchedValueRight : undefined,
      shareRight: tree.totalRight ? (rootR > 0 ? matchedValueRight / rootR : 0) : undefined,
    },
  };
}

/** The subtree of node i as a tree of its own (focus): i becomes the root, depths shift. */
export function subtree(tree: Tree, i: number): Tree {
  const from = i;
  const to = tree.end[i];
  const base = tree.level[i];
  const level = tree.level.slice(from, to).map((l) => l - base);
  return makeTree(
    level,
    tree.total.slice(from, to),
    tree.self.slice(from, to),
    tree.nameId.slice(from, to),
    tree.names,
    tree.unit,
    tree.totalRight && tree.selfRight
      ? { total: tree.totalRight.slice(from, to), self: tree.selfRight.slice(from, to) }
      : undefined
  );
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
