/**
 * Fetching a profile per window through the panel's own profile query: the same target the
 * query runner ran for the dashboard range, sent to its datasource (getDataSourceSrv()) with
 * the window's range instead.
 *
 * - cached per window (and per query after variables: another service is another key), so
 *   switching views or moving back to a window never re-fetches;
 * - a fetch is cancelled (unsubscribed, which cancels Grafana's HTTP request) when its slot
 *   moves to another window before it answered and no other slot wants it;
 * - results are kept per key, so a late answer for an old window never lands in the slot of a
 *   newer one (out-of-order responses);
 * - loading, empty (no samples) and error states say which window and what failed.
 */
import { DataFrame, DataQueryRequest, DataQueryResponse, dateTime, LoadingState } from '@grafana/data';
import type { DataQuery } from '@grafana/schema';
import type { DataSourceSrv } from '@grafana/runtime';
import { from, mergeMap, ObservableInput, Subscription } from 'rxjs';

import { formatCount, frameTruncation, isProfileFrame, ProfileError, readOrThrow, TimeWindow, Tree, Truncation, withMatcher } from '@hotpath/profile-core';


/**
 * What a loader fetches: each window's profile as the query asks for it, and the same window
 * again at a larger maxNodes for exact tables when Pyroscope truncated the first answer
 * (`…Exact`; `rangeExact` for the dashboard range's profile, which the query runner fetched).
 */
const SLOTS = ['comparison', 'baseline', 'comparisonExact', 'baselineExact', 'rangeExact'] as const;
export type Slot = (typeof SLOTS)[number];
/** The slots of the two windows themselves (what the status line offers to retry). */
export type WindowSlot = Extract<Slot, 'comparison' | 'baseline'>;

export type LoadStatus = 'loading' | 'done' | 'empty' | 'error';

export interface WindowProfile {
  key: string;
  window: TimeWindow;
  status: LoadStatus;
  tree?: Tree;
  /** empty / error: what happened, in a sentence */
  message?: string;
  /** done: whether Pyroscope folded nodes into "other", and how much */
  truncation?: Truncation;
  /** the maxNodes the query asked for (undefined: the query's own) */
  maxNodes?: number;
}

export interface ProfileQuery {
  /** the panel's profile target as the query runner got it (variables not yet replaced) */
  target: DataQuery;
  /** the query runner's request (scopedVars, timezone, dashboard and panel ids, filters) */
  base?: Partial<DataQueryRequest>;
  /** the target after variables, for the cache key (another $job is another profile) */
  key: string;
}

export interface LoaderOptions {
  getDataSourceSrv: () => DataSourceSrv;
  onChange: () => void;
  /** completed entries kept (entries a slot shows are never evicted) */
  maxEntries?: number;
  /** how a window is named in messages */
  describe?: (w: TimeWindow) => string;
}

interface Entry extends WindowProfile {
  sub?: Subscription;
  matcher: string;
}

const EMPTY_SLOTS = (): Record<Slot, string | undefined> => Object.fromEntries(SLOTS.map((s) => [s, undefined])) as Record<Slot, string | undefined>;

// A label selector with one more matcher (the siblings baseline, the endpoint filter): the core's.
export { withMatcher } from '@hotpath/profile-core';

