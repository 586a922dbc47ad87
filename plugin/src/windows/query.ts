/**
 * The panel's profile query, found in the query runner's request: the target the windows
 * re-run, and its variable-interpolated form for cache keys and links.
 */
import type { DataFrame, DataQueryRequest, InterpolateFunction, ScopedVars } from '@grafana/data';
import type { DataQuery } from '@grafana/schema';

import { isProfileFrame } from '@hotpath/profile-core';

import { ProfileQuery } from './fetcher';
import { LinkQuery } from './links';

const PROFILE_DATASOURCES = /pyroscope|phlare/i;

export type TargetResult = { ok: true; target: DataQuery } | { ok: false; message: string };

/**
 * The profile target: by refId when the option names one; else the target behind the first
 * profile frame; else the first Pyroscope target.
 */
export function findProfileTarget(request: Partial<DataQueryRequest> | undefined, profileRefId: string, series: DataFrame[] | undefined): TargetResult {
  const targets = request?.targets ?? [];
  if (targets.length === 0) {
    return { ok: false, message: 'The panel has no query request to re-run for a window (no targets).' };
  }
  if (profileRefId) {
    const t = targets.find((x) => x.refId === profileRefId);
    return t ? { ok: true, target: t } : {
          ok: false,
          message:
            `The panel has no query ${profileRefId} (Profile query option); its queries: ${targets.map((x) => x.refId).join(', ')}. ` +
            `Add a Pyroscope (profiles) query ${profileRefId} (edit the panel, + Add query), or set the Profile query option to one of these.`,
        };
  }
  const frame = (series ?? []).find(isProfileFrame);
  const byFrame = frame?.refId ? targets.find((x) => x.refId === frame.refId) : undefined;
  const byType = targets.find((x) => PROFILE_DATASOURCES.test(x.datasource?.type ?? ''));
  const t = byFrame ?? byType;
  return t ? { ok: true, target: t } : { ok: false, message: NO_PROFILE_QUERY };
}

const NO_PROFILE_QUERY =
  "None of the panel's queries is a Pyroscope (profiles) query. Add one: edit the panel, + Add query, datasource Grafana Pyroscope " +
  '(on the hotpath dashboards: the Profiles variable, $profiles), a profile type and the service\'s labels; or name it in the Profile query option.';

/** What keeps a profile query from returning a profile, in words that name the setting to change. */
export interface QueryProblem {
  title: string;
  message: string;
}

const unresolved = (s: string | undefined) => !s || /\$/.test(s);

/**
 * Why the profile target cannot return a profile as it stands, before it runs: its datasource
 * names none (a datasource variable with no Pyroscope datasource to pick), or it has no profile
 * type (a Pyroscope query without one returns no profile). Undefined when it can run.
 */
export function profileQueryProblem(target: DataQuery, replace: InterpolateFunction, scopedVars?: ScopedVars): QueryProblem | undefined {
  const q = linkQuery(target, replace, scopedVars);
  const asked = target.datasource?.uid;
  if (asked && unresolved(q.datasource.uid)) {
    const variable = /^\$\{?(\w+)/.exec(asked)?.[1];
    return {
      title: 'No profiles datasource selected',
      message:
        `Query ${q.refId} reads its profiles from ${asked}, which names no datasource. Choose a Pyroscope datasource ` +
        (variable ? `in the dashboard's ${variable} variable (top of the dashboard) or ` : '') +
        `in query ${q.refId}'s datasource picker. None to choose: add one under Connections → Data sources → Grafana Pyroscope.`,
    };
  }
  if (PROFILE_DATASOURCES.test(target.datasource?.type ?? '') && unresolved(q.profileTypeId)) {
    const typeVar = (target as DataQuery & { profileTypeId?: string }).profileTypeId;
    return {
      title: 'No profile type',
      message: `Query ${q.refId} names no profile type${typeVar ? ` (${typeVar} is empty)` : ''}: pick one in its Profile type menu (edit the panel), e.g. process_cpu → cpu.`,
    };
  }
  return undefined;
}

export function profileQuery(target: DataQuery, request: Partial<DataQueryRequest> | undefined, replace: InterpolateFunction): ProfileQuery {
  // a hidden profile query (to skip the whole-range fetch) still runs per window
  const { hide: _hide, ...visible } = target as DataQuery & { hide?: boolean };
  const { targets: _targets, ...base } = request ?? {};
  let key: string;
  try {
    key = replace(JSON.stringify(visible), base.scopedVars);
  } catch {
    key = JSON.stringify(visible);
  }
  return { target: visible as DataQuery, base, key };
}

/** The target with variables replaced, for Explore / Profiles Drilldown links. */
export function linkQuery(target: DataQuery, replace: InterpolateFunction, scopedVars?: ScopedVars): LinkQuery {
  const r = (s: unknown) => (typeof s === 'string' ? replace(s, scopedVars) : s);
  const t = target as DataQuery & { labelSelector?: string; profileTypeId?: string };
  const { hide: _hide, ...rest } = t as typeof t & { hide?: boolean };
  return {
    ...rest,
    refId: t.refId,
    datasource: { type: t.datasource?.type, uid: r(t.datasource?.uid) as string | undefined },
    labelSelector: r(t.labelSelector) as string | undefined,
    profileTypeId: r(t.profileTypeId) as string | undefined,
  };
}
