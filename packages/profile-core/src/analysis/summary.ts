import { diffTrees } from './mergeDiff';
import { biggestChanges, topTable } from './topTable';
import { Tree } from '../tree/tree';

/** The shape `npm run snapshot` writes to summary.json. Percentages are 0..100. */
export interface ProfileSummary {
  total: number;
  unit: string;
  top: Array<{ function: string; self: number; selfPercent: number; total: number; totalPercent: number }>;
  diff?: {
    top: Array<{ function: string; baselineSelfPercent: number; comparisonSelfPercent: number; deltaPercent: number }>;
  };
}

const pct = (v: number) => Math.round(v * 10000) / 100;

/**
 * Summary of a profile (self and total per function, aggregated by name as Pyroscope does),
 * and with a baseline the biggest changes of self share, comparison minus baseline.
 */
export function summarize(profile: Tree, baseline?: Tree, limit = 20): ProfileSummary {
  const total = profile.size ? profile.total[0] : 0;
  const summary: ProfileSummary = {
    total,
    unit: profile.unit,
    top: topTable(profile)
      .filter((r) => r.name !== profile.names[profile.nameId[0]] || r.self > 0)
      .slice(0, limit)
      .map((r) => ({
        function: r.name,
        self: r.self,
        selfPercent: total > 0 ? pct(r.self / total) : 0,
        total: r.total,
        totalPercent: total > 0 ? pct(r.total / total) : 0,
      })),
  };
  if (baseline) {
    summary.diff = {
      top: biggestChanges(diffTrees(baseline, profile))
        .slice(0, limit)
        .map((r) => ({
          function: r.name,
          baselineSelfPercent: pct(r.baselineSelfShare),
          comparisonSelfPercent: pct(r.comparisonSelfShare),
          deltaPercent: pct(r.delta),
        })),
    };
  }
  return summary;
}
