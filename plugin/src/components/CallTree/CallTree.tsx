import { cx } from '@emotion/css';
import { Button, useStyles2 } from '@grafana/ui';
import { memo } from 'react';

import { TEST_IDS } from '../../constants';
import { formatCount, hasChildren, isDiff, Tree, ValueUnit } from '@hotpath/profile-core';

import { CALL_TREE_HEADER, CALL_TREE_ROW, getCallTreeStyles } from './callTreeStyles';
import { CallTreeRow } from './CallTreeRow';
import { useCallTreeKeys } from './useCallTreeKeys';
import { useCallTreeState } from './useCallTreeState';
import { useCellText } from './useCellText';
import { useVirtualRows } from './useVirtualRows';

export { CALL_TREE_ROW } from './callTreeStyles';

const DEPTHS = [1, 2, 3, 5, 10];

interface Props {
  /** the profile with its own values (a diff carries both sides); per request divides them here */
  tree: Tree;
  width: number;
  height: number;
  /** the panel's unit: the diff column's */
  unit: ValueUnit;
  /** request counts of each side, for the per-request column */
  requests?: { left?: number; right?: number };
  /** the flame graph's focused node (0: none): the tree opens down to it and selects it */
  focus?: number;
  /** Enter (or a double click) on a row: focus the flame graph there */
  onFocus?: (node: number) => void;
  /** the search's matches, one flag per node: marked, and the tree opens down to them */
  matches?: Uint8Array;
  caption?: string;
}

/**
 * The call tree: the profile as an expandable table (function, total, self, per request, and
 * for a diff the change), heaviest children first. Virtualised: only the rows in view exist in
 * the DOM, and only the children of expanded nodes are ever computed (data/callTree.ts), so a
 * 1M-node profile opens as fast as a small one. A WAI-ARIA treegrid: arrows move and open,
 * Space toggles, Enter focuses the flame graph on the row. A search opens the tree down to its
 * matches and selects the first. The container: what is open and selected is
 * useCallTreeState's, the keys useCallTreeKeys', the scrolling useVirtualRows', each row a
 * CallTreeRow.
 */
export const CallTree = memo(function CallTree({ tree, width, height, unit, requests, focus = 0, onFocus, matches, caption }: Props) {
  const styles = useStyles2(getCallTreeStyles);
  const diff = isDiff(tree);
  const { expanded, selected, rows, selectedRow, update, toggle, expandTo } = useCallTreeState(tree, focus, matches);
  const bodyHeight = Math.max(CALL_TREE_ROW, height - CALL_TREE_HEADER - (caption ? 20 : 0) - 30);
  const { scroller, first, last, onScroll } = useVirtualRows(rows.length, CALL_TREE_ROW, bodyHeight, selectedRow);
  const page = Math.max(1, Math.floor(bodyHeight / CALL_TREE_ROW) - 1);
  const onKeyDown = useCallTreeKeys({ tree, rows, selectedRow, expanded, page, update, toggle, onFocus });
  const cells = useCellText(tree, unit, requests);
  const hasPerRequest = diff ? requests?.right !== undefined : requests?.left !== undefined;
  const columns = ['Function', diff ? 'Total (comparison)' : 'Total', diff ? 'Self (comparison)' : 'Self', 'Per request', ...(diff ? ['Change'] : [])];
  const grid = diff ? styles.gridDiff : styles.grid;
  const rowId = (n: number) => `hotpath-call-tree-${n}`;
  const onSelect = (n: number) => update({ selected: n });

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.callTree} data-rows={rows.length}>
      {caption && <div className={styles.caption}>{caption}</div>}
      <div className={styles.controls}>
        <span className={styles.muted}>Expand to depth</span>
        {DEPTHS.map((d) => (
          <Button key={d} size="sm" variant="secondary" fill="text" data-testid={TEST_IDS.callTreeDepth} data-depth={d} onClick={() => expandTo(d)}>
            {d}
          </Button>
        ))}
        <span className={styles.muted}>{formatCount(rows.length)} rows shown of {formatCount(tree.size)} nodes</span>
      </div>
      <div
        role="treegrid"
        aria-label={caption ?? 'Call tree'}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        aria-activedescendant={selectedRow >= 0 ? rowId(selected) : undefined}
        tabIndex={0}
        className={styles.grid_}
        onKeyDown={onKeyDown}
      >
        <div role="row" aria-rowindex={1} className={cx(grid, styles.header)} style={{ height: CALL_TREE_HEADER }}>
          {columns.map((c) => (
            <div key={c} role="columnheader" className={styles.cell}>
              {c}
            </div>
          ))}
        </div>
        <div ref={scroller} className={styles.body} style={{ height: bodyHeight }} onScroll={onScroll}>
          <div style={{ height: rows.length * CALL_TREE_ROW, position: 'relative' }}>
            {Array.from({ length: Math.max(0, last - first) }, (_, k) => {
              const n = rows[first + k];
              return (
                <CallTreeRow
                  key={n}
                  tree={tree}
                  node={n}
                  index={first + k}
                  id={rowId(n)}
                  open={hasChildren(tree, n) ? expanded.has(n) : null}
                  selected={n === selected}
                  focused={n === focus && focus > 0}
                  match={Boolean(matches?.[n])}
                  diff={diff}
                  grid={grid}
                  cells={cells(n)}
                  hasPerRequest={hasPerRequest}
                  onSelect={onSelect}
                  onToggle={toggle}
                  onFocus={onFocus}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
});
