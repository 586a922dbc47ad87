import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

import { anomalyAt, dragResult, Grab, grabAt, Scale } from '../../windows/strip';
import { TimeWindow } from '@hotpath/profile-core';

interface DragState {
  grab: Grab;
  x0: number;
  x1: number;
  original?: TimeWindow | null;
}

export interface StripDragOptions {
  scale: Scale;
  selection: TimeWindow | null;
  baseline: TimeWindow | null;
  /** anomaly windows: a click (not a drag) on one selects it */
  anomalyWindows: TimeWindow[];
  onSelect: (w: TimeWindow) => void;
  onBaseline: (w: TimeWindow) => void;
}

/**
 * The pointer on the strip: a press grabs a new window (Shift: the baseline), a window's edge or
 * its body (windows/strip.ts decides), the drag follows the mouse over the whole page and the
 * release commits the window; a click selects the anomaly under it. While a drag lasts, the
 * dragged window replaces its committed one in `shownSelection` / `shownBaseline`. Also tracks
 * the hovered x (the readout's) and the cursor that says what a press would grab.
 */
export function useStripDrag(opts: StripDragOptions) {
  const { scale, selection, baseline } = opts;
  const areaRef = useRef<SVGRectElement>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  const [hoverX, setHoverX] = useState<number | null>(null);
  const [cursor, setCursor] = useState('crosshair');

  const xOf = useCallback((clientX: number) => {
    const r = areaRef.current?.getBoundingClientRect();
    return r ? clientX - r.left : 0;
  }, []);

  // the window being dragged replaces its committed one while the drag lasts
  const live = drag ? dragResult(drag.grab, drag.x0, drag.x1, scale, drag.original) : null;
  const shownSelection = drag && drag.grab.target === 'selection' ? live ?? (drag.grab.kind === 'new' ? null : selection) : selection;
  const shownBaseline = drag && drag.grab.target === 'baseline' ? live ?? (drag.grab.kind === 'new' ? null : baseline) : baseline;

  // the page's listeners read the drag and the callbacks of the last render
  const dragRef = useRef<DragState | null>(null);
  const optsRef = useRef(opts);
  useLayoutEffect(() => {
    dragRef.current = drag;
    optsRef.current = opts;
  });

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
      const p = optsRef.current;
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
    const grab = grabAt(x, scale, { selection, baseline }, e.shiftKey);
    setDrag({ grab, x0: x, x1: x, original: grab.target === 'selection' ? selection : baseline });
  };

  const onMouseMove = (e: React.MouseEvent) => {
    const x = xOf(e.clientX);
    setHoverX(x);
    if (!drag) {
      const g = grabAt(x, scale, { selection, baseline }, e.shiftKey);
      setCursor(g.kind === 'resize' ? 'ew-resize' : g.kind === 'move' ? 'grab' : 'crosshair');
    }
  };

  const onMouseLeave = () => setHoverX(null);

  return {
    areaRef,
    dragging: drag !== null,
    cursor: drag ? (drag.grab.kind === 'new' ? 'crosshair' : 'grabbing') : cursor,
    hoverX,
    shownSelection,
    shownBaseline,
    onMouseDown,
    onMouseMove,
    onMouseLeave,
  };
}
