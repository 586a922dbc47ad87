import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { SeriesPath, SeriesReadout } from './useStripSeries';

interface Props {
  paths: SeriesPath[];
  /** the series' values at the hovered time (empty: nothing hovered) */
  readout: SeriesReadout[];
  hoverT: number | null;
  timeZone: string;
}

/** The legend at the strip's top right: each series' name, with its value and the time while hovered. */
export function StripLegend({ paths, readout, hoverT, timeZone }: Props) {
  const styles = useStyles2(getStyles);
  return (
    <div className={styles.legend}>
      {(hoverT !== null && readout.length ? readout : paths.map((p) => ({ name: p.name, text: '', color: p.color }))).map((r, i) => (
        <span key={i} className={styles.legendItem}>
          <span className={styles.swatch} style={{ background: r.color }} />
          {r.name}
          {r.text ? `: ${r.text}` : ''}
        </span>
      ))}
      {hoverT !== null && <span className={styles.legendItem}>{dateTimeFormat(hoverT, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' })}</span>}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  legend: css({
    position: 'absolute',
    top: 0,
    right: 4,
    display: 'flex',
    gap: theme.spacing(1),
    fontSize: 10,
    lineHeight: '12px',
    color: theme.colors.text.secondary,
    pointerEvents: 'none',
    maxWidth: '70%',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
  }),
  legendItem: css({ display: 'inline-flex', alignItems: 'center', gap: 3 }),
  swatch: css({ display: 'inline-block', width: 8, height: 2 }),
});
