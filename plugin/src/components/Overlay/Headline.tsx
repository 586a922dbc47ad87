import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { DecompositionResult, headline, OTHER_NAME, UnitChangeRow, ValueUnit } from '@hotpath/profile-core';

import { formatDeltaIn, formatValue } from '../format';

interface Props {
  decomposition: DecompositionResult;
  profileUnit: string;
  /** the changes table's rows (ranked in `unit`), for the function that leads the change */
  rows: UnitChangeRow[];
  unit: ValueUnit;
}

/**
 * Above the diff: how the change of the total splits into load and per request, in one line
 * (`CPU +180% = load +20% × per request +133%`), and which function leads it. Without request
 * counts it says why there is no split.
 */
export function Headline({ decomposition: d, profileUnit, rows, unit }: Props) {
  const styles = useStyles2(getStyles);
  if (!d.ok) {
    return (
      <div className={styles.line} data-testid={TEST_IDS.headline} data-driver="unknown">
        <span className={styles.muted}>No load vs per-request split: {d.message}</span>
      </div>
    );
  }
  // "other" is what Pyroscope (or the panel) folded away, many functions: never the one that leads
  const flagged = rows.filter((r) => r.flagged && r.name !== OTHER_NAME);
  const lead = flagged[0];
  return (
    <div className={styles.line} data-testid={TEST_IDS.headline} data-driver={d.driver} data-total-ratio={d.totalRatio} data-load-ratio={d.loadRatio} data-per-request-ratio={d.perRequestRatio}>
      <b>{headline(d, profileUnit)}</b>
      <span className={styles.muted}>
        {' '}
        ({formatValue(d.baselinePerRequest, profileUnit)}/req → {formatValue(d.comparisonPerRequest, profileUnit)}/req).{' '}
        {lead
          ? `Led by ${lead.name} (${formatDeltaIn(unit, unit === 'per-request' ? lead.perRequestDelta ?? 0 : unit === 'share' ? lead.shareDelta : lead.absoluteDelta, profileUnit)}); ${flagged.length} function${flagged.length === 1 ? '' : 's'} flagged.`
          : 'No function flagged.'}
      </span>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  line: css({ height: 22, lineHeight: '22px', fontSize: theme.typography.bodySmall.fontSize, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
  muted: css({ color: theme.colors.text.secondary }),
});
