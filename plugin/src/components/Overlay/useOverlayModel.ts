import { dateTimeFormat, InterpolateFunction, LoadingState, PanelProps, ScopedVars } from '@grafana/data';
import { config } from '@grafana/runtime';
import { useCallback, useEffect, useMemo } from 'react';

import { DEFAULT_OPTIONS, HotpathOptions } from '../../options';
import { Baseline, BaselineMode, diffTrees, formatDuration, isDiff, limitNodes, noCount, ProfileErrorKind, RequestCount, RequestCounts, resolveBaseline, selectProfile, TimeWindow, Tree, ValueUnit, windowAt } from '@hotpath/profile-core';
import { endpointLabels } from '../../windows/endpoints';
import { labelMatcher, ProfileQuery } from '../../windows/fetcher';
import { DRILLDOWN_APP, drilldownUrl, exploreUrl, LinkQuery } from '../../windows/links';
import { findProfileTarget, linkQuery, profileQuery, profileQueryProblem, QueryProblem } from '../../windows/query';
import { countRequests, findRequestSeries } from '../../windows/requests';
import { anomalyWindows, readStripData } from '../../windows/series';
import { UrlState } from '../../windows/urlState';
import { VIEWS, ViewKind } from '../types';
import { PROFILE_ERROR_TITLES } from './ErrorView';

import { rangeTruncation, tableSide, useExactTables } from './exactTables';
import { useEndpointSplit } from './useEndpointSplit';
import { useUrlState } from './useUrlState';
import { useWindowProfiles } from './useWindowProfiles';

const HEADER = 32;
const STATUS = 28;
const NO_WINDOW = noCount('no-window');

/**
 * Everything the overlay derives from its props and the URL: the windows and their baseline,
 * the profiles to fetch and show, each window's requests, the unit the views show and why, the
 * links out and the layout's heights. The view (OverlayPanel) only lays these out.
 */
