import { css } from '@emotion/css';
import { dateTimeFormat, GrafanaTheme2, LoadingState, PanelProps } from '@grafana/data';
import { config } from '@grafana/runtime';
import { Button, Input, LinkButton, RadioButtonGroup, useStyles2 } from '@grafana/ui';
import { useCallback, useEffect, useMemo } from 'react';

import { TEST_IDS } from '../../constants';
import { DEFAULT_OPTIONS, HotpathOptions } from '../../options';
import { limitNodes } from '../../data/collapse';
import { diffTrees } from '../../data/mergeDiff';
import { RequestCount, RequestCounts, ValueUnit } from '../../data/perRequest';
import { selectProfile } from '../../data/select';
import { isDiff, Tree } from '../../data/tree';
import { labelMatcher, WindowProfile } from '../../overlay/fetcher';
import { drilldownUrl, exploreUrl } from '../../overlay/links';
import { findProfileTarget, linkQuery, profileQuery } from '../../overlay/query';
import { countRequests, findRequestSeries } from '../../overlay/requests';
import { anomalyWindows, readStripData } from '../../overlay/series';
import { UrlState, ViewKind } from '../../overlay/urlState';
import { Baseline, BaselineMode, formatDuration, resolveBaseline, TimeWindow, windowAt } from '../../overlay/windows';
import { ErrorView, PROFILE_ERROR_TITLES } from '../ErrorView';
import { UNIT_LABELS } from '../format';

import { ProfileArea } from './ProfileArea';
import { TimeStrip } from './TimeStrip';
import { useUrlState } from './useUrlState';
import { useWindowProfiles } from './useWindowProfiles';

const HEADER = 32;
const STATUS = 28;

const VIEW_OPTIONS: Array<{ value: ViewKind; label: string; description: string }> = [
  { value: 'flame', label: 'Flame graph', description: 'The selected window (or the dashboard range)' },
  { value: 'diff', label: 'Diff', description: 'The selected window against its baseline' },
  { value: 'side', label: 'Side by side', description: 'Baseline and selection next to each other' },
  { value: 'changes', label: 'Changes', description: 'The functions whose share changed most' },
];

const MODE_OPTIONS: Array<{ value: BaselineMode; label: string; description: string }> = [
  { value: 'auto', label: 'Auto', description: 'Same length, before the anomaly (or the selection)' },
  { value: 'day', label: '−1d', description: 'The same window one day earlier' },
  { value: 'week', label: '−1w', description: 'The same window one week earlier' },
  { value: 'manual', label: 'Shift-drag', description: 'Drag on the strip with Shift held to choose the baseline' },
  { value: 'siblings', label: 'Siblings', description: 'The same window on every other instance of the service (hotpath-instance names the one to compare)' },
];

const UNIT_OPTIONS: Array<{ value: ValueUnit; label: string; description: string }> = [
  { value: 'per-request', label: UNIT_LABELS['per-request'], description: "Each window's values divided by its requests (the request-rate series integrated over the window)" },
  { value: 'absolute', label: UNIT_LABELS.absolute, description: "The profile's own values: CPU time, bytes" },
  { value: 'share', label: UNIT_LABELS.share, description: "Each side's values as a share of its own total" },
];

const NO_COUNT: RequestCount = { ok: false, message: 'no window' };

/**
 * The overlay: the time-series strip with its windows on top, the profile views below. Owns
 * the windows (through the URL) and the window fetches; the flame graph state lives in the
 * explorer (FlameGraphExplorer) as before.
 */
