import { css } from '@emotion/css';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { useCallback, useMemo, useRef } from 'react';

import { DiffBasis, Tree, ValueUnit } from '@hotpath/profile-core';
import { DrawStats, DrawStyle } from '../../render/draw';
import { Layout, ROW_HEIGHT, rowsNeeded, View } from '../../render/layout';

import { FlameGraphCanvas } from './FlameGraphCanvas';
import { HoverHandle, HoverTooltip } from './HoverTooltip';
import { SandwichView } from '../Sandwich/SandwichView';
import { GraphMode } from '../types';

interface Props {
  /** the tree as the views show it (per request: already divided) */
  shown: Tree;
  layout: Layout;
  /** the sandwich's function, when the sandwich is on: drawn instead of the flame graph */
  sandwich?: string;
  focus: number;
  mode: GraphMode;
  width: number;
  height: number;
  basis: DiffBasis;
  unit: ValueUnit;
  style: DrawStyle;
  matches?: Uint8Array;
  onClick: (node: number) => void;
  onDrawn?: (stats: DrawStats) => void;
}

/** The explorer's flame graph pane: the canvas with its hover tooltip, or the sandwich of one function. */
export function FlamePane({ shown, layout, sandwich, focus, mode, width, height, basis, unit, style, matches, onClick, onDrawn }: Props) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const tooltip = useRef<HoverHandle>(null);
  // rows of the whole tree, not of the focus: zooming never changes the scroll area
  const rows = useMemo(() => rowsNeeded(layout, 0), [layout]);
  const contentHeight = rows * ROW_HEIGHT;
  const view: View = useMemo(
    () => ({ focus, width: Math.max(width - 2, 10), height, contentHeight, rowHeight: ROW_HEIGHT, mode }),
    [focus, width, height, contentHeight, mode]
  );
  const onHover = useCallback((node: number, x: number, y: number) => tooltip.current?.show(node, x, y), []);
  if (sandwich !== undefined) {
    return <SandwichView tree={shown} name={sandwich} width={width} height={height} basis={basis} unit={unit} style={style} hoverColor={theme.colors.text.maxContrast} />;
  }
  return (
    <div className={styles.graph} style={{ height }}>
      <FlameGraphCanvas layout={layout} view={view} style={style} hoverColor={theme.colors.text.maxContrast} matches={matches} onHover={onHover} onClick={onClick} onDrawn={onDrawn} />
      <HoverTooltip ref={tooltip} tree={shown} unit={unit} />
    </div>
  );
}

const getStyles = () => ({
  // the canvas scrolls its rows itself (FlameGraphCanvas); the tooltip is placed in this box
  graph: css({ position: 'relative', display: 'flex', flexDirection: 'column', overflow: 'hidden', flexShrink: 0 }),
});