export function useOverlayModel(props: PanelProps<HotpathOptions>) {
  const { data, height, timeRange, timeZone, replaceVariables } = props;
  const opts = useMemo(() => ({ ...DEFAULT_OPTIONS, ...props.options }), [props.options]);
  const range: TimeWindow = useMemo(() => ({ from: timeRange.from.valueOf(), to: timeRange.to.valueOf() }), [timeRange]);

  const stripData = useMemo(
    () => readStripData(data?.series, data?.annotations, { seriesRefIds: opts.seriesRefIds ?? [], anomalyRefId: opts.anomalyRefId, intervalMs: data?.request?.intervalMs }),
    [data?.series, data?.annotations, opts.seriesRefIds, opts.anomalyRefId, data?.request?.intervalMs]
  );
  const anomalies = useMemo(() => anomalyWindows(stripData), [stripData]);

  const [url, setUrl] = useUrlState();
  const selection = url.state.window ?? null;
  const windows = useBaselineWindow(url.state, opts, anomalies, selection);
  const update = useCallback((patch: Partial<UrlState>) => setUrl({ ...url.state, ...patch }), [setUrl, url.state]);
  // the selection goes; the view, unit, instance, endpoint and a named baseline mode stay
  const clear = useCallback(
    () => setUrl({ view: url.state.view, unit: url.state.unit, instance: url.state.instance, endpoint: url.state.endpoint, baseline: typeof url.state.baseline === 'string' ? url.state.baseline : undefined }),
    [setUrl, url.state]
  );

  // An alert link names a moment (hotpath-at): once the strip's data is in, select the anomaly
  // around it and keep that window in the URL instead
  const loaded = data?.state !== LoadingState.Loading && data?.state !== LoadingState.Streaming;
  useAlertMoment(url.state, setUrl, loaded, anomalies, range);

  const describe = useCallback((w: TimeWindow) => describeWindow(w, timeZone), [timeZone]);

  const target = useMemo(() => findProfileTarget(data?.request, opts.profileRefId, data?.series), [data?.request, opts.profileRefId, data?.series]);
  // what keeps the profile query from running (no query, no datasource, no profile type): said in its place, and nothing is fetched
  const setup: QueryProblem | undefined = useMemo(
    () => (target.ok ? profileQueryProblem(target.target, replaceVariables, data?.request?.scopedVars) : { title: 'No profile query', message: target.message }),
    [target, replaceVariables, data?.request?.scopedVars]
  );
  const runnable = target.ok && !setup;
  const query = useMemo(() => (runnable ? profileQuery(target.target, data?.request, replaceVariables) : undefined), [runnable, target, data?.request, replaceVariables]);
  // Pyroscope's truncated answers: the tables read the same window again at Max nodes (exactTables.ts)
  const rangeCut = useMemo(() => (selection ? undefined : rangeTruncation(data?.series, opts.profileRefId, opts.baselineRefId)), [selection, data?.series, opts.profileRefId, opts.baselineRefId]);
  const exact = useMemo(() => ({ maxNodes: opts.maxNodes, range: rangeCut?.truncated && !rangeCut.fixed ? range : null }), [opts.maxNodes, rangeCut, range]);
  const endpoint = url.state.endpoint;
  const { endpoints, matchers, windowQuery } = useEndpointFilter(query, range, opts.endpointLabels, endpoint, windows.matchers);
  const profiles = useWindowProfiles(windowQuery, selection, windows.baseline?.window ?? null, describe, matchers, exact);
  const { requests, haveRequestSeries } = useRequestCounts(props, opts, range, selection, windows, endpoint);

  const whole = useMemo(
    () => selectProfile(data?.series, { profileRefId: opts.profileRefId, baselineRefId: opts.baselineRefId, maxNodes: opts.maxNodes }),
    [data?.series, opts.profileRefId, opts.baselineRefId, opts.maxNodes]
  );
  const compTree = profiles.comparison?.status === 'done' ? profiles.comparison.tree : undefined;
  const baseTree = profiles.baseline?.status === 'done' ? profiles.baseline.tree : undefined;
  const limitedComp = useLimited(compTree, opts.maxNodes);
  const limitedBase = useLimited(baseTree, opts.maxNodes);
  const diff = useMemo(() => (compTree && baseTree ? limitNodes(diffTrees(baseTree, compTree), opts.maxNodes) : undefined), [compTree, baseTree, opts.maxNodes]);
  const tables = useExactTables(profiles, diff, opts.maxNodes);
  const rangeTables = useMemo(() => {
    const side = tableSide(rangeCut, undefined, profiles.rangeExact, opts.maxNodes);
    return { comparison: side.tree, notice: side.notice };
  }, [rangeCut, profiles.rangeExact, opts.maxNodes]);

  const links = useOutLinks(runnable ? target.target : undefined, replaceVariables, data?.request?.scopedVars, selection ?? range, selection ? windows.baseline?.window : undefined);

  // a strip without series still selects windows, but only when a profile query can re-run for them
  const showStrip = (opts.stripHeight ?? DEFAULT_OPTIONS.stripHeight) > 0 && (stripData.series.length > 0 || stripData.anomalies.length > 0 || target.ok);
  const stripHeight = showStrip ? Math.max(0, Math.round(opts.stripHeight ?? DEFAULT_OPTIONS.stripHeight)) : 0;
  const areaHeight = Math.max(60, height - HEADER - stripHeight - STATUS);
  const canCompare = !!selection && !!windows.baseline;
  // Without a selection the dashboard range's profile shows; when the query runner returned a diff
  // (a Pyroscope diff query, or a baseline query), the view buttons say Diff, not Flame graph
  const wholeIsDiff = !selection && whole.ok && isDiff(whole.selected.tree);
  const view: ViewKind = url.state.view ?? 'flame';
  const shownView: ViewKind = canCompare ? view : wholeIsDiff ? 'diff' : 'flame';
  const disabledViews: ViewKind[] = canCompare ? [] : VIEWS.filter((v) => v !== shownView);
  const units = useUnit(url.state.unit, requests, haveRequestSeries, selection, shownView, offRange(windows.baseline, range));

  const wholeError = useMemo(() => {
    if (whole.ok) {
      return undefined;
    }
    const q = target.ok ? linkQuery(target.target, replaceVariables, data?.request?.scopedVars) : undefined;
    // without the query runner's request (no targets) the frames are all there is to judge
    const asked = data?.request?.targets?.length ? setup : undefined;
    return wholeProfileError(whole.error.kind, whole.error.message, data?.errors, q?.refId ?? opts.profileRefId, asked, q);
  }, [whole, target, replaceVariables, data?.request, data?.errors, setup, opts.profileRefId]);

  return {
    opts,
    range,
    stripData,
    anomalies,
    url,
    update,
    clear,
    selection,
    ...windows,
    view,
    shownView,
    disabledViews,
    describe,
    target,
    setup,
    profiles,
    requests,
    whole,
    wholeError,
    limitedComp,
    limitedBase,
    diff,
    tables,
    rangeTables,
    links,
    endpoint,
    endpoints,
    showStrip,
    stripHeight,
    areaHeight,
    heights: { header: HEADER, status: STATUS },
    ...units,
  };
}

export type OverlayModel = ReturnType<typeof useOverlayModel>;

