import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';
import { Ref } from 'react';

import { TEST_IDS } from '../../constants';
import { changeOf, isDiff, nodeName, shareOf, Tree, ValueUnit } from '@hotpath/profile-core';

import { formatDelta, formatDeltaIn, formatPercent, formatValue } from '../format';

interface Props {
  tree: Tree;
  node: number;
  x: number;
  y: number;
  /** share (the default): changes in points of share; per-request / absolute: the tree's own values (per request: already divided) */
  unit?: ValueUnit;
  /** its box, for a caller that moves it without re-rendering it (HoverTooltip) */
  boxRef?: Ref<HTMLDivElement>;
}

const MAX_NAME = 400;

/** where the tooltip goes for a pointer at (x, y): below and right of it */
export const tooltipTransform = (x: number, y: number) => `translate(${Math.round(x + 14)}px, ${Math.round(y + 14)}px)`;

export function Tooltip({ tree, node, x, y, unit: valueUnit = 'share', boxRef }: Props) {
  const styles = useStyles2(getStyles);
  const name = nodeName(tree, node);
  const shown = name.length > MAX_NAME ? name.slice(0, MAX_NAME) + '…' : name;
  const unit = tree.unit;
  const suffix = valueUnit === 'per-request' ? '/req' : '';
  const value = (v: number) => formatValue(v, unit) + suffix;
  return (
    <div ref={boxRef} className={styles.tooltip} style={{ transform: tooltipTransform(x, y) }} data-testid={TEST_IDS.tooltip}>
      <div className={styles.name}>{shown}</div>
      {isDiff(tree) ? (
        <table className={styles.table}>
          <thead>
            <tr>
              <th />
              <th>Baseline</th>
              <th>Comparison</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>Total</th>
              <TotalCell tree={tree} node={node} suffix={suffix} />
              <TotalCell tree={tree} node={node} suffix={suffix} right />
            </tr>
            <tr>
              <th>Self</th>
              <td>{value(tree.self[node])}</td>
              <td>{value(tree.selfRight[node])}</td>
            </tr>
            <tr>
              <th>Change</th>
              <td colSpan={2} data-unit={valueUnit}>
                {valueUnit === 'share' ? `${formatDelta(changeOf(tree, node))} of total share` : changeText(valueUnit, tree.total[node], tree.totalRight[node], unit)}
              </td>
            </tr>
          </tbody>
        </table>
      ) : (
        <table className={styles.table}>
          <tbody>
            <tr>
              <th>Total</th>
              <TotalCell tree={tree} node={node} suffix={suffix} />
            </tr>
            <tr>
              <th>Self</th>
              <td>
                {value(tree.self[node])} ({formatPercent(tree.total[0] > 0 ? tree.self[node] / tree.total[0] : 0)})
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A side's total of the node and its share of that side's total. */
function TotalCell({ tree, node, right = false, suffix }: { tree: Tree; node: number; right?: boolean; suffix: string }) {
  const total = right ? tree.totalRight! : tree.total;
  return (
    <td>
      {formatValue(total[node], tree.unit)}
      {suffix} ({formatPercent(shareOf(tree, node, right))})
    </td>
  );
}

/** "+0.30 ms/req (+25.0%)": the change of a node's total in the unit, and relative to the baseline. */
function changeText(unit: ValueUnit, before: number, after: number, profileUnit: string): string {
  const rel = before > 0 ? ` (${after >= before ? '+' : '−'}${(Math.abs(after / before - 1) * 100).toFixed(1)}%)` : after > 0 ? ' (new)' : '';
  return formatDeltaIn(unit, after - before, profileUnit) + rel;
}

const getStyles = (theme: GrafanaTheme2) => ({
  tooltip: css({
    position: 'absolute',
    left: 0,
    top: 0,
    contain: 'content',
    zIndex: theme.zIndex.tooltip,
    pointerEvents: 'none',
    maxWidth: 480,
    padding: theme.spacing(1),
    background: theme.colors.background.primary,
    border: `1px solid ${theme.colors.border.medium}`,
    borderRadius: theme.shape.radius.default,
    boxShadow: theme.shadows.z2,
    fontSize: theme.typography.bodySmall.fontSize,
  }),
  name: css({ fontWeight: theme.typography.fontWeightMedium, overflowWrap: 'anywhere', marginBottom: theme.spacing(0.5) }),
  table: css({ th: { paddingRight: theme.spacing(1), textAlign: 'left', color: theme.colors.text.secondary }, td: { paddingRight: theme.spacing(1) } }),
});
