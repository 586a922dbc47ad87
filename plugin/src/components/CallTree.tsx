import { css, cx } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, useStyles2 } from '@grafana/ui';
import { KeyboardEvent, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';

import { TEST_IDS } from '../constants';
import { ChildOrder, expandToDepth, expandToMatches, formatCount, hasChildren, isDiff, nodeName, Tree, ValueUnit, visibleRows, withPathTo } from '@hotpath/profile-core';

import { formatDeltaIn, formatPercent, formatValue } from './format';

/** Row height in pixels: the virtualised list places rows by it. */
export const CALL_TREE_ROW = 22;
const HEADER = 26;
const OVERSCAN = 8;
const DEPTHS = [1, 2, 3, 5, 10];
const DEFAULT_DEPTH = 3;

interface TreeState {
  tree: Tree;
  focus: number;
  matches?: Uint8Array;
  expanded: Set<number>;
  selected: number;
}

interface Props {
  /** the profile with its own values (a diff carries both sides); per request divides them here */
  tree: Tree;
  width: number;
  height: number;
  /** the panel's unit: the diff column's */
  unit: ValueUnit;
  /** request counts of each side, for the per-request column */
  requests?: { left?: number; right?: number };
  /** the flame graph's focused node (0: none): the tree opens down to it and selects it */
  focus?: number;
  /** Enter (or a double click) on a row: focus the flame graph there */
  onFocus?: (node: number) => void;
  /** the search's matches, one flag per node: marked, and the tree opens down to them */
  matches?: Uint8Array;
  caption?: string;
}

/**
 * The call tree: the profile as an expandable table (function, total, self, per request, and
 * for a diff the change), heaviest children first. Virtualised: only the rows in view exist in
 * the DOM, and only the children of expanded nodes are ever computed (data/callTree.ts), so a
 * 1M-node profile opens as fast as a small one. A WAI-ARIA treegrid: arrows move and open,
 * Space toggles, Enter focuses the flame graph on the row. A search opens the tree down to its
 * matches and selects the first.
 */
export const CallTree = memo(function CallTree({ tree, width, height, unit, requests, focus = 0, onFocus, matches, caption }: Props) {
  const styles = useStyles2(getStyles);
  const diff = isDiff(tree);
  const order = useMemo(() => new ChildOrder(tree), [tree]);
  const initial = useMemo(() => expandToDepth(order, 0, DEFAULT_DEPTH), [order]);
  // what the user opened and selected, with the props it was last brought in step with: a new
  // tree starts over (its node numbers mean other nodes); a new flame graph focus opens the path
  // to it and selects it; a new search opens the tree down to its (first) matches
  const [state, setState] = useState<TreeState>({ tree, focus: 0, expanded: initial, selected: 0 });
  const next = inStep(state, tree, initial, focus, matches);
  if (next !== state) {
    setState(next);
  }
  const { expanded, selected } = next;
  const update = (patch: Partial<Pick<TreeState, 'expanded' | 'selected'>>) => setState({ ...next, ...patch });
  const rows = useMemo(() => visibleRows(order, 0, expanded), [order, expanded]);
  const indexOf = useMemo(() => {
    const m = new Map<number, number>();
    rows.forEach((n, i) => m.set(n, i));
    return m;
  }, [rows]);

  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const bodyHeight = Math.max(CALL_TREE_ROW, height - HEADER - (caption ? 20 : 0) - 30);
  const reveal = useCallback(
    (row: number) => {
      const el = scroller.current;
      if (!el || row < 0) {
        return;
      }
      const top = row * CALL_TREE_ROW;
      if (top < el.scrollTop) {
        el.scrollTop = top;
      } else if (top + CALL_TREE_ROW > el.scrollTop + bodyHeight) {
        el.scrollTop = top + CALL_TREE_ROW - bodyHeight;
      }
    },
    [bodyHeight]
  );

  const selectedRow = indexOf.get(selected) ?? -1;
  useEffect(() => reveal(selectedRow), [selectedRow, reveal]);

  const toggle = (node: number, open?: boolean) => {
    if (!hasChildren(tree, node)) {
      return;
    }
    const next = new Set(expanded);
    if (open ?? !next.has(node)) {
      next.add(node);
    } else {
      next.delete(node);
    }
    update({ expanded: next, selected: node });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = Math.max(0, selectedRow);
    const page = Math.max(1, Math.floor(bodyHeight / CALL_TREE_ROW) - 1);
    const go = (r: number) => update({ selected: rows[Math.min(rows.length - 1, Math.max(0, r))] });
    const node = rows[row];
    switch (e.key) {
      case 'ArrowDown':
        go(row + 1);
        break;
      case 'ArrowUp':
        go(row - 1);
        break;
      case 'PageDown':
        go(row + page);
        break;
      case 'PageUp':
        go(row - page);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'ArrowRight':
        if (hasChildren(tree, node) && !expanded.has(node)) {
          toggle(node, true);
        } else if (expanded.has(node)) {
          go(row + 1);
        }
        break;
      case 'ArrowLeft':
        if (expanded.has(node)) {
          toggle(node, false);
        } else if (node > 0) {
          update({ selected: tree.parent[node] });
        }
        break;
      case ' ':
        toggle(node);
        break;
      case 'Enter':
        onFocus?.(node);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const first = Math.max(0, Math.floor(scrollTop / CALL_TREE_ROW) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + bodyHeight) / CALL_TREE_ROW) + OVERSCAN);
  const cells = useCellText(tree, unit, requests);
  const hasPerRequest = diff ? requests?.right !== undefined : requests?.left !== undefined;
  const columns = ['Function', diff ? 'Total (comparison)' : 'Total', diff ? 'Self (comparison)' : 'Self', 'Per request', ...(diff ? ['Change'] : [])];
  const grid = diff ? styles.gridDiff : styles.grid;
  const rowId = (n: number) => `hotpath-call-tree-${n}`;

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.callTree} data-rows={rows.length}>
      {caption && <div className={styles.caption}>{caption}</div>}
      <div className={styles.controls}>
        <span className={styles.muted}>Expand to depth</span>
        {DEPTHS.map((d) => (
          <Button key={d} size="sm" variant="secondary" fill="text" data-testid={TEST_IDS.callTreeDepth} data-depth={d} onClick={() => update({ expanded: expandToDepth(order, 0, d) })}>
            {d}
          </Button>
        ))}
        <span className={styles.muted}>{formatCount(rows.length)} rows shown of {formatCount(tree.size)} nodes</span>
      </div>
      <div
        role="treegrid"
        aria-label={caption ?? 'Call tree'}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        aria-activedescendant={selectedRow >= 0 ? rowId(selected) : undefined}
        tabIndex={0}
        className={styles.grid_}
        onKeyDown={onKeyDown}
      >
        <div role="row" aria-rowindex={1} className={cx(grid, styles.header)} style={{ height: HEADER }}>
          {columns.map((c) => (
            <div key={c} role="columnheader" className={styles.cell}>
              {c}
            </div>
          ))}
        </div>
        <div ref={scroller} className={styles.body} style={{ height: bodyHeight }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
          <div style={{ height: rows.length * CALL_TREE_ROW, position: 'relative' }}>
            {Array.from({ length: Math.max(0, last - first) }, (_, k) => {
              const r = first + k;
              const n = rows[r];
              const depth = tree.level[n];
              const open = expanded.has(n);
              const leaf = !hasChildren(tree, n);
              const c = cells(n);
              return (
                <div
                  key={n}
                  id={rowId(n)}
                  role="row"
                  aria-rowindex={r + 2}
                  aria-level={depth + 1}
                  aria-expanded={leaf ? undefined : open}
                  aria-selected={n === selected}
                  data-testid={TEST_IDS.callTreeRow}
                  data-node={n}
                  data-match={matches?.[n] ? 'true' : undefined}
                  className={cx(grid, styles.row, n === selected && styles.selected, n === focus && focus > 0 && styles.focused)}
                  style={{ top: r * CALL_TREE_ROW, height: CALL_TREE_ROW }}
                  onClick={() => update({ selected: n })}
                  onDoubleClick={() => onFocus?.(n)}
                >
                  <div role="gridcell" className={styles.cell} style={{ paddingLeft: 4 + depth * 14 }} title={nodeName(tree, n)}>
                    <span
                      className={styles.chevron}
                      onClick={(e) => {
                        e.stopPropagation();
                        toggle(n);
                      }}
                    >
                      {leaf ? '' : open ? '▾' : '▸'}
                    </span>
                    <span className={matches?.[n] ? styles.match : undefined}>{nodeName(tree, n)}</span>
                  </div>
                  <div role="gridcell" className={styles.cell}>
                    {c.total}
                  </div>
                  <div role="gridcell" className={styles.cell}>
                    {c.self}
                  </div>
                  <div role="gridcell" className={styles.cell}>
                    {hasPerRequest ? c.perRequest : '—'}
                  </div>
                  {diff && (
                    <div role="gridcell" className={cx(styles.cell, c.delta > 0 ? styles.more : c.delta < 0 ? styles.less : undefined)}>
                      {c.change}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
});

/** The state brought in step with the props (the same object when nothing changed). */
function inStep(state: TreeState, tree: Tree, initial: Set<number>, focus: number, matches: Uint8Array | undefined): TreeState {
  let next = state.tree === tree ? state : { tree, focus: 0, expanded: initial, selected: 0 };
  if (next.focus !== focus) {
    next = { ...next, focus, ...(focus > 0 && focus < tree.size ? { expanded: withPathTo(tree, next.expanded, 0, focus), selected: focus } : {}) };
  }
  if (next.matches !== matches) {
    const open = matches ? expandToMatches(tree, 0, matches) : new Set<number>();
    next.expanded.forEach((n) => open.add(n));
    // the first match is selected (so scrolled into view)
    const first = matches ? matches.indexOf(1) : -1;
    next = { ...next, matches, expanded: open, selected: first >= 0 ? first : next.selected };
  }
  return next;
}

/** The text of a row's value cells; the comparison side for a diff (the baseline in its change). */
function useCellText(tree: Tree, unit: ValueUnit, requests?: { left?: number; right?: number }) {
  return useMemo(() => {
    const diff = isDiff(tree);
    const total = diff ? tree.totalRight! : tree.total;
    const self = diff ? tree.selfRight! : tree.self;
    const rootTotal = total[0] || 0;
    const reqs = diff ? requests?.right : requests?.left;
    const withShare = (v: number) => `${formatValue(v, tree.unit)} (${formatPercent(rootTotal > 0 ? v / rootTotal : 0)})`;
    const left = tree.total[0] || 0;
    const perRequestOk = requests?.left !== undefined && requests?.right !== undefined;
    const deltaUnit: ValueUnit = unit === 'per-request' && !perRequestOk ? 'share' : unit;
    return (n: number) => {
      let delta = 0;
      if (diff) {
        const b = tree.total[n];
        const c = total[n];
        delta =
          deltaUnit === 'share' ? (rootTotal > 0 ? c / rootTotal : 0) - (left > 0 ? b / left : 0) : deltaUnit === 'per-request' ? c / requests!.right! - b / requests!.left! : c - b;
      }
      return {
        total: withShare(total[n]),
        self: withShare(self[n]),
        perRequest: reqs ? `${formatValue(total[n] / reqs, tree.unit)}/req` : '—',
        delta,
        change: diff ? formatDeltaIn(deltaUnit, delta, tree.unit) : '',
      };
    };
  }, [tree, unit, requests]);
}

const getStyles = (theme: GrafanaTheme2) => {
  const small = theme.typography.bodySmall.fontSize;
  const clip = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;
  const grid = (columns: string) => css({ display: 'grid', alignItems: 'center', fontSize: small, gridTemplateColumns: `minmax(0, 1fr) 150px 150px 120px${columns}` });
  return {
    wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
    caption: css({ ...clip, height: 20, fontSize: small, color: theme.colors.text.secondary }),
    controls: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(0.5), height: 30, fontSize: small }),
    muted: css({ color: theme.colors.text.secondary, whiteSpace: 'nowrap' }),
    grid_: css({ outline: 'none', '&:focus-visible': { boxShadow: `inset 0 0 0 1px ${theme.colors.primary.border}` } }),
    grid: grid(''),
    gridDiff: grid(' 110px'),
    header: css({ background: theme.colors.background.secondary }),
    body: css({ overflow: 'auto' }),
    row: css({ position: 'absolute', left: 0, right: 0, cursor: 'pointer', '&:hover': { background: theme.colors.action.hover } }),
    selected: css({ background: theme.colors.action.selected }),
    focused: css({ boxShadow: `inset 3px 0 0 ${theme.colors.primary.main}` }),
    cell: css({ ...clip, padding: theme.spacing(0, 1), fontVariantNumeric: 'tabular-nums' }),
    chevron: css({ display: 'inline-block', width: 14, color: theme.colors.text.secondary }),
    match: css({ fontWeight: theme.typography.fontWeightBold, textDecoration: 'underline' }),
    more: css({ color: theme.colors.error.text }),
    less: css({ color: theme.colors.success.text }),
  };
};
