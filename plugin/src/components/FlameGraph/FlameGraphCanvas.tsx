import { css } from '@emotion/css';
import { memo, useRef } from 'react';

import { TEST_IDS } from '../../constants';
import { DrawStats, DrawStyle } from '../../render/draw';
import { Layout, View } from '../../render/layout';
import { useFlameGraphDrawing } from '../../render/useFlameGraphDrawing';

import { useGraphScroll } from './useGraphScroll';
import { useHoverOutline } from './useHoverOutline';

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

/**
 * The graph: one canvas for the nodes, one overlay canvas for the hover outline, so moving the
 * pointer never redraws the graph. The canvases are at most the size of the visible window and
 * stay in it (sticky) while a spacer gives the scroll area the height of every row: a deep profile
 * scrolls without a canvas its full height (1600x4000 px for JVM-deep stacks, most of a first
 * render's time). A graph shorter than the window gets canvases only as tall as its rows, at the
 * window's top (icicle) or bottom (flame, the root at the bottom): a canvas's cost (its backing
 * store, clearing, rasterizing) goes by its area, and a flat profile's 4 rows in a 960-pixel window
 * paid for 960. Presentational apart from the scroll position (useGraphScroll): other state lives
 * in the container; the hover outline is useHoverOutline's.
 */
export const FlameGraphCanvas = memo(function FlameGraphCanvas(props: Props) {
  const { layout, style, hoverColor, matches, onHover, onClick, onDrawn } = props;
  const { scrollRef, view, content, offset, onScroll } = useGraphScroll(props.view);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useFlameGraphDrawing(canvasRef, layout, view, style, matches, onDrawn);
  const { overlayRef, onMouseMove, onMouseLeave, onMouseClick } = useHoverOutline({ layout, view, hoverColor, offset, onHover, onClick });

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
