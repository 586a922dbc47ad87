import { useTheme2 } from '@grafana/ui';

import { TEST_IDS } from '../../constants';
import { Anomaly, AnnotationMark } from '../../windows/series';
import { Scale, toX } from '../../windows/strip';

import { STRIP_TOP, stripRect } from './stripGeometry';

interface Props {
  scale: Scale;
  width: number;
  plotH: number;
}

/** Grafana's annotations on the strip: a region shaded, a point as a dashed line with a marker below. */
export function StripAnnotations({ annotations, scale, width, plotH }: Props & { annotations: AnnotationMark[] }) {
  const theme = useTheme2();
  return (
    <>
      {annotations.map((a, i) => {
        const x = toX(scale, a.time);
        // an annotation's colour is often one of Grafana's named colours ('blue'), which the theme resolves
        const color = a.color ? theme.visualization.getColorByName(a.color) : theme.colors.info.main;
        if (a.timeEnd !== undefined) {
          const r = stripRect(scale, width, { from: a.time, to: a.timeEnd });
          return (
            <rect key={`an${i}`} data-testid={TEST_IDS.annotation} x={r.x} y={STRIP_TOP} width={r.w} height={plotH} fill={color} fillOpacity={0.1}>
              <title>{a.title}</title>
            </rect>
          );
        }
        if (x < 0 || x > width) {
          return null;
        }
        return (
          <g key={`an${i}`} data-testid={TEST_IDS.annotation}>
            <line x1={x} x2={x} y1={STRIP_TOP} y2={STRIP_TOP + plotH} stroke={color} strokeDasharray="3 3" />
            <path d={`M${x - 4},${STRIP_TOP + plotH + 6} L${x + 4},${STRIP_TOP + plotH + 6} L${x},${STRIP_TOP + plotH} Z`} fill={color}>
              <title>{a.title}</title>
            </path>
          </g>
        );
      })}
    </>
  );
}

/** The anomaly windows: shaded, with a bar on top (fainter while pending); a click selects one. */
export function StripAnomalies({ anomalies, color, scale, width, plotH }: Props & { anomalies: Anomaly[]; color: string }) {
  return (
    <>
      {anomalies.map((a, i) => {
        const r = stripRect(scale, width, a.window);
        if (r.w <= 0) {
          return null;
        }
        const firing = a.state !== 'pending';
        return (
          <g key={`a${i}`} data-testid={TEST_IDS.anomaly} data-from={a.window.from} data-to={a.window.to} data-name={a.name}>
            <rect x={r.x} y={STRIP_TOP} width={r.w} height={plotH} fill={color} fillOpacity={firing ? 0.14 : 0.07} />
            <rect x={r.x} y={STRIP_TOP} width={r.w} height={3} fill={color} fillOpacity={firing ? 0.9 : 0.45} />
            <title>{`${a.name}${a.state ? ` (${a.state})` : ''}: click to select`}</title>
          </g>
        );
      })}
    </>
  );
}
