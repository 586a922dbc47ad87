import { css } from '@emotion/css';
import { memo, MouseEvent, UIEvent, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

import { TEST_IDS } from '../constants';
import { DrawStats, DrawStyle, drawHover, Outline } from '../render/draw';
import { hitTest, Layout, View } from '../render/layout';
import { prepareCanvas, useFlameGraphDrawing } from '../render/useFlameGraphDrawing';

interface Props {
  layout: Layout;
  /**
   * `height` is the visible window, `contentHeight` all rows (less than the window when they are
   * few); the scroll position lives here
   */
  view: View;
  style: DrawStyle;
  hoverColor: string;
  matches?: Uint8Array;
  /** node under the pointer (-1 when none), with the pointer's position relative to the canvas */
  onHover: (node: number, x: number, y: number) => void;
  onClick: (node: number) => void;
  onDrawn?: (stats: DrawStats) => void;
}

/** Where the window starts: a flame graph opens on its root, at the bottom of the content. */
function initialTop(view: View): number {
  return view.mode === 'flame' ? Math.max(0, (view.contentHeight ?? view.height) - view.height) : 0;
}

/**
 * The graph: one canvas for the nodes, one overlay canvas for the hover outline, so moving the
 * pointer never redraws the graph. The canvases are at most the size of the visible window and
 * stay in it (sticky) while a spacer gives the scroll area the height of every row: a deep profile
 * scrolls without a canvas its full height (1600x4000 px for JVM-deep stacks, most of a first
 * render's time). A graph shorter than the window gets canvases only as tall as its rows, at the
 * window's top (icicle) or bottom (flame, the root at the bottom): a canvas's cost (its backing
 * store, clearing, rasterizing) goes by its area, and a flat profile's 4 rows in a 960-pixel window
 * paid for 960. Presentational apart from the scroll position: other state lives in the container.
 */
export const FlameGraphCanvas = memo(function FlameGraphCanvas(props: Props) {
  const { layout, style, hoverColor, matches, onHover, onClick, onDrawn } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState(() => ({ top: initialTop(props.view), of: props.view }));
  // a new mode or size starts the window where that mode starts (the root in sight)
  const content = props.view.contentHeight ?? props.view.height;
  const fresh = scroll.of.mode !== props.view.mode || (scroll.of.contentHeight ?? scroll.of.height) !== content || scroll.of.height !== props.view.height;
  const top = fresh ? initialTop(props.view) : Math.min(scroll.top, Math.max(0, content - props.view.height));
  // the canvases' height, and where they sit in the window
  const shown = Math.min(props.view.height, Math.max(content, props.view.rowHeight));
  const offset = props.view.mode === 'flame' ? props.view.height - shown : 0;
  // the graph as drawn: the window is the canvas
  const view = useMemo(() => ({ ...props.view, height: shown, contentHeight: Math.max(content, shown), top }), [props.view, shown, content, top]);
  // where the scroll area is, as far as we know (it starts at 0): reading scrollTop would force
  // a layout of the page in the middle of a render (2 ms of a first render)
  const domTop = useRef(0);
  useLayoutEffect(() => {
    if (fresh) {
      setScroll({ top, of: props.view });
    }
    if (scrollRef.current && Math.abs(domTop.current - top) >= 1) {
      scrollRef.current.scrollTop = top;
      domTop.current = top;
    }
  }, [fresh, top, props.view]);
  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const t = e.currentTarget.scrollTop;
    domTop.current = t;
    setScroll((s) => (s.top === t ? s : { top: t, of: s.of }));
  }, []);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const hovered = useRef(-1);
  useFlameGraphDrawing(canvasRef, layout, view, style, matches, onDrawn);

  const nodeAt = useCallback(
    (e: MouseEvent<HTMLCanvasElement>) => {
      // offsetX/Y: relative to the overlay canvas, no bounding-rect query per move (browsers);
      // jsdom has no offsetX, so fall back to the rect there
      const ne = e.nativeEvent;
      let x = ne.offsetX;
      let y = ne.offsetY;
      if (typeof x !== 'number' || typeof y !== 'number') {
        const rect = e.currentTarget.getBoundingClientRect();
        x = e.clientX - rect.left;
        y = e.clientY - rect.top;
      }
      return { node: hitTest(layout, view, x, y), x, y };
    },
    [layout, view]
  );

  // the overlay's context, prepared by the first outline at each size (so that later pointer
  // moves only draw): a canvas's backing store is allocated by its first drawing call, and the
  // overlay's, done up front, was a quarter of a first render (~4 ms of 1600x960)
  const overlayCtx = useRef<CanvasRenderingContext2D | null>(null);
  // the outline on the overlay (undefined: the overlay is clear)
  const outline = useRef<Outline | undefined>(undefined);
  useLayoutEffect(() => {
    const ctx = overlayCtx.current;
    if (ctx) {
      // an outline of the old size goes with it
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    }
    overlayCtx.current = null;
    outline.current = undefined;
  }, [view.width, view.height]);
  const overlay = useCallback(() => {
    if (!overlayCtx.current && overlayRef.current) {
      overlayCtx.current = prepareCanvas(overlayRef.current, view.width, view.height);
    }
    return overlayCtx.current;
  }, [view.width, view.height]);
  // a new graph (layout, zoom, mode) drops the outline, and touches the overlay only if one is drawn
  useLayoutEffect(() => {
    if (hovered.current >= 0) {
      overlayCtx.current?.clearRect(0, 0, view.width, view.height);
      hovered.current = -1;
      outline.current = undefined;
    }
  }, [layout, view.focus, view.mode, view.width, view.height, view.top]);

  const onMouseMove = useCallback(
    (e: MouseEvent<HTMLCanvasElement>) => {
      const { node, x, y } = nodeAt(e);
      if (node !== hovered.current) {
        hovered.current = node;
        const ctx = overlay();
        if (ctx) {
          outline.current = drawHover(ctx, layout, view, node, hoverColor, outline.current);
        }
      }
      onHover(node, x, y + offset);
    },
    [nodeAt, layout, view, hoverColor, onHover, overlay, offset]
  );

  const onMouseLeave = useCallback(() => {
    hovered.current = -1;
    overlayCtx.current?.clearRect(0, 0, view.width, view.height);
    outline.current = undefined;
    onHover(-1, 0, 0);
  }, [view, onHover]);

  const onMouseClick = useCallback(
    (e: MouseEvent<HTMLCanvasElement>) => {
      const { node } = nodeAt(e);
      if (node >= 0) {
        onClick(node);
      }
    },
    [nodeAt, onClick]
  );

  return (
    <div ref={scrollRef} className={styles.scroll} style={{ height: props.view.height }} onScroll={onScroll}>
      <div className={styles.wrap} style={{ width: view.width, height: props.view.height }}>
        <canvas ref={canvasRef} data-testid={TEST_IDS.canvas} className={styles.canvas} style={{ top: offset }} />
        <canvas
          ref={overlayRef}
          data-testid={TEST_IDS.overlay}
          className={styles.overlay}
          style={{ width: view.width, height: view.height, top: offset }}
          onMouseMove={onMouseMove}
          onMouseLeave={onMouseLeave}
          onClick={onMouseClick}
        />
      </div>
      {content > props.view.height && <div style={{ height: content - props.view.height }} />}
    </div>
  );
});

const styles = {
  scroll: css({ overflowY: 'auto', overflowX: 'hidden', flexShrink: 0 }),
  wrap: css({ position: 'sticky', top: 0 }),
  canvas: css({ position: 'absolute', left: 0 }),
  overlay: css({ position: 'absolute', left: 0, cursor: 'pointer' }),
};
