import { css } from '@emotion/css';
import { GrafanaTheme2 } from '@grafana/data';
import { Button, LoadingPlaceholder, useStyles2 } from '@grafana/ui';
import { useMemo } from 'react';

import { TEST_IDS } from '../../constants';
import { HotpathOptions } from '../../options';
import { changesByUnit, CollapseResult, decompose, DecompositionResult, formatCount, noCount, RequestCount, RequestCounts, Tree, UnitChangeRow, ValueUnit } from '@hotpath/profile-core';
import { WindowProfile, WindowSlot } from '../../windows/fetcher';
import { QueryProblem } from '../../windows/query';
import { ChangesTable } from '../TopTable/ChangesTable';
import { ViewKind } from '../types';
import { ErrorView } from './ErrorView';
import { FlameGraphExplorer } from '../FlameGraphExplorer/FlameGraphExplorer';
import { Headline } from './Headline';

import { ExactTables } from './exactTables';

type Options = Pick<HotpathOptions, 'graphMode' | 'colorScheme' | 'showTable' | 'maxNodes'>;

/** The values' unit (after the fallback to share) and each window's request count. */
interface Units {
  unit: ValueUnit;
  requests?: RequestCounts;
  /** why per request is not shown (no request series, zero requests), when it was wanted */
  unitNotice?: string;
  /** the trees the tables and the headline read (exact when Pyroscope cut the drawn ones), and what is exact */
  tables?: ExactTables;
}
type Props =
  | ({ kind: 'single'; width: number; height: number; options: Options; tree: Tree; notices: string[] } & Units)
  | ({
      kind: ViewKind;
      width: number;
      height: number;
      options: Options;
      comparison?: WindowProfile;
      baseline?: WindowProfile;
      comparisonTree?: CollapseResult;
      baselineTree?: CollapseResult;
      diff?: CollapseResult;
      /** why no profile query can run for a window (undefined: one can) */
      setup?: QueryProblem;
      /** the siblings baseline waits for an instance: the label to name */
      needsInstance?: string;
      onView: (v: ViewKind) => void;
      onRetry: (slot: WindowSlot) => void;
    } & Units);

const countOf = (c: RequestCount | undefined) => (c?.ok ? c.count : undefined);

function foldNotice(r: CollapseResult | undefined, maxNodes: number): string[] {
  return r && r.collapsed > 0 ? [`${formatCount(r.collapsed)} of the lightest nodes are folded into "other" to stay within ${formatCount(maxNodes)} (Max nodes).`] : [];
}

/** Where to look when a window has no samples: another window, or the query's labels. */
const EMPTY_HINTS: Record<string, string> = {
  'selected window': "Drag another window on the strip, or check the profile query's labels and profile type (edit the panel).",
  'baseline window': 'Choose another baseline: a baseline mode above, or Shift-drag on the strip.',
};

/** What a window's profile is while it is not a tree: loading, empty, failed. */
function Pending({ what, profile, setup, onRetry }: { what: string; profile?: WindowProfile; setup?: QueryProblem; onRetry?: () => void }) {
  if (setup) {
    return <ErrorView title={setup.title} message={setup.message} />;
  }
  if (!profile || profile.status === 'loading') {
    return <LoadingPlaceholder text={`Loading the ${what} profile…`} />;
  }
  if (profile.status === 'empty') {
    return <ErrorView title={`No samples in the ${what}`} message={`${profile.message ?? ''} ${EMPTY_HINTS[what] ?? ''}`.trim()} />;
  }
  return (
    <ErrorView title={`The profile of the ${what} could not be loaded`} message={profile.message ?? ''}>
      {onRetry && (
        <Button size="sm" variant="secondary" icon="sync" onClick={onRetry} data-testid={TEST_IDS.retry}>
          Retry
        </Button>
      )}
    </ErrorView>
  );
}

