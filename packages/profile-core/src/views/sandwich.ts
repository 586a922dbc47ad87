/**
 * The sandwich of a function: its callers above, its callees below, merged from every place
 * it occurs in the tree. Pure: no React, no DOM. Works on diff trees (both sides carried).
 *
 * Only outermost occurrences count (a node of the function with no ancestor of the same
 * function): with recursion, an inner call's samples are already inside the outer one's
 * total, and counting both would double them.
 */
import { byName, isDiff, Tree, TreeBuilder } from '../tree/tree';

export interface Sandwich {
  /** root = the function; children = its direct callers, their children the callers' callers, up to the profile's root */
  callers: Tree;
  /** root = the function; below it everything it calls, merged by call path */
  callees: Tree;
  /** how many outermost occurrences were merged */
  occurrences: number;
}

/** The sandwich of `name`, or undefined when no node has that name. */
export function sandwich(tree: Tree, name: string): Sandwich | undefined {
  tree = byName(tree);
  const id = tree.names.indexOf(name);
  if (id < 0) {
    return undefined;
  }
  const diff = isDiff(tree);
  const sides: Array<0 | 1> = diff ? [0, 1] : [0];
  const value = (side: 0 | 1) => (side === 0 ? tree.total : tree.totalRight!);
  const selfOf = (side: 0 | 1) => (side === 0 ? tree.self : tree.selfRight!);
  const callers = new TreeBuilder(undefined, name);
  const callees = new TreeBuilder(undefined, name);
  const ids = tree.names.map((n) => callees.interner.id(n));
  const callerIds = tree.names.map((n) => callers.interner.id(n));
  let occurrences = 0;
  for (let i = 0; i < tree.size; ) {
    if (tree.nameId[i] !== id) {
      i++;
      continue;
    }
    occurrences++;
    // callers: the path from i's parent up to the root, as children of the function; the
    // outermost caller (the profile's root) holds the samples as self, so totals add up
    for (const side of sides) {
      const v = value(side)[i];
      callers.add(0, v, 0, side);
      let n = 0;
      for (let a = tree.parent[i]; a >= 0; a = tree.parent[a]) {
        n = callers.child(n, callerIds[tree.nameId[a]]);
        callers.add(n, v, 0, side);
      }
      callers.add(n, 0, v, side);
    }
    // callees: the subtree of i merged under the function's root
    const map = new Int32Array(tree.end[i] - i);
    map[0] = 0;
    for (const side of sides) {
      callees.add(0, value(side)[i], selfOf(side)[i], side);
    }
    for (let c = i + 1; c < tree.end[i]; c++) {
      const b = callees.child(map[tree.parent[c] - i], ids[tree.nameId[c]]);
      map[c - i] = b;
      for (const side of sides) {
        callees.add(b, value(side)[c], selfOf(side)[c], side);
      }
    }
    // skip the subtree: inner occurrences are inside this one
    i = tree.end[i];
  }
  if (occurrences === 0) {
    return undefined;
  }
  return { callers: callers.build(tree.unit, { diff }), callees: callees.build(tree.unit, { diff }), occurrences };
}