type Options = HotpathOptions & typeof DEFAULT_OPTIONS;

/**
 * The baseline of the selection as the URL and the options ask for it. Siblings: the same window
 * on the other instances, through label matchers; without an instance there is no baseline.
 */
function useBaselineWindow(state: UrlState, opts: Options, anomalies: TimeWindow[], selection: TimeWindow | null) {
  const requestedBaseline = state.baseline;
  const resolved: Baseline | null = useMemo(
    () => resolveBaseline(selection, requestedBaseline, opts.baselineMode, anomalies),
    [selection, requestedBaseline, opts.baselineMode, anomalies]
  );
  const instance = state.instance;
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
  return { baseline, siblings, instance, siblingLabel, matchers, mode };
}

/**
 * Each window's requests: the request-rate series integrated over it (windows/requests.ts). The
 * siblings baseline counts one instance against the others: a per-instance query when the panel
 * has one (the service dashboard's F), else the request-rate series split by the label.
 */
function useRequestCounts(
  { data }: PanelProps<HotpathOptions>,
  opts: Options,
  range: TimeWindow,
  selection: TimeWindow | null,
  { siblings, instance, baseline, siblingLabel }: ReturnType<typeof useBaselineWindow>,
  endpoint?: string
) {
  const targets = data?.request?.targets;
  const serviceSeries = useMemo(() => findRequestSeries(data?.series, opts.requestsRefId, targets), [data?.series, opts.requestsRefId, targets]);
  // an endpoint's requests are its route's (the per-endpoint query, label endpoint), never the service's
  const requestSeries = useMemo(() => {
    if (!endpoint) {
      return serviceSeries;
    }
    const all = opts.endpointRequestsRefId ? findRequestSeries(data?.series, opts.endpointRequestsRefId, targets) : [];
    return all.filter((s) => s.field.labels?.endpoint === endpoint);
  }, [endpoint, serviceSeries, data?.series, opts.endpointRequestsRefId, targets]);
  const instanceSeries = useMemo(
    () => (opts.instanceRequestsRefId ? findRequestSeries(data?.series, opts.instanceRequestsRefId, targets) : requestSeries),
    [data?.series, opts.instanceRequestsRefId, targets, requestSeries]
  );
  const counts: RequestCounts = useMemo(() => {
    const all = (w: TimeWindow | null | undefined) => (w ? countRequests(requestSeries, w) : NO_WINDOW);
    if (!selection) {
      return { comparison: all(range), baseline: NO_WINDOW };
    }
    if (siblings && instance && baseline) {
      return {
        comparison: countRequests(instanceSeries, selection, (l) => l[siblingLabel] === instance, `request-rate series with ${siblingLabel}="${instance}"`),
        baseline: countRequests(instanceSeries, baseline.window, (l) => l[siblingLabel] !== undefined && l[siblingLabel] !== instance, `request-rate series of the other instances (label ${siblingLabel})`),
      };
    }
    return { comparison: all(selection), baseline: all(baseline?.window) };
  }, [requestSeries, instanceSeries, selection, range, siblings, instance, baseline, siblingLabel]);
  return { requests: counts, haveRequestSeries: requestSeries.length > 0 };
}

/**
 * The unit the views show: per request is the default when the windows shown have request
 * counts; otherwise share, and the notice says why.
 */
function useUnit(asked: ValueUnit | undefined, requests: RequestCounts, haveSeries: boolean, selection: TimeWindow | null, shownView: ViewKind, baselineOffRange?: string) {
  const needsBaseline = selection !== null && shownView !== 'flame';
  const missing: RequestCount | undefined = !requests.comparison.ok ? requests.comparison : needsBaseline && !requests.baseline.ok ? requests.baseline : undefined;
  const missingWhere = missing === requests.comparison ? (selection ? 'Selection' : 'Dashboard range') : 'Baseline';
  const unit: ValueUnit = asked === 'per-request' || asked === undefined ? (missing ? 'share' : 'per-request') : asked;
  const unitNotice =
    unit === 'share' && (asked === 'per-request' || (asked === undefined && haveSeries)) && missing && !missing.ok
      ? missingWhere === 'Baseline' && missing.reason === 'no-samples' && baselineOffRange
        ? `Showing shares: no request count for the baseline (${baselineOffRange}), outside the dashboard range. Widen the time range to include it, or pick a baseline on the strip.`
        : `Per request: ${missingWhere.toLowerCase()}: ${missing.message}. Showing shares.`
      : // without a window selected the panel is the plain profile it always was: no notice
        selection && asked === undefined && !haveSeries
        ? 'No request-rate series in the panel\'s queries (a req/s query, or the Request-rate query option): per request is off, showing shares.'
        : undefined;
  return { unit, perRequestMissing: !!missing, unitNotice };
}

