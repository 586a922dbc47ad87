import { css } from '@emotion/css';
import { dateTimeFormat, formattedValueToString, getDisplayProcessor, GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';

import { TEST_IDS } from '../../constants';
import { linePath, StripData } from '../../windows/series';
import { anomalyAt, dragResult, Grab, grabAt, Scale, timeTicks, toT, toX } from '../../windows/strip';
import { Baseline, formatDuration, placement, TimeWindow } from '@hotpath/profile-core';
import { DiffScheme } from '../../render/colors';

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

const TOP = 14;
const BOTTOM = 16;

interface DragState {
  grab: Grab;
  x0: number;
  x1: number;
  original?: TimeWindow | null;
}

/**
 * The time-series strip above the flame graph: the panel's series (each scaled to its own
 * range), anomaly windows, annotations, and the two windows. Drag to select the comparison
 * window, Shift-drag for the baseline, drag a window's edge or body to adjust it, click an
 * anomaly to select it.
 */
export const TimeStrip = memo(function TimeStrip(props: Props) {
  const { width, height, range, data, selection, baseline, scheme, timeZone } = props;
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const colors = windowColors(scheme);
  const areaRef = useRef<SVGRectElement>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  const [hoverX, setHoverX] = useState<number | null>(null);
  const [cursor, setCursor] = useState('crosshair');
  const plotH = Math.max(10, height - TOP - BOTTOM);
  const scale: Scale = useMemo(() => ({ domain: range, width: Math.max(1, width) }), [range, width]);
  const baselineWindow = baseline?.window ?? null;

  const xOf = useCallback((clientX: number) => {
    const r = areaRef.current?.getBoundingClientRect();
    return r ? clientX - r.left : 0;
  }, []);

  // the window being dragged replaces its committed one while the drag lasts
  const live = drag ? dragResult(drag.grab, drag.x0, drag.x1, scale, drag.original) : null;
  const shownSelection = drag && drag.grab.target === 'selection' ? live ?? (drag.grab.kind === 'new' ? null : selection) : selection;
  const shownBaseline = drag && drag.grab.target === 'baseline' ? live ?? (drag.grab.kind === 'new' ? null : baselineWindow) : baselineWindow;

  const dragRef = useRef<DragState | null>(null);
  dragRef.current = drag;
  const propsRef = useRef(props);
  propsRef.current = props;

  useEffect(() => {
    if (!drag) {
      return;
    }
    const move = (e: MouseEvent) => {
      const d = dragRef.current;
      if (d) {
        setDrag({ ...d, x1: xOf(e.clientX) });
      }
    };
    const up = (e: MouseEvent) => {
      const d = dragRef.current;
      setDrag(null);
      if (!d) {
        return;
      }
      const x1 = xOf(e.clientX);
      const w = dragResult(d.grab, d.x0, x1, scale, d.original);
      const p = propsRef.current;
      if (w) {
        (d.grab.target === 'baseline' ? p.onBaseline : p.onSelect)(w);
      } else if (d.grab.kind === 'new' && d.grab.target === 'selection') {
        const a = anomalyAt(x1, scale, p.anomalyWindows);
        if (a) {
          p.onSelect(a);
        }
      }
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
    return () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
    };
    // one listener pair per drag (drag is set once at mousedown; moves update through the ref)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drag !== null, scale, xOf]);

  const onMouseDown = (e: React.MouseEvent) => {
    if (e.button !== 0) {
      return;
    }
    e.preventDefault();
    const x = xOf(e.clientX);
    const grab = grabAt(x, scale, { selection, baseline: baselineWindow }, e.shiftKey);
    setDrag({ grab, x0: x, x1: x, original: grab.target === 'selection' ? selection : baselineWindow });
  };

  const onMouseMove = (e: React.MouseEvent) => {
    const x = xOf(e.clientX);
    setHoverX(x);
    if (!drag) {
      const g = grabAt(x, scale, { selection, baseline: baselineWindow }, e.shiftKey);
      setCursor(g.kind === 'resize' ? 'ew-resize' : g.kind === 'move' ? 'grab' : 'crosshair');
    }
  };

  const paths = useMemo(
    () =>
      data.series.map((s, i) => {
        const span = s.max - s.min;
        const y = (v: number) => TOP + plotH - (span > 0 ? ((v - s.min) / span) * (plotH - 4) + 2 : plotH / 2);
        const color = theme.visualization.getColorByName(s.field.config?.color?.fixedColor ?? theme.visualization.palette[i % theme.visualization.palette.length]);
        return { d: linePath(s.times, s.values, s.step, (t) => toX(scale, t), y), color, name: s.name };
      }),
    [data.series, scale, plotH, theme]
  );

  const ticks = useMemo(() => timeTicks(scale), [scale]);
  const span = range.to - range.from;
  const tickFormat = span > 2 * 86400000 ? 'MM-DD HH:mm' : span > 600000 ? 'HH:mm' : 'HH:mm:ss';

  const hoverT = hoverX !== null ? toT(scale, hoverX) : null;
  const readout = useMemo(() => {
    if (hoverT === null) {
      return [];
    }
    return data.series.map((s, i) => {
      // nearest point at or before the cursor, within a step and a half
      let lo = 0;
      let hi = s.times.length - 1;
      let at = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (s.times[mid] <= hoverT) {
          at = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      const v = at >= 0 && hoverT - s.times[at] <= s.step * 1.5 ? s.values[at] : NaN;
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
  }, [hoverT, data.series, theme, paths]);

  const rect = (w: TimeWindow) => {
    const a = Math.max(-2, toX(scale, w.from));
    const b = Math.min(width + 2, toX(scale, w.to));
    return { x: a, w: Math.max(0, b - a) };
  };

  const offStrip: string[] = [];
  if (shownBaseline && !drag) {
    const p = placement(shownBaseline, range);
    if (p === 'before' || p === 'after') {
      offStrip.push(
        `${p === 'before' ? '◀' : '▶'} baseline ${dateTimeFormat(shownBaseline.from, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' })} (${formatDuration(shownBaseline.to - shownBaseline.from)}) is ${p === 'before' ? 'before' : 'after'} the dashboard range`
      );
    }
  }
  if (shownSelection && !drag) {
    const p = placement(shownSelection, range);
    if (p === 'before' || p === 'after') {
      offStrip.push(`${p === 'before' ? '◀' : '▶'} the selected window ${dateTimeFormat(shownSelection.from, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' })} is outside the dashboard range`);
    }
  }

  const windowRect = (w: TimeWindow | null, color: string, label: string, testId: string) => {
    if (!w) {
      return null;
    }
    const r = rect(w);
    if (r.w <= 0) {
      return null;
    }
    return (
      <g data-testid={testId} data-from={w.from} data-to={w.to}>
        <rect x={r.x} y={TOP} width={r.w} height={plotH} fill={color} fillOpacity={0.22} stroke={color} strokeWidth={1.5} />
        <rect x={r.x - 1.5} y={TOP} width={3} height={plotH} fill={color} />
        <rect x={r.x + r.w - 1.5} y={TOP} width={3} height={plotH} fill={color} />
        <text x={r.x + 3} y={TOP - 3} fontSize={10} fill={color}>
          {r.w > 60 ? label : label[0].toUpperCase()}
        </text>
      </g>
    );
  };

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.strip}>
      <svg width={width} height={height} className={styles.svg} style={{ cursor: drag ? (drag.grab.kind === 'new' ? 'crosshair' : 'grabbing') : cursor }}>
        {data.annotations.map((a, i) => {
          const x = toX(scale, a.time);
          const color = a.color ?? theme.colors.info.main;
          if (a.timeEnd !== undefined) {
            const r = rect({ from: a.time, to: a.timeEnd });
            return (
              <rect key={`an${i}`} data-testid={TEST_IDS.annotation} x={r.x} y={TOP} width={r.w} height={plotH} fill={color} fillOpacity={0.1}>
                <title>{a.title}</title>
              </rect>
            );
          }
          if (x < 0 || x > width) {
            return null;
          }
          return (
            <g key={`an${i}`} data-testid={TEST_IDS.annotation}>
              <line x1={x} x2={x} y1={TOP} y2={TOP + plotH} stroke={color} strokeDasharray="3 3" />
              <path d={`M${x - 4},${TOP + plotH + 6} L${x + 4},${TOP + plotH + 6} L${x},${TOP + plotH} Z`} fill={color}>
                <title>{a.title}</title>
              </path>
            </g>
          );
        })}
        {data.anomalies.map((a, i) => {
          const r = rect(a.window);
          if (r.w <= 0) {
            return null;
          }
          const firing = a.state !== 'pending';
          return (
            <g key={`a${i}`} data-testid={TEST_IDS.anomaly} data-from={a.window.from} data-to={a.window.to} data-name={a.name}>
              <rect x={r.x} y={TOP} width={r.w} height={plotH} fill={colors.anomaly} fillOpacity={firing ? 0.14 : 0.07} />
              <rect x={r.x} y={TOP} width={r.w} height={3} fill={colors.anomaly} fillOpacity={firing ? 0.9 : 0.45} />
              <title>{`${a.name}${a.state ? ` (${a.state})` : ''}: click to select`}</title>
            </g>
          );
        })}
        {paths.map((p, i) => (
          <path key={`s${i}`} d={p.d} fill="none" stroke={p.color} strokeWidth={1.25} />
        ))}
        {windowRect(shownBaseline, colors.baseline, 'baseline', TEST_IDS.baseline)}
        {windowRect(shownSelection, colors.selection, 'comparison', TEST_IDS.selection)}
        <line x1={0} x2={width} y1={TOP + plotH + 0.5} y2={TOP + plotH + 0.5} stroke={theme.colors.border.medium} />
        {ticks.map((t) => {
          const x = toX(scale, t);
          // a label cut by the edge reads wrong ("5:15" for 05:15)
          if (x < 16 || x > width - 16) {
            return null;
          }
          return (
            <g key={t}>
              <line x1={x} x2={x} y1={TOP + plotH} y2={TOP + plotH + 3} stroke={theme.colors.border.strong} />
              <text x={x} y={height - 3} fontSize={10} textAnchor="middle" fill={theme.colors.text.secondary}>
                {dateTimeFormat(t, { timeZone, format: tickFormat })}
              </text>
            </g>
          );
        })}
        {hoverX !== null && !drag && <line x1={hoverX} x2={hoverX} y1={TOP} y2={TOP + plotH} stroke={theme.colors.text.disabled} />}
        <rect
          ref={areaRef}
          data-testid={TEST_IDS.stripArea}
          data-from={range.from}
          data-to={range.to}
          x={0}
          y={0}
          width={width}
          height={height}
          fill="transparent"
          onMouseDown={onMouseDown}
          onMouseMove={onMouseMove}
          onMouseLeave={() => setHoverX(null)}
        />
      </svg>
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
      {(offStrip.length > 0 || data.notices.length > 0 || data.series.length === 0) && (
        <div className={styles.notices}>
          {data.series.length === 0 && (
            <div data-testid={TEST_IDS.stripNotice}>No time series to draw: drag still selects a window of the dashboard range.</div>
          )}
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
      )}
    </div>
  );
});

const getStyles = (theme: GrafanaTheme2) => ({
  wrap: css({ position: 'relative', flexShrink: 0, userSelect: 'none' }),
  svg: css({ display: 'block' }),
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
  notices: css({
    position: 'absolute',
    left: 4,
    bottom: BOTTOM + 2,
    fontSize: 11,
    color: theme.colors.warning.text,
    pointerEvents: 'none',
    background: theme.colors.background.primary,
    opacity: 0.9,
    padding: '0 4px',
  }),
});