/** The view under the strip: one flame graph, the diff, both side by side, or the changes table. */
export function ProfileArea(props: Props) {
  const styles = useStyles2(getStyles);
  const { width, height: areaHeight, options, unit, requests, unitNotice, tables } = props;
  const diffTree = props.kind !== 'single' ? tables?.diff ?? props.diff?.tree : undefined;
  const wantsHeadline = (props.kind === 'diff' || props.kind === 'changes') && !!diffTree;
  const changes = useMemo(() => (wantsHeadline && diffTree ? changesByUnit(diffTree, unit, unit === 'per-request' ? requests : undefined) : []), [wantsHeadline, diffTree, unit, requests]);
  const decomposition = useMemo(
    () => (wantsHeadline && diffTree ? decompose(diffTree.total[0], diffTree.totalRight![0], requests ?? { baseline: noCount('no-count'), comparison: noCount('no-count') }) : undefined),
    [wantsHeadline, diffTree, requests]
  );
  const top = <AreaNotices unitNotice={unitNotice} tables={tables} headline={decomposition && diffTree ? { decomposition, diffTree, changes, unit } : undefined} />;
  const height = areaHeight - (unitNotice ? 20 : 0) - (tables?.notice ? 20 : 0) - (decomposition ? 22 : 0);
  const explorerUnits = (left?: RequestCount, right?: RequestCount) => ({ unit, requests: { left: countOf(left), right: countOf(right) } });
  if (props.kind === 'single') {
    return (
      <>
        {top}
        <FlameGraphExplorer tree={props.tree} tableTree={tables?.comparison} width={width} height={height} options={options} notices={props.notices} {...explorerUnits(requests?.comparison)} />
      </>
    );
  }
  const { comparison, baseline, comparisonTree, baselineTree, diff, setup, needsInstance } = props;
  const comparisonPending = !comparisonTree && <Pending what="selected window" profile={comparison} setup={setup} onRetry={() => props.onRetry('comparison')} />;
  if (props.kind === 'flame') {
    return comparisonTree ? (
      <>
        {top}
        <FlameGraphExplorer tree={comparisonTree.tree} tableTree={tables?.comparison} width={width} height={height} options={options} notices={foldNotice(comparisonTree, options.maxNodes)} {...explorerUnits(requests?.comparison)} />
      </>
    ) : (
      <>
        {top}
        <div className={styles.center} style={{ height }}>
          {comparisonPending}
        </div>
      </>
    );
  }
  if (!baseline && !setup) {
    return needsInstance ? (
      <ErrorView
        title="Siblings need an instance"
        message={`Type the ${needsInstance} to compare in the box next to the baseline modes (or set hotpath-instance in the URL): its profile is then compared with every other ${needsInstance}'s over the same window.`}
      />
    ) : (
      <ErrorView title="No baseline window" message="Shift-drag on the strip to choose the baseline, or pick a baseline mode." />
    );
  }
  const baselinePending = !baselineTree && <Pending what="baseline window" profile={baseline} setup={setup} onRetry={() => props.onRetry('baseline')} />;
  if (props.kind === 'side') {
    // two graphs side by side: the tables would not fit; the diff view has them
    const column = (tree: CollapseResult | undefined, pending: React.ReactNode, count?: RequestCount, tableTree?: Tree) => ({ tree, pending, tableTree, units: explorerUnits(count) });
    return (
      <>
        {top}
        <SideBySide
          width={width}
          height={height}
          options={options}
          baseline={column(baselineTree, baselinePending, requests?.baseline, tables?.baseline)}
          comparison={column(comparisonTree, comparisonPending, requests?.comparison, tables?.comparison)}
        />
      </>
    );
  }
  if (!diff) {
    return (
      <>
        {top}
        <div className={styles.center} style={{ height }}>
          {comparisonPending || baselinePending}
        </div>
      </>
    );
  }
  if (props.kind === 'changes') {
    return (
      <>
        {top}
        <div className={styles.tableWrap} style={{ height }}>
          <ChangesTable rows={changes} unit={unit} profileUnit={diff.tree.unit} onSelect={() => props.onView('diff')} limit={500} diff={diffTree} requests={requests} />
        </div>
      </>
    );
  }
  // every other view kind (components/types.ts) returned above: a new one does not compile until it does
  props.kind satisfies 'diff';
  return (
    <>
      {top}
      <FlameGraphExplorer tree={diff.tree} tableTree={tables?.diff} width={width} height={height} options={options} notices={foldNotice(diff, options.maxNodes)} {...explorerUnits(requests?.baseline, requests?.comparison)} />
    </>
  );
}

/** Above the view: why per request is off, what Pyroscope cut, and a diff's headline. */
function AreaNotices({ unitNotice, tables, headline }: Pick<Units, 'unitNotice' | 'tables'> & { headline?: { decomposition: DecompositionResult; diffTree: Tree; changes: UnitChangeRow[]; unit: ValueUnit } }) {
  const styles = useStyles2(getStyles);
  return (
    <>
      {unitNotice && (
        <div className={styles.notice} data-testid={TEST_IDS.unitNotice} title={unitNotice}>
          {unitNotice}
        </div>
      )}
      {tables?.notice && (
        <div className={styles.notice} data-testid={TEST_IDS.truncation} title={tables.notice}>
          {tables.notice}
        </div>
      )}
      {headline && <Headline decomposition={headline.decomposition} profileUnit={headline.diffTree.unit} rows={headline.changes} unit={headline.unit} />}
    </>
  );
}

interface SideColumn {
  tree?: CollapseResult;
  /** what shows while the window's profile is not a tree */
  pending: React.ReactNode;
  tableTree?: Tree;
  units: { unit: ValueUnit; requests: { left?: number; right?: number } };
}

/** The baseline and the selection side by side, each a flame graph without tables (they would not fit). */
function SideBySide({ width, height, options, baseline, comparison }: { width: number; height: number; options: Options; baseline: SideColumn; comparison: SideColumn }) {
  const styles = useStyles2(getStyles);
  const half = Math.floor((width - 8) / 2);
  const sideOptions = { ...options, showTable: false };
  const column = (caption: string, c: SideColumn) => (
    <div style={{ width: half }}>
      <div className={styles.caption}>{caption}</div>
      {c.tree ? (
        <FlameGraphExplorer tree={c.tree.tree} tableTree={c.tableTree} width={half} height={height - 18} options={sideOptions} notices={foldNotice(c.tree, options.maxNodes)} {...c.units} />
      ) : (
        <div className={styles.center}>{c.pending}</div>
      )}
    </div>
  );
  return (
    <div className={styles.side} data-testid={TEST_IDS.sideBySide} style={{ height }}>
      {column('Baseline', baseline)}
      {column('Selection', comparison)}
    </div>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  center: css({ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%' }),
  side: css({ display: 'flex', gap: theme.spacing(1), height: '100%' }),
  caption: css({ fontSize: theme.typography.bodySmall.fontSize, color: theme.colors.text.secondary, height: 18 }),
  tableWrap: css({ overflow: 'auto' }),
  notice: css({ color: theme.colors.warning.text, fontSize: theme.typography.bodySmall.fontSize, height: 20, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }),
});
