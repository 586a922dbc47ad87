import { Scale, toX } from '../../windows/strip';
import { TimeWindow } from '@hotpath/profile-core';

/** Pixels above the plot: the windows' labels. */
export const STRIP_TOP = 14;
/** Pixels below the plot: the time axis. */
export const STRIP_BOTTOM = 16;

/** A window's x and width on the strip, clipped to a little past its edges. */
export function stripRect(scale: Scale, width: number, w: TimeWindow): { x: number; w: number } {
  const a = Math.max(-2, toX(scale, w.from));
  const b = Math.min(width + 2, toX(scale, w.to));
  return { x: a, w: Math.max(0, b - a) };
}
