import { useState } from 'react';

import { DEFAULT_OPTIONS } from '../../options';

import { Pane, PaneLayout, panesOf } from '../types';

/** Below this height the main pane shows alone: a second pane needs room. */
const SECOND_PANE_MIN_HEIGHT = 260;

/**
 * The explorer's panes: the layout the user picked in the toolbar, else the one asked for,
 * else the flame graph over the tables (or alone, without showTable).
 */
export function usePaneLayout(height: number, showTableOption: boolean | undefined, initialLayout: PaneLayout | undefined) {
  const [layoutOverride, setLayout] = useState<PaneLayout | undefined>(undefined);
  const paneLayout: PaneLayout = layoutOverride ?? initialLayout ?? ((showTableOption ?? DEFAULT_OPTIONS.showTable) ? 'flame+table' : 'flame');
  const panes = panesOf(paneLayout);
  const second: Pane | undefined = height >= SECOND_PANE_MIN_HEIGHT ? panes.second : undefined;
  const showTable = panes.main === 'table' || second === 'table';
  return { paneLayout, setLayout, main: panes.main, second, showTable };
}
