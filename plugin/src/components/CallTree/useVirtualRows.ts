import { UIEvent, useCallback, useEffect, useRef, useState } from 'react';

const OVERSCAN = 8;

/**
 * A virtualised list of `count` rows of `rowHeight` pixels in a scroller `bodyHeight` high:
 * the range of rows to render (those in view, and OVERSCAN either side), and the selected
 * row scrolled into view whenever it changes.
 */
export function useVirtualRows(count: number, rowHeight: number, bodyHeight: number, selectedRow: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const reveal = useCallback(
    (row: number) => {
      const el = scroller.current;
      if (!el || row < 0) {
        return;
      }
      const top = row * rowHeight;
      if (top < el.scrollTop) {
        el.scrollTop = top;
      } else if (top + rowHeight > el.scrollTop + bodyHeight) {
        el.scrollTop = top + rowHeight - bodyHeight;
      }
    },
    [bodyHeight, rowHeight]
  );
  useEffect(() => reveal(selectedRow), [selectedRow, reveal]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + bodyHeight) / rowHeight) + OVERSCAN);
  const onScroll = (e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop);
  return { scroller, first, last, onScroll };
}
