import { useMemo } from 'react';

import { isDiff, Tree, ValueUnit } from '@hotpath/profile-core';

import { formatDeltaIn, formatPercent, formatValue } from '../format';

/** The text of a call tree row's value cells, and the change's sign for its colour. */
export interface CellText {
  total: string;
  self: string;
  perRequest: string;
  /** comparison minus baseline in the change's unit (0 for a profile) */
  delta: number;
  change: string;
}

/** The text of a row's value cells; the comparison side for a diff (the baseline in its change). */
export function useCellText(tree: Tree, unit: ValueUnit, requests?: { left?: number; right?: number }): (n: number) => CellText {
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
