import { useMemo } from 'react';

import { changesByUnit, checkCount, functionRows, isDiff, perRequestTree, Tree, ValueUnit } from '@hotpath/profile-core';

interface Options {
  tree: Tree;
  /** the tree the tables read (the unfolded or more complete profile) */
  tableTree: Tree;
  unit: ValueUnit;
  requests?: { left?: number; right?: number };
  /** a table pane is shown: only then are the tables' rows computed */
  showTable: boolean;
}

/**
 * What the explorer's views show, in which unit. Per request: every view draws the tree divided
 * by its window's requests (same shape); without the counts it needs, share. The tables read
 * tableTree in the same unit as the views.
 */
export function useShownTrees({ tree, tableTree, unit, requests, showTable }: Options) {
  const diff = isDiff(tree);
  const left = requests?.left;
  const right = requests?.right;
  const perRequest = unit === 'per-request' && left !== undefined && (!diff || right !== undefined);
  const valueUnit: ValueUnit = unit === 'per-request' && !perRequest ? 'share' : unit;
  const shown = useMemo(() => (perRequest ? perRequestTree(tree, left!, right) : tree), [tree, perRequest, left, right]);
  const basis = valueUnit === 'share' ? 'share' : 'value';
  const tableShown = useMemo(() => (tableTree === tree ? shown : perRequest ? perRequestTree(tableTree, left!, right) : tableTree), [tableTree, tree, shown, perRequest, left, right]);
  const topRows = useMemo(() => (showTable ? functionRows(tableShown) : []), [tableShown, showTable]);
  const counts = useMemo(() => (perRequest ? { baseline: checkCount(left), comparison: checkCount(right) } : undefined), [perRequest, left, right]);
  const changes = useMemo(() => (showTable && diff ? changesByUnit(tableTree, valueUnit, counts) : []), [tableTree, showTable, diff, valueUnit, counts]);
  const treeRequests = useMemo(() => ({ left, right }), [left, right]);
  return { perRequest, valueUnit, basis, shown, tableShown, topRows, counts, changes, treeRequests } as const;
}
