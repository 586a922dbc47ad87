import { cx } from '@emotion/css';
import { useStyles2 } from '@grafana/ui';
import { memo, useMemo, useState } from 'react';

import { TEST_IDS } from '../../constants';
import { attributedChanges, deltaIn, RequestCounts, Tree, UnitChangeRow, VALUE_UNITS, ValueUnit } from '@hotpath/profile-core';

import { formatDeltaIn, formatIn, UNIT_LABELS } from '../format';
import { getTableStyles } from './TopTable';

interface Props {
  /** the service's code first, each part ranked by |delta| in `unit` (changesByUnit) */
  rows: UnitChangeRow[];
  /** the unit the table ranks by and shows the two sides in */
  unit: ValueUnit;
  /** the profile's unit (ns, bytes) */
  profileUnit: string;
  onSelect: (name: string) => void;
  selected?: string;
  limit?: number;
  /**
   * The diff tree the rows come from (and the request counts they used): with it, a toggle
   * charges runtime, libc and allocator/syscall time to the calling code (data/attribution.ts).
   */
  diff?: Tree;
  requests?: RequestCounts;
}

/** every unit, per request first */
const DELTA_COLUMNS: readonly ValueUnit[] = VALUE_UNITS;
/** without request counts there is no per-request column (the panel says why above the table) */
const columnsFor = (rows: UnitChangeRow[]) => (rows.some((r) => r.perRequestDelta !== undefined) ? DELTA_COLUMNS : DELTA_COLUMNS.slice(1));

/**
 * "Biggest changes": functions ranked by the change of their self value in the panel's unit,
 * comparison minus baseline, the service's code first (a runtime's own work and the profiler's
 * after it), with the change in every unit alongside (per request, absolute, share), so load and
 * efficiency can be told apart per function. Only flagged changes are coloured (see changesByUnit).
 */
export const ChangesTable = memo(function ChangesTable({ rows: plain, unit, profileUnit, onSelect, selected, limit = 100, diff, requests }: Props) {
  const styles = useStyles2(getTableStyles);
  const [attribute, setAttribute] = useState(false);
  const attributed = useMemo(() => (attribute && diff ? attributedChanges(diff, unit, unit === 'per-request' ? requests : undefined) : undefined), [attribute, diff, unit, requests]);
  const rows = attributed?.rows ?? plain;
  const columns = columnsFor(rows);
  const side = (r: UnitChangeRow, right: boolean) => {
    if (unit === 'per-request' && r.baselinePerRequest !== undefined) {
      return formatIn(unit, right ? r.comparisonPerRequest! : r.baselinePerRequest, 1, profileUnit);
    }
    if (unit === 'absolute') {
      return formatIn(unit, right ? r.comparisonSelf : r.baselineSelf, 1, profileUnit);
    }
    return formatIn('share', right ? r.comparisonSelfShare : r.baselineSelfShare, 1, profileUnit);
  };
  return (
    <>
      {diff && (
        <label title="Charge self time in the runtime, libc or an allocator/syscall path to the nearest calling function">
          <input type="checkbox" checked={attribute} onChange={(e) => setAttribute(e.currentTarget.checked)} data-testid={TEST_IDS.attributionToggle} /> Charge runtime time to the calling code
        </label>
      )}
      <table className={styles.table} data-testid={TEST_IDS.changesTable} data-unit={unit} data-attributed={Boolean(attributed)}>
        <thead>
          <tr>
            {/* six columns: the name gets less of the width than in the top table */}
            <th className={styles.th} style={{ width: '34%' }}>
              Function (biggest changes)
            </th>
            <th className={styles.th}>Baseline self</th>
            <th className={styles.th}>Comparison self</th>
            {columns.map((c) => (
              <th key={c} className={cx(styles.th, c === unit && styles.selected)} data-col={c}>
                {UNIT_LABELS[c]} Δ
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, limit).map((r) => (
            <tr key={r.name} className={cx(styles.row, selected === r.name && styles.selected)} onClick={() => onSelect(r.name)} data-flagged={r.flagged}>
              <td className={styles.name} title={r.name}>
                {r.name}
                {attributed?.via.has(r.name) && <span data-testid={TEST_IDS.attributionVia}> (via {attributed.via.get(r.name)})</span>}
              </td>
              <td className={styles.num}>{side(r, false)}</td>
              <td className={styles.num}>{side(r, true)}</td>
              {columns.map((c) => {
                const missing = c === 'per-request' && r.perRequestDelta === undefined;
                const d = deltaIn(r, c);
                const flag = r.flagged && c === unit;
                return (
                  <td key={c} data-col={c} className={cx(styles.num, flag && (d > 0 ? styles.less : d < 0 ? styles.more : undefined))}>
                    {missing ? '—' : formatDeltaIn(c, d, profileUnit)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
});