/** Once the strip's data is in, an alert link's moment (hotpath-at) becomes the anomaly window around it (unless a window is already named). */
function useAlertMoment(state: UrlState, setUrl: (s: UrlState) => void, loaded: boolean, anomalies: TimeWindow[], range: TimeWindow) {
  const at = state.at;
  useEffect(() => {
    if (at === undefined || !loaded) {
      return;
    }
    const hit = state.window ? null : windowAt(at, anomalies, range);
    setUrl({ ...state, at: undefined, window: state.window ?? hit?.window });
  }, [at, loaded, anomalies, range, state, setUrl]);
}

/** The links out for the shown window (and its baseline): Explore always, Profiles Drilldown when the app is installed; none without a runnable query. */
function useOutLinks(target: Parameters<typeof linkQuery>[0] | undefined, replaceVariables: InterpolateFunction, scopedVars: ScopedVars | undefined, w: TimeWindow, b: TimeWindow | undefined) {
  return useMemo(() => {
    if (!target) {
      return undefined;
    }
    const q = linkQuery(target, replaceVariables, scopedVars);
    // Grafana's boot config lists the app plugins installed and enabled (config.apps, by id): elsewhere the link would open "App not found"
    const drilldown = config.apps?.[DRILLDOWN_APP] ? drilldownUrl(q, w, b, { appSubUrl: config.appSubUrl }) : undefined;
    return { explore: exploreUrl(q, w, b, { appSubUrl: config.appSubUrl }), drilldown };
  }, [target, replaceVariables, scopedVars, w, b]);
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

/**
 * One endpoint (hotpath-endpoint): the profile split by endpoint, and each window's matchers with
 * the endpoint's added (a selector takes a list of them). The windows wait for the matcher (no
 * query) rather than fetch the whole profile first.
 */
function useEndpointFilter(query: ProfileQuery | undefined, range: TimeWindow, option: string, endpoint: string | undefined, m: { comparison: string; baseline: string }) {
  const labels = useMemo(() => endpointLabels(option), [option]);
  const endpoints = useEndpointSplit(query, range, labels, !!option || !!endpoint, endpoint);
  const matchers = useMemo(() => {
    const and = (x: string) => (x ? `${x}, ${endpoints.matcher}` : endpoints.matcher);
    return endpoints.matcher ? { comparison: and(m.comparison), baseline: and(m.baseline) } : m;
  }, [m, endpoints.matcher]);
  return { endpoints, matchers, windowQuery: endpoint && endpoints.status === 'loading' ? undefined : query };
}

/** The baseline's reason when it lies outside the dashboard range (a day or a week earlier): the request-rate series does not reach it. */
function offRange(baseline: Baseline | null, range: TimeWindow): string | undefined {
  return baseline && (baseline.window.to <= range.from || baseline.window.from >= range.to) ? baseline.reason : undefined;
}

/**
 * Why the dashboard range has no profile to draw, naming what to change: the query failed; it
 * cannot run (setup: no query, no datasource, no profile type); it ran and found no samples;
 * or the frames are not a profile.
 */
function wholeProfileError(
  kind: ProfileErrorKind,
  message: string,
  errors: Array<{ message?: string; refId?: string }> | undefined,
  refId: string,
  setup: QueryProblem | undefined,
  query: LinkQuery | undefined
): QueryProblem {
  const err = errors?.find((e) => e.refId === refId) ?? errors?.find((e) => !e.refId);
  const noFrame = kind === 'no-data' || kind === 'wrong-type';
  // the profile query failed, and so there is no profile frame (only the time series)
  if (err?.message && noFrame) {
    return { title: 'The profile query failed', message: `${err.refId ? `Query ${err.refId}: ` : ''}${err.message}` };
  }
  if (setup && noFrame) {
    return setup;
  }
  if (kind === 'empty' && query) {
    return {
      title: 'No samples in the dashboard range',
      message: `Query ${query.refId} found no samples${query.profileTypeId ? ` of ${query.profileTypeId}` : ''} for ${query.labelSelector || '{}'} in this range: widen the time range, or check the query's labels and profile type (edit the panel).`,
    };
  }
  if (noFrame && query) {
    return { title: `No profile from query ${query.refId}`, message: `${message} Check that its datasource is a Pyroscope datasource and that it names a profile type (edit the panel).` };
  }
  return { title: PROFILE_ERROR_TITLES[kind], message };
}
