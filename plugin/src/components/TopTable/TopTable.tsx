import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { memo, useMemo } from 'react';

import { TEST_IDS } from '../../constants';
import { firstItems, FunctionRow, OTHER_NAME } from '@hotpath/profile-core';

import { formatPercent, formatValue } from '../format';

/** "1.20 ms/req" for a tree divided by its requests, "1.20 s" otherwise */
const amount = (v: number, unit: string, perRequest: boolean) => `${formatValue(v, unit)}${perRequest ? '/req' : ''}`;

export type SortKey = 'name' | 'self' | 'total';
export interface Sort {
  key: SortKey;
  desc: boolean;
}

interface Props {
  rows: FunctionRow[];
  unit: string;
  /** the tree's values are per request (the window's total divided by its requests) */
  perRequest?: boolean;
  /** root total, for shares */
  total: number;
  sort: Sort;
  onSort: (sort: Sort) => void;
  onSelect: (name: string) => void;
  selected?: string;
  limit?: number;
}

/** The first `limit` rows in the table's order (a name breaks ties of a number column). */
export function sortRows(rows: FunctionRow[], sort: Sort, limit = rows.length): FunctionRow[] {
  const dir = sort.desc ? -1 : 1;
  const key = sort.key;
  const compare =
    key === 'name'
      ? (a: FunctionRow, b: FunctionRow) => (a.name < b.name ? -dir : a.name > b.name ? dir : 0)
      : (a: FunctionRow, b: FunctionRow) => (a[key] - b[key]) * dir || (a.name < b.name ? -1 : 1);
  return firstItems(rows, compare, limit);
}

/** Top functions: self and total aggregated by name; click a header to sort, a row to search it. */
export const TopTable = memo(function TopTable({ rows, unit, perRequest = false, total, sort, onSort, onSelect, selected, limit = 200 }: Props) {
  const styles = useStyles2(getStyles);
  const sorted = useMemo(() => sortRows(rows, sort, limit), [rows, sort, limit]);
  const header = (key: SortKey, label: string) => (
    <th
      className={styles.th}
      aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
      onClick={() => onSort({ key, desc: sort.key === key ? !sort.desc : key !== 'name' })}
    >
      {label}
      {sort.key === key ? (sort.desc ? ' ▾' : ' ▴') : ''}
    </th>
  );
  return (
    <table className={styles.table} data-testid={TEST_IDS.topTable}>
      <thead>
        <tr>
          {header('name', 'Function')}
          {header('self', 'Self')}
          {header('total', 'Total')}
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={r.name} className={cx(styles.row, selected === r.name && styles.selected)} onClick={() => onSelect(r.name)}>
            <td className={styles.name} title={r.name} data-folded={r.name === OTHER_NAME || undefined}>
              {r.name === OTHER_NAME ? <i>{r.name} (folded nodes: many functions)</i> : r.name}
            </td>
            <td className={styles.num}>
              {amount(r.self, unit, perRequest)} <span className={styles.share}>{formatPercent(total > 0 ? r.self / total : 0)}</span>
            </td>
            <td className={styles.num}>
              {amount(r.total, unit, perRequest)} <span className={styles.share}>{formatPercent(total > 0 ? r.total / total : 0)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
});

export const getTableStyles = (theme: GrafanaTheme2) => ({
  table: css({ width: '100%', borderCollapse: 'collapse', fontSize: theme.typography.bodySmall.fontSize, tableLayout: 'fixed' }),
  th: css({
    position: 'sticky',
    top: 0,
    background: theme.colors.background.secondary,
    textAlign: 'left',
    padding: theme.spacing(0.5, 1),
    cursor: 'pointer',
    userSelect: 'none',
    '&:first-child': { width: '55%' },
  }),
  row: css({ cursor: 'pointer', '&:hover': { background: theme.colors.action.hover } }),
  selected: css({ background: theme.colors.action.selected }),
  name: css({ padding: theme.spacing(0.25, 1), overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }),
  num: css({ padding: theme.spacing(0.25, 1), whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }),
  share: css({ color: theme.colors.text.secondary }),
  more: css({ color: theme.colors.success.text }),
  less: css({ color: theme.colors.error.text }),
});
const getStyles = getTableStyles;
