import { forEachChild, nodeName, Tree, TreeBuilder } from '../tree/tree';

/**
 * Readable ASCII-art trees for tests and debugging. One node a line: the name, its total,
 * and for diff trees `| <comparison total>`; depth is the indentation (2 columns a level,
 * the box-drawing characters count as indentation). Self is total minus the children.
 *
 *   total 100
 *   └─ main.main 100
 *      ├─ fmt.Println 60
 *      └─ main.handler 40
 *
 * Diff tree (baseline | comparison):
 *
 *   total 10 | 20
 *   └─ main.main 10 | 20
 *      └─ fmt.Println 0 | 10
 */
export function fromAscii(art: string, unit = 'short'): Tree {
  const lines = art.split('\n').filter((l) => l.trim() !== '');
  const indentOf = (l: string) => l.search(/[^\s│├└─|`\\-]/u);
  type Row = { depth: number; name: string; total: number; right?: number };
  const rows: Row[] = lines.map((line, i) => {
    const col = indentOf(line);
    const m = /^(\S+)\s+([\d.e+]+)(?:\s*\|\s*([\d.e+]+))?\s*$/.exec(line.slice(col));
    if (!m) {
      throw new Error(`ascii tree line ${i + 1} is not "name total [| right]": ${line}`);
    }
    return { depth: 0, name: m[1], total: Number(m[2]), right: m[3] !== undefined ? Number(m[3]) : undefined };
  });
  // depth from the indentation columns: each distinct deeper column opens a level
  const cols: number[] = [];
  lines.forEach((line, i) => {
    const col = indentOf(line);
    while (cols.length && cols[cols.length - 1] >= col) {
      if (cols[cols.length - 1] === col) {
        break;
      }
      cols.pop();
    }
    if (!cols.length || cols[cols.length - 1] < col) {
      cols.push(col);
    }
    rows[i].depth = cols.length - 1;
  });
  const diff = rows.some((r) => r.right !== undefined);
  const builder = new TreeBuilder(undefined, rows[0].name);
  const path: number[] = [0];
  const childSum: Array<[number, number]> = [];
  const nodes: Array<{ node: number; total: number; right: number; parentRow: number }> = [];
  const rowOfDepth: number[] = [];
  rows.forEach((r, i) => {
    if (i > 0 && r.depth === 0) {
      throw new Error(`ascii tree line ${i + 1}: a second root`);
    }
    const node = i === 0 ? 0 : builder.childNamed(path[r.depth - 1], r.name);
    path[r.depth] = node;
    rowOfDepth[r.depth] = i;
    nodes.push({ node, total: r.total, right: r.right ?? 0, parentRow: r.depth > 0 ? rowOfDepth[r.depth - 1] : -1 });
    childSum.push([0, 0]);
  });
  nodes.forEach((n) => {
    if (n.parentRow >= 0) {
      childSum[n.parentRow][0] += n.total;
      childSum[n.parentRow][1] += n.right;
    }
  });
  nodes.forEach((n, i) => {
    builder.add(n.node, n.total, n.total - childSum[i][0], 0);
    if (diff) {
      builder.add(n.node, n.right, n.right - childSum[i][1], 1);
    }
  });
  return builder.build(unit, { diff });
}

/** The inverse of fromAscii (siblings in tree order). */
export function toAscii(tree: Tree): string {
  const out: string[] = [];
  const fmt = (v: number) => String(Math.round(v * 1000) / 1000);
  const walk = (i: number) => {
    const right = tree.totalRight ? ` | ${fmt(tree.totalRight[i])}` : '';
    out.push(`${'  '.repeat(tree.level[i])}${nodeName(tree, i)} ${fmt(tree.total[i])}${right}`);
    forEachChild(tree, i, walk);
  };
  if (tree.size > 0) {
    walk(0);
  }
  return out.join('\n');
}