export function OverlayPanel(props: PanelProps<HotpathOptions>) {
  const { data, width, height, timeRange, timeZone, replaceVariables } = props;
  const opts = useMemo(() => ({ ...DEFAULT_OPTIONS, ...props.options }), [props.options]);
  const styles = useStyles2(getStyles);
  const range: TimeWindow = useMemo(() => ({ from: timeRange.from.valueOf(), to: timeRange.to.valueOf() }), [timeRange]);

  const stripData = useMemo(
    () => readStripData(data?.series, data?.annotations, { seriesRefIds: opts.seriesRefIds ?? [], anomalyRefId: opts.anomalyRefId, intervalMs: data?.request?.intervalMs }),
    [data?.series, data?.annotations, opts.seriesRefIds, opts.anomalyRefId, data?.request?.intervalMs]
  );
  const anomalies = useMemo(() => anomalyWindows(stripData), [stripData]);

  const [url, setUrl] = useUrlState();
  const selection = url.state.window ?? null;
  const requestedBaseline = url.state.baseline;
  const resolved: Baseline | null = useMemo(
    () => resolveBaseline(selection, requestedBaseline, opts.baselineMode, anomalies),
    [selection, requestedBaseline, opts.baselineMode, anomalies]
  );
  // siblings: the same window on the other instances; without an instance there is no baseline
  const instance = url.state.instance;
  const siblingLabel = opts.siblingLabel || DEFAULT_OPTIONS.siblingLabel;
  const siblings = resolved?.source === 'siblings';
  const baseline = siblings && !instance ? null : resolved;
  const matchers = useMemo(
    () =>
      siblings && instance
        ? { comparison: labelMatcher(siblingLabel, '=', instance), baseline: labelMatcher(siblingLabel, '!=', instance) }
        : { comparison: '', baseline: '' },
    [siblings, instance, siblingLabel]
  );
  const mode: BaselineMode = requestedBaseline === undefined ? opts.baselineMode : typeof requestedBaseline === 'string' ? requestedBaseline : 'manual';
  const view: ViewKind = url.state.view ?? 'flame';
  const update = useCallback((patch: Partial<UrlState>) => setUrl({ ...url.state, ...patch }), [setUrl, url.state]);

  // An alert link names a moment (hotpath-at): once the strip's data is in, select the anomaly
  // around it and keep that window in the URL instead
  const at = url.state.at;
  const loaded = data?.state !== LoadingState.Loading && data?.state !== LoadingState.Streaming;
  useEffect(() => {
    if (at === undefined || !loaded) {
      return;
    }
    const hit = url.state.window ? null : windowAt(at, anomalies, range);
    setUrl({ ...url.state, at: undefined, window: url.state.window ?? hit?.window });
  }, [at, loaded, anomalies, range, url.state, setUrl]);

  const describe = useCallback((w: TimeWindow) => describeWindow(w, timeZone), [timeZone]);

  const target = useMemo(() => findProfileTarget(data?.request, opts.profileRefId, data?.series), [data?.request, opts.profileRefId, data?.series]);
  const query = useMemo(() => (target.ok ? profileQuery(target.target, data?.request, replaceVariables) : undefined), [target, data?.request, replaceVariables]);
  const profiles = useWindowProfiles(query, selection, baseline?.window ?? null, describe, matchers);

  // each window's requests: the request-rate series integrated over it (overlay/requests.ts)
  const requestSeries = useMemo(() => findRequestSeries(data?.series, opts.requestsRefId), [data?.series, opts.requestsRefId]);
  // the siblings baseline counts one instance against the others: a per-instance query when the
  // panel has one (the service dashboard's F), else the request-rate series split by the label
  const instanceSeries = useMemo(
    () => (opts.instanceRequestsRefId ? findRequestSeries(data?.series, opts.instanceRequestsRefId) : requestSeries),
    [data?.series, opts.instanceRequestsRefId, requestSeries]
  );
  const requests: RequestCounts = useMemo(() => {
    const all = (w: TimeWindow | null | undefined) => (w ? countRequests(requestSeries, w) : NO_COUNT);
    if (!selection) {
      return { comparison: all(range), baseline: NO_COUNT };
    }
    if (siblings && instance && baseline) {
      return {
        comparison: countRequests(instanceSeries, selection, (l) => l[siblingLabel] === instance, `request-rate series with ${siblingLabel}="${instance}"`),
        baseline: countRequests(instanceSeries, baseline.window, (l) => l[siblingLabel] !== undefined && l[siblingLabel] !== instance, `request-rate series of the other instances (label ${siblingLabel})`),
      };
    }
    return { comparison: all(selection), baseline: all(baseline?.window) };
  }, [requestSeries, instanceSeries, selection, range, siblings, instance, baseline, siblingLabel]);

  const whole = useMemo(
    () => selectProfile(data?.series, { profileRefId: opts.profileRefId, baselineRefId: opts.baselineRefId, maxNodes: opts.maxNodes }),
    [data?.series, opts.profileRefId, opts.baselineRefId, opts.maxNodes]
  );

  const compTree = profiles.comparison?.status === 'done' ? profiles.comparison.tree : undefined;
  const baseTree = profiles.baseline?.status === 'done' ? profiles.baseline.tree : undefined;
  const limitedComp = useLimited(compTree, opts.maxNodes);
  const limitedBase = useLimited(baseTree, opts.maxNodes);
  const diff = useMemo(() => (compTree && baseTree ? limitNodes(diffTrees(baseTree, compTree), opts.maxNodes) : undefined), [compTree, baseTree, opts.maxNodes]);

  const links = useMemo(() => {
    if (!target.ok) {
      return undefined;
    }
    const q = linkQuery(target.target, replaceVariables, data?.request?.scopedVars);
    const w = selection ?? range;
    const b = selection ? baseline?.window : undefined;
    return { explore: exploreUrl(q, w, b, { appSubUrl: config.appSubUrl }), drilldown: drilldownUrl(q, w, b, { appSubUrl: config.appSubUrl }) };
  }, [target, replaceVariables, data?.request?.scopedVars, selection, range, baseline]);

  // a strip without series still selects windows, but only when a profile query can re-run for them
  const showStrip = (opts.stripHeight ?? DEFAULT_OPTIONS.stripHeight) > 0 && (stripData.series.length > 0 || stripData.anomalies.length > 0 || target.ok);
  const stripHeight = showStrip ? Math.max(0, Math.round(opts.stripHeight ?? DEFAULT_OPTIONS.stripHeight)) : 0;
  const areaHeight = Math.max(60, height - HEADER - stripHeight - STATUS);
  const canCompare = !!selection && !!baseline;
  // Without a selection the dashboard range's profile shows; when the query runner returned a diff
  // (a Pyroscope diff query, or a baseline query), the view buttons say Diff, not Flame graph
  const wholeIsDiff = !selection && whole.ok && isDiff(whole.selected.tree);
  const shownView: ViewKind = canCompare ? view : wholeIsDiff ? 'diff' : 'flame';
  const disabledViews: ViewKind[] = canCompare ? [] : VIEW_OPTIONS.map((o) => o.value).filter((v) => v !== shownView);

  // per request is the default when the windows shown have request counts; otherwise share, and the panel says why
  const needsBaseline = selection !== null && shownView !== 'flame';
  const missing = !requests.comparison.ok ? requests.comparison : needsBaseline && !requests.baseline.ok ? requests.baseline : undefined;
  const missingWhere = missing === requests.comparison ? (selection ? 'Selection' : 'Dashboard range') : 'Baseline';
  const unit: ValueUnit = url.state.unit === 'per-request' || url.state.unit === undefined ? (missing ? 'share' : 'per-request') : url.state.unit;
  const unitNotice =
    unit === 'share' && (url.state.unit === 'per-request' || (url.state.unit === undefined && requestSeries.length > 0)) && missing && !missing.ok
      ? `Per request: ${missingWhere.toLowerCase()}: ${missing.message}. Showing shares.`
      : // without a window selected the panel is the plain profile it always was: no notice
        selection && url.state.unit === undefined && requestSeries.length === 0
        ? 'No request-rate series in the panel\'s queries (a req/s query, or the Request-rate query option): per request is off, showing shares.'
        : undefined;

  const wholeError = !whole.ok ? wholeProfileError(whole.error.kind, whole.error.message, data?.errors, target.ok ? target.target.refId : opts.profileRefId) : undefined;

  return (
    <div className={styles.wrap} style={{ width, height }} data-testid={TEST_IDS.overlayPanel}>
      <div className={styles.header} style={{ height: HEADER }}>
        <div data-testid={TEST_IDS.views}>
          <RadioButtonGroup size="sm" options={VIEW_OPTIONS} value={shownView} disabledOptions={disabledViews} onChange={(v) => update({ view: v })} />
        </div>
        <div data-testid={TEST_IDS.units} title="Unit of the values">
          <RadioButtonGroup
            size="sm"
            options={UNIT_OPTIONS}
            value={unit}
            disabledOptions={missing ? ['per-request'] : []}
            onChange={(u) => update({ unit: u as ValueUnit })}
          />
        </div>
        <div data-testid={TEST_IDS.baselineMode} title="Baseline window">
          <RadioButtonGroup
            size="sm"
            options={MODE_OPTIONS}
            value={mode}
            onChange={(m) => update({ baseline: m === opts.baselineMode ? undefined : m })}
          />
        </div>
        {mode === 'siblings' && (
          <div className={styles.instance}>
            <Input
              key={instance ?? ''}
              defaultValue={instance ?? ''}
              placeholder={`${siblingLabel} to compare`}
              title={`The ${siblingLabel} compared with every other one (hotpath-instance)`}
              data-testid={TEST_IDS.instance}
              onBlur={(e) => update({ instance: e.currentTarget.value.trim() || undefined })}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  update({ instance: e.currentTarget.value.trim() || undefined });
                }
              }}
            />
          </div>
        )}
        <span className={styles.spacer} />
        {selection && (
          <Button size="sm" variant="secondary" fill="text" icon="times" onClick={() => setUrl({ view: url.state.view, unit: url.state.unit, instance: url.state.instance, baseline: typeof url.state.baseline === 'string' ? url.state.baseline : undefined })} data-testid={TEST_IDS.clearSelection}>
            Clear
          </Button>
        )}
        {links && (
          <LinkButton size="sm" variant="secondary" fill="text" icon="compass" href={links.explore} target="_blank" rel="noreferrer" data-testid={TEST_IDS.exploreLink}>
            Explore
          </LinkButton>
        )}
        {links?.drilldown && (
          <LinkButton size="sm" variant="secondary" fill="text" icon="fire" href={links.drilldown} target="_blank" rel="noreferrer" data-testid={TEST_IDS.drilldownLink}>
            Profiles Drilldown
          </LinkButton>
        )}
      </div>
      {showStrip && (
        <TimeStrip
          width={width}
          height={stripHeight}
          range={range}
          data={stripData}
          anomalyWindows={anomalies}
          selection={selection}
          baseline={selection ? baseline : null}
          scheme={opts.colorScheme}
          timeZone={timeZone}
          onSelect={(w) => update({ window: w })}
          onBaseline={(w) => update({ baseline: w })}
        />
      )}
      <div className={styles.status} style={{ height: STATUS }} data-testid={TEST_IDS.status}>
        {url.problems.length > 0 && <span className={styles.error}>Ignored from the URL: {url.problems.join('; ')}. </span>}
        {!selection ? (
          <span>
            {`Dashboard range ${describe(range)}. `}
            {stripHeight > 0 ? 'Drag on the strip to select a window (Shift-drag: its baseline), or click an anomaly.' : 'Set hotpath-window in the URL to select a window.'}
          </span>
        ) : (
          <>
            <WindowStatus label="Selection" testId={TEST_IDS.statusComparison} window={selection} profile={profiles.comparison} describe={describe} onRetry={() => profiles.retry('comparison')} />
            {baseline ? (
              <WindowStatus
                label={`Baseline (${baseline.reason})`}
                testId={TEST_IDS.statusBaseline}
                window={baseline.window}
                profile={profiles.baseline}
                describe={describe}
                onRetry={() => profiles.retry('baseline')}
              />
            ) : siblings ? (
              <span data-testid={TEST_IDS.statusBaseline}> · Siblings: name the {siblingLabel} to compare with the others (hotpath-instance).</span>
            ) : (
              <span data-testid={TEST_IDS.statusBaseline}> · No baseline: Shift-drag on the strip to choose one.</span>
            )}
            {!target.ok && <span className={styles.error}> {target.message}</span>}
          </>
        )}
      </div>
      <div style={{ height: areaHeight }}>
        {!selection ? (
          whole.ok ? (
            <ProfileArea
              kind="single"
              width={width}
              height={areaHeight}
              options={opts}
              tree={whole.selected.tree}
              notices={whole.selected.notices}
              unit={isDiff(whole.selected.tree) && unit === 'per-request' ? 'share' : unit}
              requests={requests}
              unitNotice={unitNotice}
            />
          ) : (
            <ErrorView title={wholeError!.title} message={wholeError!.message} />
          )
        ) : (
          <ProfileArea
            kind={view}
            width={width}
            height={areaHeight}
            options={opts}
            comparison={profiles.comparison}
            baseline={baseline ? profiles.baseline : undefined}
            comparisonTree={limitedComp}
            baselineTree={limitedBase}
            diff={diff}
            noTarget={target.ok ? undefined : target.message}
            onView={(v) => update({ view: v })}
            onRetry={profiles.retry}
            unit={unit}
            requests={requests}
            unitNotice={unitNotice}
          />
        )}
      </div>
    </div>
  );
}

