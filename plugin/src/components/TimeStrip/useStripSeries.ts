import { formattedValueToString, getDisplayProcessor, GrafanaTheme2 } from '@grafana/data';
import { useMemo } from 'react';

import { linePath, StripSeries } from '../../windows/series';
import { Scale, toX } from '../../windows/strip';

import { STRIP_TOP } from './stripGeometry';

export interface SeriesPath {
  d: string;
  color: string;
  name: string;
}

export interface SeriesReadout {
  name: string;
  text: string;
  color?: string;
}

/** Each series' line, scaled to its own range, in its field's colour (else the palette's). */
export function useSeriesPaths(series: StripSeries[], scale: Scale, plotH: number, theme: GrafanaTheme2): SeriesPath[] {
  return useMemo(
    () =>
      series.map((s, i) => {
        const span = s.max - s.min;
        const y = (v: number) => STRIP_TOP + plotH - (span > 0 ? ((v - s.min) / span) * (plotH - 4) + 2 : plotH / 2);
        const color = theme.visualization.getColorByName(s.field.config?.color?.fixedColor ?? theme.visualization.palette[i % theme.visualization.palette.length]);
        return { d: linePath(s.times, s.values, s.step, (t) => toX(scale, t), y), color, name: s.name };
      }),
    [series, scale, plotH, theme]
  );
}

/** The value of each series at the hovered time, formatted by its field (none when nothing is hovered). */
export function useHoverReadout(hoverT: number | null, series: StripSeries[], theme: GrafanaTheme2, paths: SeriesPath[]): SeriesReadout[] {
  return useMemo(() => {
    if (hoverT === null) {
      return [];
    }
    return series.map((s, i) => {
      const v = valueAt(s, hoverT);
      let text = 'no data';
      if (Number.isFinite(v)) {
        try {
          const display = s.field.display ?? getDisplayProcessor({ field: s.field, theme });
          text = formattedValueToString(display(v));
        } catch {
          text = String(v);
        }
      }
      return { name: s.name, text, color: paths[i]?.color };
    });
  }, [hoverT, series, theme, paths]);
}

/** The series' value at t: its nearest point at or before t, within a step and a half (else NaN). */
function valueAt(s: StripSeries, t: number): number {
  let lo = 0;
  let hi = s.times.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s.times[mid] <= t) {
      at = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return at >= 0 && t - s.times[at] <= s.step * 1.5 ? s.values[at] : NaN;
}
