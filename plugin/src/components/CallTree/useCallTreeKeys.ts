import { KeyboardEvent } from 'react';

import { hasChildren, Tree } from '@hotpath/profile-core';

import { CallTreePatch } from './useCallTreeState';

interface Options {
  tree: Tree;
  /** the visible rows' nodes, top to bottom */
  rows: Int32Array;
  /** the selected node's row (-1: not visible) */
  selectedRow: number;
  expanded: Set<number>;
  /** rows in a page (PageUp, PageDown) */
  page: number;
  update: (patch: CallTreePatch) => void;
  toggle: (node: number, open?: boolean) => void;
  onFocus?: (node: number) => void;
}

/**
 * The treegrid's keys (WAI-ARIA): arrows move, Right opens (then steps in), Left closes (then
 * steps to the parent), Home/End/PageUp/PageDown jump, Space toggles, Enter focuses the flame
 * graph on the row. Other keys are left to the page.
 */
export function useCallTreeKeys({ tree, rows, selectedRow, expanded, page, update, toggle, onFocus }: Options) {
  return (e: KeyboardEvent<HTMLDivElement>) => {
    const row = Math.max(0, selectedRow);
    const go = (r: number) => update({ selected: rows[Math.min(rows.length - 1, Math.max(0, r))] });
    const node = rows[row];
    switch (e.key) {
      case 'ArrowDown':
        go(row + 1);
        break;
      case 'ArrowUp':
        go(row - 1);
        break;
      case 'PageDown':
        go(row + page);
        break;
      case 'PageUp':
        go(row - page);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'ArrowRight':
        if (hasChildren(tree, node) && !expanded.has(node)) {
          toggle(node, true);
        } else if (expanded.has(node)) {
          go(row + 1);
        }
        break;
      case 'ArrowLeft':
        if (expanded.has(node)) {
          toggle(node, false);
        } else if (node > 0) {
          update({ selected: tree.parent[node] });
        }
        break;
      case ' ':
        toggle(node);
        break;
      case 'Enter':
        onFocus?.(node);
        break;
      default:
        return;
    }
    e.preventDefault();
  };
}
