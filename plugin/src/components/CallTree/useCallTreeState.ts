import { useMemo, useState } from 'react';

import { ChildOrder, expandToDepth, expandToMatches, hasChildren, Tree, visibleRows, withPathTo } from '@hotpath/profile-core';

const DEFAULT_DEPTH = 3;

interface TreeState {
  tree: Tree;
  focus: number;
  matches?: Uint8Array;
  expanded: Set<number>;
  selected: number;
}

export type CallTreePatch = Partial<Pick<TreeState, 'expanded' | 'selected'>>;

/**
 * What the user opened and selected in the call tree, kept in step with the props: a new tree
 * starts over (its node numbers mean other nodes); a new flame graph focus opens the path to it
 * and selects it; a new search opens the tree down to its (first) matches. Gives the visible
 * rows (only the children of expanded nodes are ever computed) and the selected one's index.
 */
export function useCallTreeState(tree: Tree, focus: number, matches: Uint8Array | undefined) {
  const order = useMemo(() => new ChildOrder(tree), [tree]);
  const initial = useMemo(() => expandToDepth(order, 0, DEFAULT_DEPTH), [order]);
  const [state, setState] = useState<TreeState>({ tree, focus: 0, expanded: initial, selected: 0 });
  const next = inStep(state, tree, initial, focus, matches);
  if (next !== state) {
    setState(next);
  }
  const { expanded, selected } = next;
  const update = (patch: CallTreePatch) => setState({ ...next, ...patch });
  const rows = useMemo(() => visibleRows(order, 0, expanded), [order, expanded]);
  const indexOf = useMemo(() => {
    const m = new Map<number, number>();
    rows.forEach((n, i) => m.set(n, i));
    return m;
  }, [rows]);

  /** Opens or closes a node (open undefined: toggles it) and selects it; a leaf stays as it is. */
  const toggle = (node: number, open?: boolean) => {
    if (!hasChildren(tree, node)) {
      return;
    }
    const next = new Set(expanded);
    if (open ?? !next.has(node)) {
      next.add(node);
    } else {
      next.delete(node);
    }
    update({ expanded: next, selected: node });
  };
  /** Opens every node down to depth d (and closes the rest). */
  const expandTo = (d: number) => update({ expanded: expandToDepth(order, 0, d) });

  return { expanded, selected, rows, selectedRow: indexOf.get(selected) ?? -1, update, toggle, expandTo };
}

/** The state brought in step with the props (the same object when nothing changed). */
function inStep(state: TreeState, tree: Tree, initial: Set<number>, focus: number, matches: Uint8Array | undefined): TreeState {
  let next = state.tree === tree ? state : { tree, focus: 0, expanded: initial, selected: 0 };
  if (next.focus !== focus) {
    next = { ...next, focus, ...(focus > 0 && focus < tree.size ? { expanded: withPathTo(tree, next.expanded, 0, focus), selected: focus } : {}) };
  }
  if (next.matches !== matches) {
    const open = matches ? expandToMatches(tree, 0, matches) : new Set<number>();
    next.expanded.forEach((n) => open.add(n));
    // the first match is selected (so scrolled into view)
    const first = matches ? matches.indexOf(1) : -1;
    next = { ...next, matches, expanded: open, selected: first >= 0 ? first : next.selected };
  }
  return next;
}