function useLimited(tree: Tree | undefined, maxNodes: number) {
  return useMemo(() => (tree ? limitNodes(tree, maxNodes) : undefined), [tree, maxNodes]);
}

export function describeWindow(w: TimeWindow, timeZone: string): string {
  const sameDay = dateTimeFormat(w.from, { timeZone, format: 'YYYY-MM-DD' }) === dateTimeFormat(w.to, { timeZone, format: 'YYYY-MM-DD' });
  const from = dateTimeFormat(w.from, { timeZone, format: 'YYYY-MM-DD HH:mm:ss' });
  const to = dateTimeFormat(w.to, { timeZone, format: sameDay ? 'HH:mm:ss' : 'YYYY-MM-DD HH:mm:ss' });
  return `${from}–${to} (${formatDuration(w.to - w.from)})`;
}

function wholeProfileError(kind: string, message: string, errors: Array<{ message?: string; refId?: string }> | undefined, refId: string) {
  const err = errors?.find((e) => e.refId === refId) ?? errors?.find((e) => !e.refId);
  // the profile query failed, and so there is no profile frame (only the time series)
  if (err?.message && (kind === 'no-data' || kind === 'wrong-type')) {
    return { title: 'The profile query failed', message: `${err.refId ? `Query ${err.refId}: ` : ''}${err.message}` };
  }
  return { title: PROFILE_ERROR_TITLES[kind] ?? 'Invalid profile', message };
}

