import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { useStyles2 } from '@grafana/ui';

import { TEST_IDS } from '../constants';
import { changeOf, shareOf } from '../data/ops';
import { isDiff, nodeName, Tree } from '../data/tree';

import { formatDelta, formatPercent, formatValue } from './format';

interface Props {
  tree: Tree;
  node: number;
  x: number;
  y: number;
}

const MAX_NAME = 400;

export function Tooltip({ tree, node, x, y }: Props) {
  const styles = useStyles2(getStyles);
  const name = nodeName(tree, node);
  const shown = name.length > MAX_NAME ? name.slice(0, MAX_NAME) + '…' : name;
  const unit = tree.unit;
  return (
    <div className={styles.tooltip} style={{ transform: `translate(${Math.round(x + 14)}px, ${Math.round(y + 14)}px)` }} data-testid={TEST_IDS.tooltip}>
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
              <TotalCell tree={tree} node={node} />
              <TotalCell tree={tree} node={node} right />
            </tr>
            <tr>
              <th>Self</th>
              <td>{formatValue(tree.self[node], unit)}</td>
              <td>{formatValue(tree.selfRight[node], unit)}</td>
            </tr>
            <tr>
              <th>Change</th>
              <td colSpan={2}>{formatDelta(changeOf(tree, node))} of total share</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <table className={styles.table}>
          <tbody>
            <tr>
              <th>Total</th>
              <TotalCell tree={tree} node={node} />
            </tr>
            <tr>
              <th>Self</th>
              <td>
                {formatValue(tree.self[node], unit)} ({formatPercent(tree.total[0] > 0 ? tree.self[node] / tree.total[0] : 0)})
              </td>
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A side's total of the node and its share of that side's total. */
function TotalCell({ tree, node, right = false }: { tree: Tree; node: number; right?: boolean }) {
  const total = right ? tree.totalRight! : tree.total;
  return (
    <td>
      {formatValue(total[node], tree.unit)} ({formatPercent(shareOf(tree, node, right))})
    </td>
  );
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
