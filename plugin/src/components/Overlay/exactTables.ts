/**
 * Which trees the overlay's tables read, and the line that says what is exact. The flame graph
 * draws each window's answer as Pyroscope gave it (cut to the query's maxNodes, the rest in
 * "other": thin frames, fine to draw). The top table, the changes table and the headline rank
 * functions by self time, which the cut moves into "other": they read the same window fetched
 * again at the panel's Max nodes, and say so.
 */
import { useMemo } from 'react';
import type { DataFrame } from '@grafana/data';

import { CollapseResult, diffTrees, formatCount, frameTruncation, isProfileFrame, otherShare, Tree, Truncation } from '@hotpath/profile-core';
import { WindowProfile } from '../../windows/fetcher';
import { formatPercent } from '../format';

export interface TableSide {
  /** the tree the tables read */
  tree?: Tree;
  /** the tables' values are those of the complete profile (nothing folded into "other") */
  exact: boolean;
  /** what the panel says of this side; undefined when Pyroscope cut nothing */
  notice?: string;
}


/**
 * One side: `drawn` is the answer the flame graph draws (its truncation read from its frame),
 * `tree` that answer before the panel's own folding, `exact` the same window at `maxNodes`.
 */
export function tableSide(drawn: RangeTruncation | undefined, tree: Tree | undefined, exact: WindowProfile | undefined, maxNodes: number): TableSide {
  if (!drawn?.truncated) {
    return { tree, exact: true };
  }
  const cut = `Pyroscope cut the profile: ${formatPercent(otherShare(drawn), 1)} of it is in "other" (the flame graph draws it so)`;
  if (drawn.fixed) {
    return { tree, exact: false, notice: `${cut}; tables NOT exact: a diff of two queries is not asked again (select a window)` };
  }
  if (!exact || exact.status === 'loading') {
    return { tree, exact: false, notice: `${cut}; tables not exact yet, loading it at ${formatCount(maxNodes)} nodes…` };
  }
  if (exact.status !== 'done' || !exact.tree) {
    return { tree, exact: false, notice: `${cut}; tables NOT exact: ${exact.message ?? exact.status}` };
  }
  if (exact.truncation?.truncated) {
    return {
      tree: exact.tree,
      exact: false,
      notice: `${cut}; tables from ${formatCount(maxNodes)} nodes, ${formatPercent(otherShare(exact.truncation), 2)} still in "other": not exact`,
    };
  }
  return { tree: exact.tree, exact: true, notice: `${cut}; tables exact (the complete profile, ${formatCount(exact.tree.size)} nodes)` };
}

/** A truncation; `fixed`: the panel cannot ask for that profile again (a diff of two of its queries). */
export type RangeTruncation = Truncation & { fixed?: boolean };

/** The profile frames the panel shows without a window (as data/select.ts picks them), for their truncation. */
export function rangeTruncation(series: DataFrame[] | undefined, profileRefId: string, baselineRefId: string): RangeTruncation | undefined {
  const profiles = (series ?? []).filter(isProfileFrame);
  const baseline = baselineRefId ? profiles.find((f) => f.refId === baselineRefId) : undefined;
  const frame = profiles.find((f) => f !== baseline && (!profileRefId || f.refId === profileRefId));
  if (!frame) {
    return undefined;
  }
  const t = frameTruncation(frame);
  if (!baseline) {
    return t;
  }
  // a diff of two query-runner frames: only the panel's own query is re-run for a window
  const b = frameTruncation(baseline);
  return { ...t, truncated: t.truncated || b.truncated, other: b.other, total: b.total, otherRight: t.other, totalRight: t.total, fixed: true };
}

export interface ExactTables {
  comparison?: Tree;
  baseline?: Tree;
  diff?: Tree;
  /** one line: what Pyroscope cut, and whether the tables are exact */
  notice?: string;
}

/**
 * The trees the tables read for a selection (comparison, baseline, their diff) and its notice.
 * Reuses the drawn diff when neither side changed (nothing cut, nothing folded).
 */
export function useExactTables(
  profiles: { comparison?: WindowProfile; baseline?: WindowProfile; comparisonExact?: WindowProfile; baselineExact?: WindowProfile },
  drawnDiff: CollapseResult | undefined,
  maxNodes: number
): ExactTables {
  const { comparison, baseline, comparisonExact, baselineExact } = profiles;
  const comp = useMemo(() => tableSide(comparison?.truncation, comparison?.tree, comparisonExact, maxNodes), [comparison, comparisonExact, maxNodes]);
  const base = useMemo(() => tableSide(baseline?.truncation, baseline?.tree, baselineExact, maxNodes), [baseline, baselineExact, maxNodes]);
  const diff = useMemo(() => {
    if (!comp.tree || !base.tree) {
      return undefined;
    }
    const same = comp.tree === comparison?.tree && base.tree === baseline?.tree;
    // the drawn diff, unless the panel folded it for drawing (the tables need every node)
    return same && drawnDiff && drawnDiff.collapsed === 0 ? drawnDiff.tree : diffTrees(base.tree, comp.tree);
  }, [comp.tree, base.tree, comparison?.tree, baseline?.tree, drawnDiff]);
  const notice = [comp.notice && `Selection: ${comp.notice}`, base.notice && `Baseline: ${base.notice}`].filter(Boolean).join(' · ') || undefined;
  return { comparison: comp.tree, baseline: base.tree, diff, notice };
}
