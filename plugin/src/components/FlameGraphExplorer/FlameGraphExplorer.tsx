import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';

import { TEST_IDS } from '../../constants';
import { DEFAULT_OPTIONS, HotpathOptions } from '../../options';
import { isDiff, pathOf, Tree, ValueUnit } from '@hotpath/profile-core';
import { DiffScheme } from '../../render/colors';
import { DrawStats } from '../../render/draw';
import { computeLayout, ROW_HEIGHT } from '../../render/layout';

import { DiffLegend } from './DiffLegend';
import { FlamePane } from '../FlameGraph/FlamePane';
import { Toolbar } from './Toolbar';
import { GraphMode, Pane, PaneLayout } from '../types';
import { TablesPane } from '../TopTable/TablesPane';
import { Sort } from '../TopTable/TopTable';
import { useDrawStyle } from './useDrawStyle';
import { useFunctionSearch } from './useFunctionSearch';
import { useInternLabels } from './useInternLabels';
import { usePaneLayout } from './usePaneLayout';
import { useSandwich } from '../Sandwich/useSandwich';
import { useShownTrees } from './useShownTrees';
import { oneLine, small } from '../styles';

export interface ExplorerProps {
  /** a profile, or a diff tree (baseline in total/self, comparison in totalRight/selfRight) */
  tree: Tree;
  width: number;
  height: number;
  options?: Partial<Pick<HotpathOptions, 'graphMode' | 'colorScheme' | 'showTable'>>;
  /** lines to show above the graph (folded nodes, a missing baseline) */
  notices?: string[];
  /**
   * The unit of every value shown (default share). Per request needs `requests`: the count that
   * divides the tree's values (left: total/self, right: totalRight/selfRight); without them the
   * views fall back to share (the caller says why in a notice).
   */
  unit?: ValueUnit;
  requests?: { left?: number; right?: number };
  onDrawn?: (stats: DrawStats) => void;
  /**
   * The tree the top and changes tables read, when it is not `tree`: the profile before the
   * panel folded it for drawing, or a more complete answer than the one drawn (Pyroscope's
   * truncated trees). Same unit and sides as `tree`; its node numbers are its own.
   */
  tableTree?: Tree;
  /** the panes shown first (the user switches them in the toolbar); default: the flame graph over the tables */
  layout?: PaneLayout;
}

const TOOLBAR = 40;

// The call tree is not a default pane: its code (components/CallTree and the core's call tree
// view) is a chunk of its own, loaded next to module.js when the pane is first shown (the public
// path: .config/public-path-loader.js), so module.js stays within its size budget.
const TreePane = lazy(() => import(/* webpackChunkName: "call-tree" */ '../CallTree/TreePane').then((m) => ({ default: m.TreePane })));

/**
 * The one stateful container: owns focus, search, sort and the layout toggle (hover lives in
 * HoverTooltip); computes the derived data (layout, search, tables) with the pure data layer,
 * through its hooks, and hands it to presentational panes (FlamePane, TreePane, TablesPane).
 * The overlay renders this with the tree of the selected window (or the diff against its
 * baseline).
 */
