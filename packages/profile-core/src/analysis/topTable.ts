/** The tables under the graph: self and total per function, and a diff's biggest changes. */
import { byName, isDiff, Tree } from '../tree/tree';

export interface FunctionRow {
  name: string;
  self: number;
  total: number;
  selfRight?: number;
  totalRight?: number;
}

/** Top table: `functionRows` sorted by self, descending (then total, then name). */
export function topTable(tree: Tree): FunctionRow[] {
  return functionRows(tree).sort((a, b) => b.self - a.self || b.total - a.total || (a.name < b.name ? -1 : 1));
}

/**
 * Self and total per function name, aggregated over the whole tree as Pyroscope does, in no
 * particular order (a view that shows the first rows of its own order picks them itself: a
 * full sort of ~200k distinct names costs tens of milliseconds). Self adds up over every node
 * of the name; total counts each sample once per name, so recursion (a name on its own stack
 * twice) is not double-counted: a node adds its total only when no ancestor has the same name.
 */
export function functionRows(tree: Tree): FunctionRow[] {
  tree = byName(tree);
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
  return rows;
}

/**
 * The first `k` items of `items` in the order of `compare`, sorted: a bounded heap, O(n log k)
 * instead of sorting all n (200 rows of a table out of ~200k functions).
 */
export function firstItems<T>(items: T[], compare: (a: T, b: T) => number, k: number): T[] {
  if (items.length <= k) {
    return items.slice().sort(compare);
  }
  // a max-heap (by `compare`) of the k best so far: its root is the worst of them
  const heap: T[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(heap[i], heap[p]) <= 0) {
        break;
      }
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && compare(heap[l], heap[m]) > 0) {
        m = l;
      }
      if (r < heap.length && compare(heap[r], heap[m]) > 0) {
        m = r;
      }
      if (m === i) {
        return;
      }
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (k > 0 && compare(item, heap[0]) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
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
