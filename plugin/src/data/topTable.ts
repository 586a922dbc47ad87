/** The tables under the graph: self and total per function, and a diff's biggest changes. */
import { isDiff, Tree } from './tree';

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
