import type { DataFrame } from '@grafana/data';

import { isProfileFrame, ProfileError, readOrThrow } from './frame';
import { limitNodes } from '../tree/collapse';
import { formatCount } from '../views/formatCount';
import { diffTrees } from '../analysis/mergeDiff';
import { isDiff, Tree } from '../tree/tree';

export interface SelectOptions {
  profileRefId: string;
  baselineRefId: string;
  maxNodes: number;
}

export interface Selected {
  tree: Tree;
  diff: boolean;
  /** nodes in the profile before limiting */
  originalSize: number;
  /** nodes folded into "other" to stay within maxNodes */
  collapsed: number;
  /** something the panel should say (a missing baseline, folded nodes) */
  notices: string[];
}

export type SelectResult = { ok: true; selected: Selected } | { ok: false; error: ProfileError };

/**
 * Picks the profile (and a baseline) out of a panel's frames and builds what the panel
 * draws: a tree, or the diff of baseline and profile; limited to maxNodes. Never throws for
 * bad input: says what is wrong instead.
 */
export function selectProfile(series: DataFrame[] | undefined, opts: SelectOptions): SelectResult {
  try {
    return { ok: true, selected: selectOrThrow(series ?? [], opts) };
  } catch (e) {
    if (e instanceof ProfileError) {
      return { ok: false, error: e };
    }
    return { ok: false, error: new ProfileError('invalid-value', `Could not read the profile: ${(e as Error).message}`) };
  }
}

function describeFrames(series: DataFrame[]): string {
  return series
    .slice(0, 3)
    .map((f) => `${f.refId ?? f.name ?? 'frame'} (${f.fields.map((x) => x.name).join(', ') || 'no fields'})`)
    .join('; ');
}

function selectOrThrow(series: DataFrame[], opts: SelectOptions): Selected {
  if (series.length === 0) {
    throw new ProfileError('no-data', 'No data: the query returned no frames.');
  }
  const profiles = series.filter(isProfileFrame);
  if (profiles.length === 0) {
    throw new ProfileError(
      'wrong-type',
      `None of the ${series.length} frame${series.length > 1 ? 's' : ''} is a profile: this panel needs the nested-set frame ` +
        `of a Pyroscope profile query (fields level, value, self, label). Got: ${describeFrames(series)}.`
    );
  }
  const notices: string[] = [];
  const baselineFrame = opts.baselineRefId ? profiles.find((f) => f.refId === opts.baselineRefId) : undefined;
  if (opts.baselineRefId && !baselineFrame) {
    notices.push(`The baseline query ${opts.baselineRefId} returned no profile: showing the profile alone.`);
  }
  const candidates = profiles.filter((f) => f !== baselineFrame);
  const profileFrame = opts.profileRefId ? candidates.find((f) => f.refId === opts.profileRefId) : candidates[0];
  if (!profileFrame) {
    throw new ProfileError(
      'no-data',
      opts.profileRefId
        ? `No profile frame from query ${opts.profileRefId} (frames: ${describeFrames(series)}).`
        : 'No profile frame besides the baseline.'
    );
  }
  let tree = readOrThrow(profileFrame);
  if (baselineFrame) {
    const baseline = readOrThrow(baselineFrame);
    if (isDiff(tree) || isDiff(baseline)) {
      throw new ProfileError('mismatch', 'Cannot diff a diff frame against another profile: use two plain profile queries.');
    }
    if (baseline.unit !== tree.unit) {
      throw new ProfileError(
        'mismatch',
        `The baseline is in "${baseline.unit || 'no unit'}" but the profile in "${tree.unit || 'no unit'}": ` +
          'a diff needs two profiles of the same type.'
      );
    }
    tree = diffTrees(baseline, tree);
  }
  if (tree.total[0] === 0 && (!tree.totalRight || tree.totalRight[0] === 0)) {
    throw new ProfileError('empty', 'The profile is empty: no samples in this time range.');
  }
  const originalSize = tree.size;
  const limited = limitNodes(tree, opts.maxNodes);
  if (limited.collapsed > 0) {
    notices.push(
      `${formatCount(originalSize)} nodes: the ${formatCount(limited.collapsed)} lightest are folded into "other" ` +
        `to stay within ${formatCount(opts.maxNodes)} (Max nodes).`
    );
  }
  return { tree: limited.tree, diff: isDiff(limited.tree), originalSize, collapsed: limited.collapsed, notices };
}
