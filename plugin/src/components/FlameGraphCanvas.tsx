import { css } from '@emotion/css';
import { memo, MouseEvent, useCallback, useLayoutEffect, useRef } from 'react';

import { TEST_IDS } from '../constants';
import { DrawStats, DrawStyle, drawHover } from '../render/draw';
import { hitTest, Layout, View } from '../render/layout';
import { prepareCanvas, useFlameGraphDrawing } from '../render/useFlameGraphDrawing';

interface Props {
  layout: Layout;
  view: View;
  style: DrawStyle;
  hoverColor: string;
  matches?: Uint8Array;
  /** node under the pointer (-1 when none), with the pointer's position relative to the canvas */
  onHover: (node: number, x: number, y: number) => void;
  onClick: (node: number) => void;
  onDrawn?: (stats: DrawStats) => void;
}

/**
 * The graph: one canvas for the nodes, one overlay canvas for the hover outline, so moving the
 * pointer never redraws the graph. Presentational: all state lives in the container.
 */
export const FlameGraphCanvas = memo(function FlameGraphCanvas(props: Props) {
  const { layout, view, style, hoverColor, matches, onHover, onClick, onDrawn } = props;
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

  // the overlay's context, prepared when its size changes, so that a pointer move only draws
  const overlayCtx = useRef<CanvasRenderingContext2D | null>(null);
  useLayoutEffect(() => {
    const overlay = overlayRef.current;
    overlayCtx.current = overlay && prepareCanvas(overlay, view.width, view.height);
  }, [view.width, view.height]);
  // a new graph (layout, zoom, mode) drops the outline, and touches the overlay only if one is drawn
  useLayoutEffect(() => {
    if (hovered.current >= 0) {
      overlayCtx.current?.clearRect(0, 0, view.width, view.height);
      hovered.current = -1;
    }
  }, [layout, view.focus, view.mode, view.width, view.height]);

  const onMouseMove = useCallback(
    (e: MouseEvent<HTMLCanvasElement>) => {
      const { node, x, y } = nodeAt(e);
      if (node !== hovered.current) {
        hovered.current = node;
        if (overlayCtx.current) {
          drawHover(overlayCtx.current, layout, view, node, hoverColor);
        }
      }
      onHover(node, x, y);
    },
    [nodeAt, layout, view, hoverColor, onHover]
  );

  const onMouseLeave = useCallback(() => {
    hovered.current = -1;
    overlayCtx.current?.clearRect(0, 0, view.width, view.height);
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
    <div className={styles.wrap} style={{ width: view.width, height: view.height }}>
      <canvas ref={canvasRef} data-testid={TEST_IDS.canvas} className={styles.canvas} />
      <canvas
        ref={overlayRef}
        data-testid={TEST_IDS.overlay}
        className={styles.overlay}
        style={{ width: view.width, height: view.height }}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        onClick={onMouseClick}
      />
    </div>
  );
});

const styles = {
  wrap: css({ position: 'relative', flexShrink: 0 }),
  canvas: css({ position: 'absolute', left: 0, top: 0 }),
  overlay: css({ position: 'absolute', left: 0, top: 0, cursor: 'pointer' }),
};
