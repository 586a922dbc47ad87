import { cx } from '@emotion/css';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { nodeName, Tree } from '@hotpath/profile-core';

import { CALL_TREE_ROW, getCallTreeStyles } from './callTreeStyles';
import { CellText } from './useCellText';

interface Props {
  tree: Tree;
  node: number;
  /** its index among the visible rows: places it in the virtualised list */
  index: number;
  /** the row's id (aria-activedescendant points at the selected one) */
  id: string;
  /** null for a leaf */
  open: boolean | null;
  selected: boolean;
  focused: boolean;
  match: boolean;
  diff: boolean;
  /** the row's grid: the columns of a profile or of a diff */
  grid: string;
  cells: CellText;
  hasPerRequest: boolean;
  onSelect: (node: number) => void;
  onToggle: (node: number) => void;
  onFocus?: (node: number) => void;
}

/** One row of the call tree: the function indented by depth with its chevron, then its values. */
export function CallTreeRow(props: Props) {
  const { tree, node: n, index: r, open, cells: c } = props;
  const styles = useStyles2(getCallTreeStyles);
  const depth = tree.level[n];
  return (
    <div
      id={props.id}
      role="row"
      aria-rowindex={r + 2}
      aria-level={depth + 1}
      aria-expanded={open ?? undefined}
      aria-selected={props.selected}
      data-testid={TEST_IDS.callTreeRow}
      data-node={n}
      data-match={props.match ? 'true' : undefined}
      className={cx(props.grid, styles.row, props.selected && styles.selected, props.focused && styles.focused)}
      style={{ top: r * CALL_TREE_ROW, height: CALL_TREE_ROW }}
      onClick={() => props.onSelect(n)}
      onDoubleClick={() => props.onFocus?.(n)}
    >
      <div role="gridcell" className={styles.cell} style={{ paddingLeft: 4 + depth * 14 }} title={nodeName(tree, n)}>
        <span
          className={styles.chevron}
          onClick={(e) => {
            e.stopPropagation();
            props.onToggle(n);
          }}
        >
          {open === null ? '' : open ? '▾' : '▸'}
        </span>
        <span className={props.match ? styles.match : undefined}>{nodeName(tree, n)}</span>
      </div>
      <div role="gridcell" className={styles.cell}>
        {c.total}
      </div>
      <div role="gridcell" className={styles.cell}>
        {c.self}
      </div>
      <div role="gridcell" className={styles.cell}>
        {props.hasPerRequest ? c.perRequest : '—'}
      </div>
      {props.diff && (
        <div role="gridcell" className={cx(styles.cell, c.delta > 0 ? styles.more : c.delta < 0 ? styles.less : undefined)}>
          {c.change}
        </div>
      )}
    </div>
  );
}
