import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2, useTheme2 } from '@grafana/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import { TEST_IDS } from '../constants';
import { DEFAULT_OPTIONS, HotpathOptions } from '../options';
import { changesByUnit, checkCount, functionRows, internRows, isDiff, nodeName, pathOf, perRequestTree, sandwich as sandwichOf, searchTree, Tree, ValueUnit } from '@hotpath/profile-core';
import { diffPalette, DiffScheme } from '../render/colors';
import { DrawStats, DrawStyle } from '../render/draw';
import { computeLayout, GraphMode, ROW_HEIGHT, rowsNeeded, View } from '../render/layout';

import { CallTree } from './CallTree';
import { ChangesTable } from './ChangesTable';
import { FlameGraphCanvas } from './FlameGraphCanvas';
import { Toolbar } from './Toolbar';
import { HoverHandle, HoverTooltip } from './HoverTooltip';
import { Pane, PaneLayout, panesOf } from './panes';
import { SandwichView } from './SandwichView';
import { Sort, TopTable } from './TopTable';

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

/**
 * The one stateful container: owns focus, search, sort and the layout toggle (hover lives in HoverTooltip); computes
 * the derived data (layout, search, tables) with the pure data layer and hands it to
 * presentational views. The overlay renders this with the tree of the selected window
 * (or the diff against its baseline).
 */
