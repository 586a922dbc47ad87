import { dateTimeFormat } from '@grafana/data';
import { useTheme2 } from '@grafana/ui';
import { useMemo } from 'react';

import { Scale, timeTicks, toX } from '../../windows/strip';

import { STRIP_TOP } from './stripGeometry';

interface Props {
  scale: Scale;
  width: number;
  height: number;
  plotH: number;
  timeZone: string;
}

/** The time axis under the plot: a line, and ticks labelled at round times in the dashboard's zone. */
export function StripAxis({ scale, width, height, plotH, timeZone }: Props) {
  const theme = useTheme2();
  const ticks = useMemo(() => timeTicks(scale), [scale]);
  const span = scale.domain.to - scale.domain.from;
  const tickFormat = span > 2 * 86400000 ? 'MM-DD HH:mm' : span > 600000 ? 'HH:mm' : 'HH:mm:ss';
  return (
    <>
      <line x1={0} x2={width} y1={STRIP_TOP + plotH + 0.5} y2={STRIP_TOP + plotH + 0.5} stroke={theme.colors.border.medium} />
      {ticks.map((t) => {
        const x = toX(scale, t);
        // a label cut by the edge reads wrong ("5:15" for 05:15)
        if (x < 16 || x > width - 16) {
          return null;
        }
        return (
          <g key={t}>
            <line x1={x} x2={x} y1={STRIP_TOP + plotH} y2={STRIP_TOP + plotH + 3} stroke={theme.colors.border.strong} />
            <text x={x} y={height - 3} fontSize={10} textAnchor="middle" fill={theme.colors.text.secondary}>
              {dateTimeFormat(t, { timeZone, format: tickFormat })}
            </text>
          </g>
        );
      })}
    </>
  );
}
