import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { useMemo } from 'react';

import { TEST_IDS } from '../../constants';
import { ValueUnit } from '@hotpath/profile-core';
import { diffPalette, DiffScheme } from '../../render/colors';

interface Props {
  scheme: DiffScheme;
  /** what "more" is measured in */
  unit: ValueUnit;
}

/** A diff's colour legend: less in the comparison at the left, more at the right. */
export function DiffLegend({ scheme, unit }: Props) {
  const styles = useStyles2(getStyles);
  const palette = useMemo(() => diffPalette(scheme), [scheme]);
  return (
    <div className={styles.legend} data-testid={TEST_IDS.legend}>
      <span>less in comparison</span>
      <span className={styles.gradient} style={{ background: `linear-gradient(90deg, ${palette[0]}, ${palette[Math.floor(palette.length / 2)]}, ${palette[palette.length - 1]})` }} />
      <span>more in comparison ({unit === 'share' ? "share of each side's total" : unit === 'per-request' ? 'per request' : 'absolute'})</span>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  legend: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(1), height: 20, fontSize: theme.typography.bodySmall.fontSize, color: theme.colors.text.secondary }),
  gradient: css({ width: 120, height: 10, borderRadius: 2 }),
});