export function FlameGraphExplorer({ tree, width, height, options = {}, notices = [], unit = 'share', requests, onDrawn, tableTree = tree, layout: initialLayout }: ExplorerProps) {
  const theme = useTheme2();
  const styles = useStyles2(getStyles);
  const diff = isDiff(tree);
  const [focusState, setFocus] = useState<{ tree: Tree; node: number }>({ tree, node: 0 });
  const focus = focusState.tree === tree && focusState.node < tree.size ? focusState.node : 0;
  const [search, setSearch] = useState('');
  const [regex, setRegex] = useState(false);
  const tooltip = useRef<HoverHandle>(null);
  const [sort, setSort] = useState<Sort>({ key: 'self', desc: true });
  const [modeOverride, setMode] = useState<GraphMode | undefined>(undefined);
  const mode = modeOverride ?? options.graphMode ?? DEFAULT_OPTIONS.graphMode;
  const diffScheme: DiffScheme = options.colorScheme ?? DEFAULT_OPTIONS.colorScheme;
  const [layoutOverride, setLayout] = useState<PaneLayout | undefined>(undefined);
  const paneLayout: PaneLayout = layoutOverride ?? initialLayout ?? ((options.showTable ?? DEFAULT_OPTIONS.showTable) ? 'flame+table' : 'flame');
  const panes = panesOf(paneLayout);
  // a second pane needs room: below 260 px the main pane shows alone
  const second: Pane | undefined = height >= 260 ? panes.second : undefined;
  const showTable = panes.main === 'table' || second === 'table';

  // per request: every view draws the tree divided by its window's requests (same shape)
  const left = requests?.left;
  const right = requests?.right;
  const perRequest = unit === 'per-request' && left !== undefined && (!diff || right !== undefined);
  const valueUnit: ValueUnit = unit === 'per-request' && !perRequest ? 'share' : unit;
  const shown = useMemo(() => (perRequest ? perRequestTree(tree, left!, right) : tree), [tree, perRequest, left, right]);
  const basis = valueUnit === 'share' ? 'share' : 'value';
  const layout = useMemo(() => computeLayout(shown, basis), [shown, basis]);
  const searched = useMemo(() => searchTree(shown, { text: search, regex }), [shown, search, regex]);
  const result = searched.ok ? searched.result : undefined;
  // the tables read tableTree (the unfolded or more complete profile), in the same unit as the views
  const tableShown = useMemo(() => (tableTree === tree ? shown : perRequest ? perRequestTree(tableTree, left!, right) : tableTree), [tableTree, tree, shown, perRequest, left, right]);
  const topRows = useMemo(() => (showTable ? functionRows(tableShown) : []), [tableShown, showTable]);
  const counts = useMemo(() => (perRequest ? { baseline: checkCount(left), comparison: checkCount(right) } : undefined), [perRequest, left, right]);
  const changes = useMemo(() => (showTable && diff ? changesByUnit(tableTree, valueUnit, counts) : []), [tableTree, showTable, diff, valueUnit, counts]);
  // a string frame's labels are drawn before they are interned (data/tree.ts, byName): intern
  // them once the graph is on screen (a frame later), before a search, table or sandwich asks
  useEffect(() => {
    let timer = 0;
    const f = requestAnimationFrame(() => (timer = window.setTimeout(() => [tree, tableTree].forEach((t) => internRows(t.names)))));
    return () => {
      cancelAnimationFrame(f);
      clearTimeout(timer);
    };
  }, [tree, tableTree]);
  const [selectedFn, setSelectedFn] = useState<string | undefined>(undefined);
  const [sandwichOn, setSandwich] = useState(false);

  const style: DrawStyle = useMemo(
    () => ({
      dark: theme.isDark,
      background: theme.colors.background.primary,
      text: theme.isDark ? '#f4f5f5' : '#111217',
      dimmed: theme.isDark ? '#3a3d44' : '#d8d9dc',
      dimmedText: theme.colors.text.secondary,
      font: `12px ${theme.typography.fontFamilyMonospace}`,
      diffScheme,
    }),
    [theme, diffScheme]
  );

  const graphHeight = Math.max(ROW_HEIGHT * 2, (second ? Math.round((height - TOOLBAR) * 0.62) : height - TOOLBAR) - notices.length * 20 - (diff ? 20 : 0));
  const secondHeight = Math.max(0, height - TOOLBAR - notices.length * 20 - (diff ? 20 : 0) - graphHeight - 4);
  // rows of the whole tree, not of the focus: zooming never changes the scroll area
  const rows = useMemo(() => rowsNeeded(layout, 0), [layout]);
  const contentHeight = rows * ROW_HEIGHT;
  const view: View = useMemo(
    () => ({ focus, width: Math.max(width - 2, 10), height: graphHeight, contentHeight, rowHeight: ROW_HEIGHT, mode }),
    [focus, width, graphHeight, contentHeight, mode]
  );

  const onHover = useCallback((node: number, x: number, y: number) => tooltip.current?.show(node, x, y), []);
  const onClick = useCallback((node: number) => setFocus({ tree, node }), [tree]);
  const onResetFocus = useCallback(() => setFocus({ tree, node: 0 }), [tree]);
  const onSelectFunction = useCallback((name: string) => {
    setSelectedFn(name);
    setRegex(true);
    setSearch(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  }, []);
  const focusPath = useMemo(() => (focus > 0 ? pathOf(tree, focus) : []), [tree, focus]);
  // the sandwich's function: the one picked in a table, else the focused frame's
  const sandwichName = selectedFn !== undefined && tree.names.includes(selectedFn) ? selectedFn : focus > 0 ? nodeName(tree, focus) : undefined;
  const showSandwich = sandwichOn && sandwichName !== undefined;
  const onToggleSandwich = useCallback(() => setSandwich((on) => !on), []);
  const palette = useMemo(() => diffPalette(diffScheme), [diffScheme]);

  const sandwichTrees = useMemo(() => (showSandwich && (panes.main === 'tree' || second === 'tree') ? sandwichOf(tree, sandwichName!) : undefined), [showSandwich, panes.main, second, tree, sandwichName]);
  const treeRequests = useMemo(() => ({ left, right }), [left, right]);

  const renderPane = (pane: Pane, h: number, below: boolean) => {
    if (pane === 'flame') {
      return showSandwich ? (
        <SandwichView tree={shown} name={sandwichName!} width={width} height={h} basis={basis} unit={valueUnit} style={style} hoverColor={theme.colors.text.maxContrast} />
      ) : (
        <div className={styles.graph} style={{ height: h }}>
          <FlameGraphCanvas
            layout={layout}
            view={view}
            style={style}
            hoverColor={theme.colors.text.maxContrast}
            matches={result?.matches}
            onHover={onHover}
            onClick={onClick}
            onDrawn={onDrawn}
          />
          <HoverTooltip ref={tooltip} tree={shown} unit={valueUnit} />
        </div>
      );
    }
    if (pane === 'tree') {
      const margin = below ? 4 : 0;
      if (sandwichTrees) {
        const half = Math.floor((h - margin) / 2);
        return (
          <div style={{ marginTop: margin }}>
            <CallTree tree={sandwichTrees.callers} width={width} height={half} unit={valueUnit} requests={treeRequests} caption={`Callers of ${sandwichName} (its callers' callers below them)`} />
            <CallTree tree={sandwichTrees.callees} width={width} height={half} unit={valueUnit} requests={treeRequests} caption={`Callees of ${sandwichName}`} />
          </div>
        );
      }
      return (
        <div style={{ marginTop: margin }}>
          <CallTree tree={tree} width={width} height={h - margin} unit={valueUnit} requests={treeRequests} focus={focus} onFocus={onClick} matches={result?.matches} />
        </div>
      );
    }
    return (
      <div className={styles.tables} style={{ height: h, flex: 'none' }}>
        {diff && <ChangesTable rows={changes} unit={valueUnit} profileUnit={tree.unit} onSelect={onSelectFunction} selected={selectedFn} diff={tableTree} requests={counts} />}
        <TopTable
          rows={topRows}
          unit={tree.unit}
          perRequest={perRequest}
          total={tableShown.total[0]}
          sort={sort}
          onSort={setSort}
          onSelect={onSelectFunction}
          selected={selectedFn}
        />
      </div>
    );
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
        sandwich={sandwichName !== undefined ? { name: sandwichName, on: sandwichOn, onToggle: onToggleSandwich } : undefined}
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
      {diff && (
        <div className={styles.legend} data-testid={TEST_IDS.legend}>
          <span>less in comparison</span>
          <span className={styles.gradient} style={{ background: `linear-gradient(90deg, ${palette[0]}, ${palette[Math.floor(palette.length / 2)]}, ${palette[palette.length - 1]})` }} />
          <span>more in comparison ({valueUnit === 'share' ? "share of each side's total" : valueUnit === 'per-request' ? 'per request' : 'absolute'})</span>
        </div>
      )}
      {renderPane(panes.main, second ? graphHeight : graphHeight + (panes.main === 'flame' ? 0 : secondHeight), false)}
      {second && renderPane(second, secondHeight, true)}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
  notice: css({ color: theme.colors.warning.text, fontSize: theme.typography.bodySmall.fontSize, height: 20, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }),
  legend: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(1), height: 20, fontSize: theme.typography.bodySmall.fontSize, color: theme.colors.text.secondary }),
  gradient: css({ width: 120, height: 10, borderRadius: 2 }),
  // the canvas scrolls its rows itself (FlameGraphCanvas); the tooltip is placed in this box
  graph: css({ position: 'relative', display: 'flex', flexDirection: 'column', overflow: 'hidden', flexShrink: 0 }),
  tables: css({ flex: 1, overflow: 'auto', contain: 'strict', marginTop: theme.spacing(0.5), display: 'flex', flexDirection: 'column', gap: theme.spacing(1) }),
});