export function FlameGraphExplorer({ tree, width, height, options = {}, notices = [], unit = 'share', requests, onDrawn, tableTree = tree, layout: initialLayout }: ExplorerProps) {
  const styles = useStyles2(getStyles);
  const diff = isDiff(tree);
  const [focusState, setFocus] = useState<{ tree: Tree; node: number }>({ tree, node: 0 });
  const focus = focusState.tree === tree && focusState.node < tree.size ? focusState.node : 0;
  const [sort, setSort] = useState<Sort>({ key: 'self', desc: true });
  const [modeOverride, setMode] = useState<GraphMode | undefined>(undefined);
  const mode = modeOverride ?? options.graphMode ?? DEFAULT_OPTIONS.graphMode;
  const diffScheme: DiffScheme = options.colorScheme ?? DEFAULT_OPTIONS.colorScheme;
  const { paneLayout, setLayout, main, second, showTable } = usePaneLayout(height, options.showTable, initialLayout);
  const shownTrees = useShownTrees({ tree, tableTree, unit, requests, showTable });
  const { valueUnit, shown, basis } = shownTrees;
  const layout = useMemo(() => computeLayout(shown, basis), [shown, basis]);
  const { search, setSearch, regex, setRegex, searched, result, selectedFn, onSelectFunction } = useFunctionSearch(shown);
  useInternLabels(tree, tableTree);
  const style = useDrawStyle(diffScheme);
  const graphHeight = Math.max(ROW_HEIGHT * 2, (second ? Math.round((height - TOOLBAR) * 0.62) : height - TOOLBAR) - notices.length * 20 - (diff ? 20 : 0));
  const secondHeight = Math.max(0, height - TOOLBAR - notices.length * 20 - (diff ? 20 : 0) - graphHeight - 4);
  const onClick = useCallback((node: number) => setFocus({ tree, node }), [tree]);
  const onResetFocus = useCallback(() => setFocus({ tree, node: 0 }), [tree]);
  const focusPath = useMemo(() => (focus > 0 ? pathOf(tree, focus) : []), [tree, focus]);
  const sandwich = useSandwich(tree, focus, selectedFn, main, second);

  // one renderer per pane kind (components/types.ts): a kind without one does not compile
  const PANES: Record<Pane, (h: number, below: boolean) => React.ReactNode> = {
    flame: (h) => {
      const common = { shown, layout, focus, mode, width, height: h, basis, unit: valueUnit, style, matches: result?.matches };
      return <FlamePane {...common} sandwich={sandwich.show ? sandwich.name : undefined} onClick={onClick} onDrawn={onDrawn} />;
    },
    tree: (h, below) => {
      const sandwichTrees = sandwich.trees ? { name: sandwich.name!, trees: sandwich.trees } : undefined;
      const common = { tree, width, height: h, below, unit: valueUnit, requests: shownTrees.treeRequests, focus, matches: result?.matches };
      // while its chunk loads, the pane's room stays empty
      return (
        <Suspense fallback={<div style={{ height: h }} />}>
          <TreePane {...common} sandwich={sandwichTrees} onFocus={onClick} />
        </Suspense>
      );
    },
    table: (h) => {
      const { changes, topRows, perRequest, counts } = shownTrees;
      const common = { height: h, diff: diff ? tableTree : undefined, changes, topRows, unit: valueUnit, profileUnit: tree.unit, perRequest, counts };
      return <TablesPane {...common} total={shownTrees.tableShown.total[0]} sort={sort} onSort={setSort} onSelect={onSelectFunction} selected={selectedFn} />;
    },
  };

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.panel}>
      <Toolbar
        search={search}
        regex={regex}
        result={result}
        searchError={searched.ok ? undefined : searched.error}
        diff={diff}
        mode={mode}
        focusPath={focusPath}
        valueUnit={valueUnit}
        profileUnit={tree.unit}
        sandwich={sandwich.name !== undefined ? { name: sandwich.name, on: sandwich.on, onToggle: sandwich.onToggle } : undefined}
        onSearch={setSearch}
        onRegex={setRegex}
        onMode={setMode}
        onResetFocus={onResetFocus}
        // the pane buttons need the room of a whole panel (not a side-by-side column)
        panes={width >= 700 ? { layout: paneLayout, onChange: setLayout } : undefined}
      />
      {notices.map((n) => (
        <div key={n} className={styles.notice} data-testid={TEST_IDS.notice}>
          {n}
        </div>
      ))}
      {diff && <DiffLegend scheme={diffScheme} unit={valueUnit} />}
      {PANES[main](second ? graphHeight : graphHeight + (main === 'flame' ? 0 : secondHeight), false)}
      {second && PANES[second](secondHeight, true)}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
  notice: css({ ...oneLine, color: theme.colors.warning.text, ...small(theme), height: 20 }),
});
