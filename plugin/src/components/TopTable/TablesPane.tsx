import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { FunctionRow, RequestCounts, Tree, UnitChangeRow, ValueUnit } from '@hotpath/profile-core';

import { ChangesTable } from './ChangesTable';
import { Sort, TopTable } from './TopTable';

interface Props {
  height: number;
  /** the diff the changes table reads (none for a profile: no changes table) */
  diff?: Tree;
  changes: UnitChangeRow[];
  topRows: FunctionRow[];
  unit: ValueUnit;
  /** the profile's unit (ns, bytes) */
  profileUnit: string;
  perRequest: boolean;
  /** the top table's root total, for shares */
  total: number;
  counts?: RequestCounts;
  sort: Sort;
  onSort: (sort: Sort) => void;
  onSelect: (name: string) => void;
  selected?: string;
}

/** The explorer's tables pane: for a diff the biggest changes, then the top functions. */
export function TablesPane({ height, diff, changes, topRows, unit, profileUnit, perRequest, total, counts, sort, onSort, onSelect, selected }: Props) {
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.tables} style={{ height, flex: 'none' }}>
      {diff && <ChangesTable rows={changes} unit={unit} profileUnit={profileUnit} onSelect={onSelect} selected={selected} diff={diff} requests={counts} />}
      <TopTable rows={topRows} unit={profileUnit} perRequest={perRequest} total={total} sort={sort} onSort={onSort} onSelect={onSelect} selected={selected} />
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  tables: css({ flex: 1, overflow: 'auto', contain: 'strict', marginTop: theme.spacing(0.5), display: 'flex', flexDirection: 'column', gap: theme.spacing(1) }),
});