/** `instance="a"` / `instance!="a"`, the value escaped as PromQL (and Pyroscope) strings are. */
export function labelMatcher(label: string, op: '=' | '!=', value: string): string {
  return `${label}${op}"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

let requestCounter = 0;

/** The runner's request with another range and one target (a window's profile, the profile by endpoint). */
export function requestFor(q: ProfileQuery, window: TimeWindow, target: DataQuery, requestId = `hotpath-window-${++requestCounter}`): DataQueryRequest {
  const base = q.base ?? {};
  const fromT = dateTime(window.from);
  const toT = dateTime(window.to);
  const raw = { from: fromT, to: toT };
  return {
    app: base.app ?? 'dashboard',
    requestId,
    timezone: base.timezone ?? 'browser',
    range: { from: fromT, to: toT, raw },
    rangeRaw: raw,
    interval: base.interval ?? '15s',
    intervalMs: base.intervalMs ?? 15000,
    maxDataPoints: base.maxDataPoints,
    scopedVars: base.scopedVars ?? {},
    filters: base.filters,
    dashboardUID: base.dashboardUID,
    panelId: base.panelId,
    panelPluginId: base.panelPluginId,
    targets: [target],
    startTime: Date.now(),
  };
}

/** The DataQueryRequest for one window: the runner's request with the window's range and only the profile target. */
export function windowRequest(q: ProfileQuery, window: TimeWindow, matcher = '', maxNodes?: number): DataQueryRequest {
  // a profile, not its time series: the window's flame graph is all the panel needs
  return requestFor(q, window, {
    ...q.target,
    queryType: 'profile',
    ...(matcher ? { labelSelector: withMatcher((q.target as { labelSelector?: string }).labelSelector, matcher) } : {}),
    // Grafana's Pyroscope query takes maxNodes (16384 when unset); Pyroscope refuses more than its max_flamegraph_nodes_max
    ...(maxNodes !== undefined ? { maxNodes } : {}),
  } as DataQuery);
}

function errorMessage(e: unknown): string {
  if (!e) {
    return 'unknown error';
  }
  if (typeof e === 'string') {
    return e;
  }
  const x = e as { data?: { message?: string; error?: string }; message?: string; status?: number; statusText?: string };
  const msg = x.data?.message ?? x.data?.error ?? x.message ?? x.statusText;
  const status = typeof x.status === 'number' ? `HTTP ${x.status}` : '';
  if (msg && status) {
    return `${status}: ${msg}`;
  }
  return msg ?? status ?? String(e);
}

function describeFrames(frames: DataFrame[]): string {
  return frames
    .slice(0, 3)
    .map((f) => `${f.refId ?? f.name ?? 'frame'} (${f.fields.map((x) => x.name).join(', ') || 'no fields'})`)
    .join('; ');
}

/** The profile tree in a response for one window, or what is wrong with it. Never throws. */
export function readWindowResponse(frames: DataFrame[], refId: string | undefined, where: string): Pick<WindowProfile, 'status' | 'tree' | 'message' | 'truncation'> {
  const profiles = frames.filter(isProfileFrame);
  const frame = profiles.find((f) => f.refId === refId) ?? profiles[0];
  if (!frame) {
    if (frames.length === 0 || frames.every((f) => (f.length ?? 0) === 0)) {
      return { status: 'empty', message: `No samples ${where}.` };
    }
    return { status: 'error', message: `The profile query returned no profile ${where} (frames: ${describeFrames(frames)}).` };
  }
  try {
    const tree = readOrThrow(frame);
    if (tree.total[0] === 0) {
      return { status: 'empty', message: `No samples ${where}.` };
    }
    return { status: 'done', tree, truncation: frameTruncation(frame) };
  } catch (e) {
    if (e instanceof ProfileError && e.kind === 'empty') {
      return { status: 'empty', message: `No samples ${where}.` };
    }
    return { status: 'error', message: `The profile ${where} is invalid: ${(e as Error).message}` };
  }
}

export class ProfileLoader {
  private cache = new Map<string, Entry>();
  private slots: Record<Slot, string | undefined> = EMPTY_SLOTS();
  private query?: ProfileQuery;
  /** fetches started, for tests and the panel's status line */
  fetches = 0;

  constructor(private readonly opts: LoaderOptions) {}


  private describe(w: TimeWindow) {
    return this.opts.describe ? this.opts.describe(w) : `${new Date(w.from).toISOString()} - ${new Date(w.to).toISOString()}`;
  }

  /** How windows are named in messages (the panel's time zone). */
  setDescribe(describe: (w: TimeWindow) => string) {
    this.opts.describe = describe;
  }

  private keyOf(w: TimeWindow, matcher: string, maxNodes?: number) {
    return `${this.query?.key ?? ''}|${w.from}|${w.to}|${matcher}|${maxNodes ?? ''}`;
  }

  setQuery(q: ProfileQuery | undefined) {
    this.query = q;
  }

  get(slot: Slot): WindowProfile | undefined {
    const key = this.slots[slot];
    const e = key !== undefined ? this.cache.get(key) : undefined;
    return e && { key: e.key, window: e.window, status: e.status, tree: e.tree, message: e.message, truncation: e.truncation, maxNodes: e.maxNodes };
  }

  /**
   * Points a slot at a window (null: nothing), fetching it unless cached; `matcher` narrows the
   * query (siblings); `maxNodes` overrides the query's node limit (the exact tables' fetch).
   */
  load(slot: Slot, window: TimeWindow | null, matcher = '', maxNodes?: number) {
    const key = window && this.query ? this.keyOf(window, matcher, maxNodes) : undefined;
    const prev = this.slots[slot];
    if (prev === key) {
      return;
    }
    this.slots[slot] = key;
    if (prev !== undefined) {
      this.release(prev);
    }
    if (key === undefined || !window) {
      this.opts.onChange();
      return;
    }
    const hit = this.cache.get(key);
    if (hit) {
      // most recently used last
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.opts.onChange();
      return;
    }
    this.start(key, window, matcher, maxNodes);
  }

  /** Fetches a slot's window again (after an error). */
  retry(slot: Slot) {
    const key = this.slots[slot];
    const e = key !== undefined ? this.cache.get(key) : undefined;
    if (!e || e.status === 'loading') {
      return;
    }
    this.cache.delete(e.key);
    this.start(e.key, e.window, e.matcher, e.maxNodes);
  }

  /** Cancels what is in flight and forgets everything (the panel unmounted). */
  dispose() {
    this.slots = EMPTY_SLOTS();
    for (const e of this.cache.values()) {
      e.sub?.unsubscribe();
    }
    this.cache.clear();
  }

  private release(key: string) {
    if (this.isShown(key)) {
      return;
    }
    const e = this.cache.get(key);
    if (e && e.status === 'loading') {
      // superseded before it answered: cancel the request
      e.sub?.unsubscribe();
      this.cache.delete(key);
    }
    this.evict();
  }

  private evict() {
    const max = this.opts.maxEntries ?? 16;
    for (const [k, e] of this.cache) {
      if (this.cache.size <= max) {
        break;
      }
      if (e.status !== 'loading' && !this.isShown(k)) {
        this.cache.delete(k);
      }
    }
  }

  private isShown(key: string) {
    return SLOTS.some((s) => this.slots[s] === key);
  }

  private start(key: string, window: TimeWindow, matcher: string, maxNodes?: number) {
    const q = this.query!;
    const where = `in ${this.describe(window)}${matcher ? ` (${matcher})` : ''}${maxNodes !== undefined ? ` at ${formatCount(maxNodes)} nodes` : ''}`;
    const entry: Entry = { key, window, status: 'loading', matcher, maxNodes };
    this.cache.set(key, entry);
    this.fetches++;
    let last: DataQueryResponse | undefined;
    const settle = (patch: Pick<WindowProfile, 'status' | 'tree' | 'message' | 'truncation'>) => {
      // a stale entry (cancelled, retried, evicted) must not come back
      if (this.cache.get(key) !== entry || entry.status !== 'loading') {
        return;
      }
      Object.assign(entry, patch);
      entry.sub = undefined;
      this.evict();
      this.opts.onChange();
    };
    const finish = (response: DataQueryResponse | undefined) => {
      const err = response?.errors?.[0] ?? (response as { error?: unknown } | undefined)?.error;
      if (err) {
        settle({ status: 'error', message: `The profile query failed ${where}: ${errorMessage(err)}` });
        return;
      }
      settle(readWindowResponse((response?.data ?? []) as DataFrame[], q.target.refId, where));
    };
    let srv: DataSourceSrv;
    try {
      srv = this.opts.getDataSourceSrv();
    } catch (e) {
      settle({ status: 'error', message: `No datasource service to query ${where}: ${errorMessage(e)}` });
      return;
    }
    const request = windowRequest(q, window, matcher, maxNodes);
    const ref = q.target.datasource ?? null;
    this.opts.onChange();
    entry.sub = from(
      srv.get(ref, request.scopedVars).catch((e: unknown) => {
        throw new Error(`datasource ${typeof ref === 'object' && ref ? ref.uid ?? ref.type : String(ref)} not found (${errorMessage(e)})`);
      })
    )
      .pipe(mergeMap((ds) => ds.query(request) as ObservableInput<DataQueryResponse>))
      .subscribe({
        next: (response) => {
          last = response;
          if (response.state !== LoadingState.Loading && response.state !== LoadingState.Streaming) {
            finish(response);
          }
        },
        error: (e: unknown) => settle({ status: 'error', message: `The profile query failed ${where}: ${errorMessage(e)}` }),
        complete: () => finish(last),
      });
  }
}
