import { cx } from '@emotion/css';
import { useStyles2 } from '@grafana/ui';
import { memo } from 'react';

import { TEST_IDS } from '../constants';
import { ChangeRow } from '../data/ops';

import { formatDelta, formatPercent } from './format';
import { getTableStyles } from './TopTable';

interface Props {
  rows: ChangeRow[];
  onSelect: (name: string) => void;
  selected?: string;
  limit?: number;
}

/** "Biggest changes": functions ranked by the change of their self share, comparison minus baseline. */
export const ChangesTable = memo(function ChangesTable({ rows, onSelect, selected, limit = 100 }: Props) {
  const styles = useStyles2(getTableStyles);
  return (
    <table className={styles.table} data-testid={TEST_IDS.changesTable}>
      <thead>
        <tr>
          <th className={styles.th}>Function (biggest changes)</th>
          <th className={styles.th}>Baseline self</th>
          <th className={styles.th}>Comparison self</th>
          <th className={styles.th}>Change</th>
        </tr>
      </thead>
      <tbody>
        {rows.slice(0, limit).map((r) => (
          <tr key={r.name} className={cx(styles.row, selected === r.name && styles.selected)} onClick={() => onSelect(r.name)}>
            <td className={styles.name} title={r.name}>
              {r.name}
            </td>
            <td className={styles.num}>{formatPercent(r.baselineSelfShare)}</td>
            <td className={styles.num}>{formatPercent(r.comparisonSelfShare)}</td>
            <td className={cx(styles.num, r.delta > 0 ? styles.less : r.delta < 0 ? styles.more : undefined)}>
              {formatDelta(r.delta)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
});
