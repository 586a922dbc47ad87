import { css } from '@emotion/css';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { memo, useMemo } from 'react';

import { TEST_IDS } from '../../constants';
import { StripData } from '../../windows/series';
import { Scale, toT } from '../../windows/strip';
import { Baseline, TimeWindow } from '@hotpath/profile-core';
import { DiffScheme } from '../../render/colors';

import { StripAxis } from './StripAxis';
import { StripLegend } from './StripLegend';
import { StripAnnotations, StripAnomalies } from './StripMarks';
import { StripNotices } from './StripNotices';
import { StripWindow } from './StripWindow';
import { STRIP_BOTTOM, STRIP_TOP } from './stripGeometry';
import { useStripDrag } from './useStripDrag';
import { useHoverReadout, useSeriesPaths } from './useStripSeries';

export interface WindowColors {
  selection: string;
  baseline: string;
  anomaly: string;
}

/** Window colours per scheme: orange/blue are told apart by every common colour-vision type. */
export function windowColors(scheme: DiffScheme): WindowColors {
  return scheme === 'colorblind'
    ? { selection: '#FF9830', baseline: '#5794F2', anomaly: '#B877D9' }
    : { selection: '#FF9830', baseline: '#5794F2', anomaly: '#F2495C' };
}

interface Props {
  width: number;
  height: number;
  /** the dashboard range: the strip's x axis */
  range: TimeWindow;
  data: StripData;
  /** anomaly windows for click-to-select (anomalies and annotation regions) */
  anomalyWindows: TimeWindow[];
  selection: TimeWindow | null;
  baseline: Baseline | null;
  scheme: DiffScheme;
  timeZone: string;
  onSelect: (w: TimeWindow) => void;
  onBaseline: (w: TimeWindow) => void;
}

/**
 * The time-series strip above the flame graph: the panel's series (each scaled to its own
 * range), anomaly windows, annotations, and the two windows. Drag to select the comparison
 * window, Shift-drag for the baseline, drag a window's edge or body to adjust it, click an
 * anomaly to select it. The container: the pointer is useStripDrag's, the lines and readout
 * useStripSeries', and each layer of the picture a child of its own.
 */
export const TimeStrip = memo(function TimeStrip(props: Props) {
  const { width, height, range, data, selection, baseline, scheme, timeZone } = props;
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const colors = windowColors(scheme);
  const plotH = Math.max(10, height - STRIP_TOP - STRIP_BOTTOM);
  const scale: Scale = useMemo(() => ({ domain: range, width: Math.max(1, width) }), [range, width]);
  const pointer = useStripDrag({
    scale,
    selection,
    baseline: baseline?.window ?? null,
    anomalyWindows: props.anomalyWindows,
    onSelect: props.onSelect,
    onBaseline: props.onBaseline,
  });
  const { hoverX, dragging, shownSelection, shownBaseline } = pointer;
  const paths = useSeriesPaths(data.series, scale, plotH, theme);
  const hoverT = hoverX !== null ? toT(scale, hoverX) : null;
  const readout = useHoverReadout(hoverT, data.series, theme, paths);
  const geometry = { scale, width, plotH };

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.strip}>
      <svg width={width} height={height} className={styles.svg} style={{ cursor: pointer.cursor }}>
        <StripAnnotations annotations={data.annotations} {...geometry} />
        <StripAnomalies anomalies={data.anomalies} color={colors.anomaly} {...geometry} />
        {paths.map((p, i) => (
          <path key={`s${i}`} d={p.d} fill="none" stroke={p.color} strokeWidth={1.25} />
        ))}
        <StripWindow window={shownBaseline} color={colors.baseline} label="baseline" testId={TEST_IDS.baseline} {...geometry} />
        <StripWindow window={shownSelection} color={colors.selection} label="comparison" testId={TEST_IDS.selection} {...geometry} />
        <StripAxis height={height} timeZone={timeZone} {...geometry} />
        {hoverX !== null && !dragging && <line x1={hoverX} x2={hoverX} y1={STRIP_TOP} y2={STRIP_TOP + plotH} stroke={theme.colors.text.disabled} />}
        <rect
          ref={pointer.areaRef}
          data-testid={TEST_IDS.stripArea}
          data-from={range.from}
          data-to={range.to}
          x={0}
          y={0}
          width={width}
          height={height}
          fill="transparent"
          onMouseDown={pointer.onMouseDown}
          onMouseMove={pointer.onMouseMove}
          onMouseLeave={pointer.onMouseLeave}
        />
      </svg>
      <StripLegend paths={paths} readout={readout} hoverT={hoverT} timeZone={timeZone} />
      <StripNotices data={data} range={range} windows={dragging ? null : { selection: shownSelection, baseline: shownBaseline }} timeZone={timeZone} />
    </div>
  );
});

const getStyles = () => ({
  wrap: css({ position: 'relative', flexShrink: 0, userSelect: 'none' }),
  svg: css({ display: 'block' }),
});
