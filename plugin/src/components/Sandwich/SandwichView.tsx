import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { useCallback, useMemo, useRef } from 'react';

import { TEST_IDS } from '../../constants';
import { DiffBasis, sandwich, Tree, ValueUnit } from '@hotpath/profile-core';
import { DrawStyle } from '../../render/draw';
import { computeLayout, ROW_HEIGHT, rowsNeeded, View } from '../../render/layout';

import { FlameGraphCanvas } from '../FlameGraph/FlameGraphCanvas';
import { HoverHandle, HoverTooltip } from '../FlameGraph/HoverTooltip';

interface Props {
  /** the tree as the views show it (per request: already divided) */
  tree: Tree;
  name: string;
  width: number;
  height: number;
  basis: DiffBasis;
  unit: ValueUnit;
  style: DrawStyle;
  hoverColor: string;
}

/**
 * The sandwich of one function: its callers above (drawn as a flame, the function at the
 * bottom, callers growing up), its callees below (an icicle, the function on top). Both merge
 * every place the function occurs (data/sandwich.ts); in a diff, every frame carries its change.
 */
export function SandwichView({ tree, name, width, height, basis, unit, style, hoverColor }: Props) {
  const styles = useStyles2(getStyles);
  const s = useMemo(() => sandwich(tree, name), [tree, name]);
  const callers = useMemo(() => (s ? computeLayout(s.callers, basis) : undefined), [s, basis]);
  const callees = useMemo(() => (s ? computeLayout(s.callees, basis) : undefined), [s, basis]);
  // one tooltip per half; the pointer is over one half at a time
  const callersTip = useRef<HoverHandle>(null);
  const calleesTip = useRef<HoverHandle>(null);
  const onHoverCallers = useCallback((node: number, x: number, y: number) => {
    calleesTip.current?.show(-1, 0, 0);
    callersTip.current?.show(node, x, y);
  }, []);
  const onHoverCallees = useCallback((node: number, x: number, y: number) => {
    callersTip.current?.show(-1, 0, 0);
    calleesTip.current?.show(node, x, y);
  }, []);
  const noop = useCallback(() => {}, []);
  if (!s || !callers || !callees) {
    return (
      <div className={styles.empty} data-testid={TEST_IDS.sandwich}>
        {name} does not occur in this profile.
      </div>
    );
  }
  const half = Math.max(ROW_HEIGHT * 2, Math.floor((height - 20) / 2));
  const view = (rows: number, mode: View['mode']): View => ({ focus: 0, width: Math.max(width - 2, 10), height: half, contentHeight: rows * ROW_HEIGHT, rowHeight: ROW_HEIGHT, mode });
  const callersView = view(rowsNeeded(callers, 0), 'flame');
  const calleesView = view(rowsNeeded(callees, 0), 'icicle');
  return (
    <div data-testid={TEST_IDS.sandwich} data-function={name} data-occurrences={s.occurrences} style={{ width, height }}>
      <div className={styles.caption}>
        Callers of {name} (above) and its callees (below), merged from {s.occurrences} place{s.occurrences === 1 ? '' : 's'}
      </div>
      <div className={styles.half} style={{ height: half }} data-testid={TEST_IDS.sandwichCallers}>
        <FlameGraphCanvas layout={callers} view={callersView} style={style} hoverColor={hoverColor} onHover={onHoverCallers} onClick={noop} />
        <HoverTooltip ref={callersTip} tree={s.callers} unit={unit} />
      </div>
      <div className={styles.half} style={{ height: half }} data-testid={TEST_IDS.sandwichCallees}>
        <FlameGraphCanvas layout={callees} view={calleesView} style={style} hoverColor={hoverColor} onHover={onHoverCallees} onClick={noop} />
        <HoverTooltip ref={calleesTip} tree={s.callees} unit={unit} />
      </div>
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  caption: css({ height: 20, fontSize: theme.typography.bodySmall.fontSize, color: theme.colors.text.secondary, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
  // each half's canvas scrolls its rows itself (FlameGraphCanvas); the tooltip is placed in this box
  half: css({ position: 'relative', display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
  empty: css({ padding: theme.spacing(2), color: theme.colors.text.secondary }),
});
