import { Scale } from '../../windows/strip';
import { TimeWindow } from '@hotpath/profile-core';

import { STRIP_TOP, stripRect } from './stripGeometry';

interface Props {
  window: TimeWindow | null;
  color: string;
  /** "comparison" or "baseline": its initial alone when the window is narrow */
  label: string;
  testId: string;
  scale: Scale;
  width: number;
  plotH: number;
}

/** One of the two windows: shaded, with grab handles at its edges and its label above. */
export function StripWindow({ window: w, color, label, testId, scale, width, plotH }: Props) {
  if (!w) {
    return null;
  }
  const r = stripRect(scale, width, w);
  if (r.w <= 0) {
    return null;
  }
  return (
    <g data-testid={testId} data-from={w.from} data-to={w.to}>
      <rect x={r.x} y={STRIP_TOP} width={r.w} height={plotH} fill={color} fillOpacity={0.22} stroke={color} strokeWidth={1.5} />
      <rect x={r.x - 1.5} y={STRIP_TOP} width={3} height={plotH} fill={color} />
      <rect x={r.x + r.w - 1.5} y={STRIP_TOP} width={3} height={plotH} fill={color} />
      <text x={r.x + 3} y={STRIP_TOP - 3} fontSize={10} fill={color}>
        {r.w > 60 ? label : label[0].toUpperCase()}
      </text>
    </g>
  );
}
