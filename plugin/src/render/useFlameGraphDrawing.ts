import { RefObject, useEffect, useMemo } from 'react';

import { drawGraph, DrawStats, DrawStyle, makePaint } from './draw';
import { Layout, View } from './layout';

/** Sizes a canvas for the device pixel ratio and returns its context scaled to CSS pixels. */
export function prepareCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const dpr = typeof window !== 'undefined' ? window.devicePixelRatio || 1 : 1;
  const w = Math.max(1, Math.round(width * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext('2d');
  ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

let probe: CanvasRenderingContext2D | null | undefined;

/**
 * A context for measuring text, one per page: it only measures (it never gets a backing store),
 * and a canvas and context made for every new tree were ~0.3 ms of a first render.
 */
function probeContext(): CanvasRenderingContext2D | null {
  if (probe === undefined) {
    probe = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null;
  }
  return probe;
}

/**
 * Drawing in a hook: redraws the canvas when the layout, view, style or search matches change.
 * No React state: the canvas is the output. `onDrawn` reports what was drawn (for tests and
 * the benchmark).
 */
export function useFlameGraphDrawing(
  canvasRef: RefObject<HTMLCanvasElement>,
  layout: Layout,
  view: View,
  style: DrawStyle,
  matches: Uint8Array | undefined,
  onDrawn?: (stats: DrawStats) => void
) {
  const paint = useMemo(() => makePaint(layout, style, probeContext()), [layout, style]);
  const { focus, width, height, rowHeight, mode, contentHeight, top } = view;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) {
      return;
    }
    const ctx = prepareCanvas(canvas, width, height);
    if (!ctx) {
      return;
    }
    const stats = drawGraph(ctx, layout, { focus, width, height, rowHeight, mode, contentHeight, top }, style, paint, matches);
    onDrawn?.(stats);
  }, [canvasRef, layout, focus, width, height, rowHeight, mode, contentHeight, top, style, paint, matches, onDrawn]);
}
