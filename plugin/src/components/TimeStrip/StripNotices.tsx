import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { StripData } from '../../windows/series';
import { formatDuration, placement, TimeWindow } from '@hotpath/profile-core';

import { STRIP_BOTTOM } from './stripGeometry';

interface Props {
  data: StripData;
  /** the dashboard range */
  range: TimeWindow;
  /** the windows as shown; null while a drag lasts (a window off the strip is said only at rest) */
  windows: { selection: TimeWindow | null; baseline: TimeWindow | null } | null;
  timeZone: string;
}

/** What the strip cannot draw, said at its bottom left: no series, the data's notices, a window off the strip. */
export function StripNotices({ data, range, windows, timeZone }: Props) {
  const styles = useStyles2(getStyles);
  const offStrip = windows ? offStripNotices(windows.selection, windows.baseline, range, timeZone) : [];
  if (!(offStrip.length > 0 || data.notices.length > 0 || data.series.length === 0)) {
    return null;
  }
  return (
    <div className={styles.notices}>
      {data.series.length === 0 && <div data-testid={TEST_IDS.stripNotice}>No time series to draw: drag still selects a window of the dashboard range.</div>}
      {data.notices.map((n) => (
        <div key={n} data-testid={TEST_IDS.stripNotice}>
          {n}
        </div>
      ))}
      {offStrip.map((n) => (
        <div key={n} data-testid={TEST_IDS.offStrip}>
          {n}
        </div>
      ))}
    </div>
  );
}

/** A line for each window before or after the dashboard range, the baseline's first. */
function offStripNotices(selection: TimeWindow | null, baseline: TimeWindow | null, range: TimeWindow, timeZone: string): string[] {
  const out: string[] = [];
  if (baseline) {
    const p = placement(baseline, range);
    if (p === 'before' || p === 'after') {
      out.push(
        `${p === 'before' ? '◀' : '▶'} baseline ${dateTimeFormat(baseline.from, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' })} (${formatDuration(baseline.to - baseline.from)}) is ${p === 'before' ? 'before' : 'after'} the dashboard range`
      );
    }
  }
  if (selection) {
    const p = placement(selection, range);
    if (p === 'before' || p === 'after') {
      out.push(`${p === 'before' ? '◀' : '▶'} the selected window ${dateTimeFormat(selection.from, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' })} is outside the dashboard range`);
    }
  }
  return out;
}

const getStyles = (theme: GrafanaTheme2) => ({
  notices: css({
    position: 'absolute',
    left: 4,
    bottom: STRIP_BOTTOM + 2,
    fontSize: 11,
    color: theme.colors.warning.text,
    pointerEvents: 'none',
    background: theme.colors.background.primary,
    opacity: 0.9,
    padding: '0 4px',
  }),
});
