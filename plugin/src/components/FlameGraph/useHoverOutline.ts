import { MouseEvent, useCallback, useLayoutEffect, useRef } from 'react';

import { drawHover, Outline } from '../../render/draw';
import { hitTest, Layout, View } from '../../render/layout';
import { prepareCanvas } from '../../render/useFlameGraphDrawing';

interface Options {
  layout: Layout;
  /** the graph as drawn (the canvas is its window) */
  view: View;
  hoverColor: string;
  /** where the canvases sit in the window: added to the y handed to onHover */
  offset: number;
  onHover: (node: number, x: number, y: number) => void;
  onClick: (node: number) => void;
}

/**
 * The pointer on the flame graph: the node under it outlined on the overlay canvas (so moving
 * the pointer never redraws the graph), hover and click reported by node. Returns the overlay's
 * ref and its mouse handlers.
 */
export function useHoverOutline({ layout, view, hoverColor, offset, onHover, onClick }: Options) {
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const hovered = useRef(-1);
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

  return { overlayRef, onMouseMove, onMouseLeave, onMouseClick };
}
