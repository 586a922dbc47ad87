import { UIEvent, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { View } from '../../render/layout';

/** Where the window starts: a flame graph opens on its root, at the bottom of the content. */
function initialTop(view: View): number {
  return view.mode === 'flame' ? Math.max(0, (view.contentHeight ?? view.height) - view.height) : 0;
}

/**
 * The flame graph's scroll position and the graph as drawn in its window. A new mode or size
 * starts the window where that mode starts (the root in sight). Returns the canvases' height
 * (`shown`: at most the window, only as tall as the rows), where they sit in the window
 * (`offset`: at the bottom for a flame graph), and `view`, the window as the drawing sees it.
 */
export function useGraphScroll(windowView: View) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState(() => ({ top: initialTop(windowView), of: windowView }));
  const content = windowView.contentHeight ?? windowView.height;
  const fresh = scroll.of.mode !== windowView.mode || (scroll.of.contentHeight ?? scroll.of.height) !== content || scroll.of.height !== windowView.height;
  const top = fresh ? initialTop(windowView) : Math.min(scroll.top, Math.max(0, content - windowView.height));
  // the canvases' height, and where they sit in the window
  const shown = Math.min(windowView.height, Math.max(content, windowView.rowHeight));
  const offset = windowView.mode === 'flame' ? windowView.height - shown : 0;
  // the graph as drawn: the window is the canvas
  const view = useMemo(() => ({ ...windowView, height: shown, contentHeight: Math.max(content, shown), top }), [windowView, shown, content, top]);
  // where the scroll area is, as far as we know (it starts at 0): reading scrollTop would force
  // a layout of the page in the middle of a render (2 ms of a first render)
  const domTop = useRef(0);
  useLayoutEffect(() => {
    if (fresh) {
      // the new start is drawn in this render already; the state only records it for the next
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setScroll({ top, of: windowView });
    }
    if (scrollRef.current && Math.abs(domTop.current - top) >= 1) {
      scrollRef.current.scrollTop = top;
      domTop.current = top;
    }
  }, [fresh, top, windowView]);
  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const t = e.currentTarget.scrollTop;
    domTop.current = t;
    setScroll((s) => (s.top === t ? s : { top: t, of: s.of }));
  }, []);
  return { scrollRef, view, content, offset, onScroll };
}
