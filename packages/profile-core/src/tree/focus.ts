import { makeTree, Tree } from './tree';

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
