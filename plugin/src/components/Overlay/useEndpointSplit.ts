import { DataFrame, DataQueryResponse, LoadingState } from '@grafana/data';
import { getDataSourceSrv } from '@grafana/runtime';
import { useEffect, useMemo, useState } from 'react';
import { from, mergeMap, ObservableInput } from 'rxjs';

import { endpointMatcher, EndpointSplit, splitByEndpoint, TimeWindow } from '@hotpath/profile-core';

import { ProfileQuery } from '../../windows/fetcher';
import { endpointRequest, frameGroups } from '../../windows/endpoints';

export interface EndpointState {
  /** the split of the range's profile, once it answered */
  split?: EndpointSplit;
  /** loading, or why there is no split */
  status: 'off' | 'loading' | 'done' | 'error';
  message?: string;
  /** the matcher that narrows a window's profile query to the endpoint picked ('' for none) */
  matcher: string;
}

/**
 * The profile split by endpoint over the dashboard range (windows/endpoints.ts): asked once per
 * query and range while `enabled`, and the matcher of the endpoint picked. An endpoint the range's
 * profile does not have narrows nothing and says so.
 */
export function useEndpointSplit(query: ProfileQuery | undefined, range: TimeWindow, labels: string[], enabled: boolean, endpoint: string | undefined): EndpointState {
  const [answer, setAnswer] = useState<{ key: string; split?: EndpointSplit; error?: string }>();
  const key = enabled && query ? `${query.key}|${range.from}|${range.to}|${labels.join(',')}` : '';
  useEffect(() => {
    if (!key || !query) {
      return;
    }
    const request = endpointRequest(query, range, labels);
    const ref = query.target.datasource ?? null;
    let last: DataQueryResponse | undefined;
    const finish = (r: DataQueryResponse | undefined) => {
      const err = r?.errors?.[0];
      setAnswer(err ? { key, error: err.message ?? 'the query failed' } : { key, split: splitByEndpoint(frameGroups((r?.data ?? []) as DataFrame[]), labels) });
    };
    const sub = from(getDataSourceSrv().get(ref, request.scopedVars))
      .pipe(mergeMap((ds) => ds.query(request) as ObservableInput<DataQueryResponse>))
      .subscribe({
        next: (r) => {
          last = r;
          if (r.state !== LoadingState.Loading && r.state !== LoadingState.Streaming) {
            finish(r);
          }
        },
        error: (e: unknown) => setAnswer({ key, error: (e as Error)?.message ?? String(e) }),
        complete: () => finish(last),
      });
    return () => sub.unsubscribe();
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return useMemo(() => {
    if (!key) {
      return { status: 'off', matcher: '' };
    }
    if (answer?.key !== key) {
      return { status: 'loading', matcher: '' };
    }
    if (!answer.split) {
      return { status: 'error', message: `The profile by endpoint failed: ${answer.error}`, matcher: '' };
    }
    const e = endpoint ? answer.split.endpoints.find((x) => x.endpoint === endpoint) : undefined;
    const matcher = e ? endpointMatcher(e) ?? '' : '';
    const message = endpoint && !e ? `No samples of endpoint ${endpoint} in the dashboard range (labels ${labels.join(', ')}): the windows show the whole profile.` : undefined;
    return { status: 'done', split: answer.split, matcher, message };
  }, [key, answer, endpoint, labels]);
}