const STATUS_TEXT: Record<string, string> = { loading: 'loading…', done: 'loaded', empty: 'no samples', error: 'failed' };

/** One window in the status line: its range and a word for its state (the whole message is its tooltip and the view's). */
function WindowStatus(props: { label: string; testId: string; window: TimeWindow; profile?: WindowProfile; describe: (w: TimeWindow) => string; onRetry: () => void }) {
  const { label, testId, window, profile, describe, onRetry } = props;
  const styles = useStyles2(getStyles);
  const status = profile?.status ?? 'loading';
  return (
    <span data-testid={testId} data-status={status} className={styles.windowStatus} title={profile?.message ?? ''}>
      <span className={styles.windowText}>
        <b>{label}</b> {describe(window)}:{' '}
        <span className={status === 'error' ? styles.error : status === 'empty' ? styles.warning : undefined}>{STATUS_TEXT[status]}</span>
      </span>
      {status === 'error' && (
        <Button size="sm" variant="secondary" fill="text" onClick={onRetry} data-testid={TEST_IDS.retry}>
          Retry
        </Button>
      )}
    </span>
  );
}

const getStyles = (theme: GrafanaTheme2) => ({
  wrap: css({ display: 'flex', flexDirection: 'column', overflow: 'hidden' }),
  header: css({ display: 'flex', alignItems: 'center', gap: theme.spacing(1), flexShrink: 0, overflow: 'hidden' }),
  spacer: css({ flex: 1 }),
  instance: css({ width: 130, flexShrink: 0 }),
  status: css({
    display: 'flex',
    alignItems: 'center',
    gap: theme.spacing(1),
    fontSize: theme.typography.bodySmall.fontSize,
    color: theme.colors.text.secondary,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    flexShrink: 0,
  }),
  windowStatus: css({ display: 'flex', alignItems: 'center', minWidth: 0, flex: '0 1 auto' }),
  windowText: css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }),
  error: css({ color: theme.colors.error.text }),
  warning: css({ color: theme.colors.warning.text }),
});
