import { DiffBasis, maxLevelOf, Tree, weightOf } from '@hotpath/profile-core';

import type { GraphMode } from '../components/types';

/**
 * Horizontal layout of a tree: each node's start and width in weight units (its total; for a
 * diff the sum of both sides' shares). Computed once per tree in O(n); everything after that
 * (drawing, hit testing, zoom) only looks at the nodes that are visible.
 */
export interface Layout {
  tree: Tree;
  weight: Float64Array;
  start: Float64Array;
  maxLevel: number;
  /** what a diff's widths and colours compare: shares, or values (per request, absolute) */
  basis: DiffBasis;
}

export function computeLayout(tree: Tree, basis: DiffBasis = 'share'): Layout {
  const weight = weightOf(tree, basis);
  const start = new Float64Array(tree.size);
  const maxLevel = maxLevelOf(tree);
  const next = new Float64Array(maxLevel + 2);
  // the columns in locals: a first render runs this loop in V8's baseline tier, which looks a
  // property up at every use
  const { size, level } = tree;
  for (let i = 0; i < size; i++) {
    const l = level[i];
    const s = next[l];
    start[i] = s;
    next[l] = s + weight[i];
    next[l + 1] = s;
  }
  return { tree, weight, start, maxLevel, basis };
}

/**
 * What is on screen: the focused node spans the width; its ancestors stay above it, full width.
 * The canvas is a window of `height` pixels onto the graph's rows (`contentHeight`, all of them),
 * scrolled to `top`: however deep the profile, the canvas (and its cost) is the window's size.
 */
export interface View {
  focus: number;
  width: number;
  /** the canvas: the visible window */
  height: number;
  rowHeight: number;
  mode: GraphMode;
  /** height of all rows (default: the window's height, nothing to scroll) */
  contentHeight?: number;
  /** the window's top within the content (default 0) */
  top?: number;
}

export const ROW_HEIGHT = 20;
/** nodes narrower than this many pixels are not drawn, nor is anything below them */
export const MIN_NODE_PX = 0.75;

export function rowsNeeded(layout: Layout, focus: number): number {
  const tree = layout.tree;
  if (focus === 0) {
    return tree.size > 0 ? layout.maxLevel + 1 : 1; // the root's subtree is the tree
  }
  let deepest = tree.level[focus] ?? 0;
  const end = tree.end[focus] ?? 0;
  for (let i = focus; i < end; i++) {
    if (tree.level[i] > deepest) {
      deepest = tree.level[i];
    }
  }
  return deepest + 1;
}

/** y of the top of a row in the window, for both modes (flame: root at the bottom of the content). */
export function rowY(view: View, row: number): number {
  const top = view.top ?? 0;
  return view.mode === 'icicle' ? row * view.rowHeight - top : (view.contentHeight ?? view.height) - (row + 1) * view.rowHeight - top;
}

/** The row at y in the window. */
export function rowAt(view: View, y: number): number {
  const cy = y + (view.top ?? 0);
  return view.mode === 'icicle' ? Math.floor(cy / view.rowHeight) : Math.floor(((view.contentHeight ?? view.height) - cy) / view.rowHeight);
}

/**
 * The rows the window shows, [lo, hi): rows from hi on are out of sight with everything below
 * them (deeper rows lie further the same way in both modes); rows before lo are scrolled past.
 */
export function visibleRows(view: View): [number, number] {
  const rh = view.rowHeight;
  const top = view.top ?? 0;
  if (view.mode === 'icicle') {
    return [Math.max(0, Math.floor(top / rh)), Math.ceil((top + view.height) / rh)];
  }
  const content = view.contentHeight ?? view.height;
  return [Math.max(0, Math.floor((content - top - view.height) / rh)), Math.ceil((content - top) / rh)];
}

/** Pixel rectangle of node i under the view, or undefined when i is not in the focused branch. */
export function nodeRect(layout: Layout, view: View, i: number): { x: number; y: number; w: number; h: number } | undefined {
  const tree = layout.tree;
  const f = view.focus;
  const y = rowY(view, tree.level[i]);
  if (i < f || i >= tree.end[f]) {
    // an ancestor of the focus spans the full width
    for (let a = tree.parent[f]; a >= 0; a = tree.parent[a]) {
      if (a === i) {
        return { x: 0, y, w: view.width, h: view.rowHeight };
      }
    }
    return undefined;
  }
  const scale = view.width / (layout.weight[f] || 1);
  return { x: (layout.start[i] - layout.start[f]) * scale, y, w: layout.weight[i] * scale, h: view.rowHeight };
}

/**
 * The node under (x, y), or -1. Walks from the focus down the rows, picking the child that
 * contains x at each level: O(depth x fan-out), independent of the profile's size.
 */
export function hitTest(layout: Layout, view: View, x: number, y: number): number {
  const tree = layout.tree;
  if (tree.size === 0 || x < 0 || x > view.width || y < 0 || y > view.height) {
    return -1;
  }
  const row = rowAt(view, y);
  const f = view.focus;
  const fl = tree.level[f];
  if (row < 0) {
    return -1;
  }
  if (row < fl) {
    let a = f;
    while (a >= 0 && tree.level[a] > row) {
      a = tree.parent[a];
    }
    return a;
  }
  const scale = view.width / (layout.weight[f] || 1);
  const wx = layout.start[f] + x / scale;
  let node = f;
  for (let level = fl; level < row; level++) {
    let found = -1;
    const end = tree.end[node];
    for (let c = node + 1; c < end; c = tree.end[c]) {
      if (wx >= layout.start[c] && wx < layout.start[c] + layout.weight[c]) {
        found = c;
        break;
      }
      if (layout.start[c] > wx) {
        break;
      }
    }
    if (found < 0) {
      return -1;
    }
    node = found;
  }
  return layout.weight[node] * scale >= MIN_NODE_PX ? node : -1;
}
