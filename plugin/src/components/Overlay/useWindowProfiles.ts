import { getDataSourceSrv } from '@grafana/runtime';
import { useEffect, useReducer, useState } from 'react';

import { ProfileLoader, ProfileQuery, Slot, WindowProfile } from '../../windows/fetcher';
import { TimeWindow } from '@hotpath/profile-core';

export interface WindowProfiles {
  comparison?: WindowProfile;
  baseline?: WindowProfile;
  /** the same windows at `exact.maxNodes`, fetched only when Pyroscope truncated the first answer */
  comparisonExact?: WindowProfile;
  baselineExact?: WindowProfile;
  /** the dashboard range at `exact.maxNodes` (exact.range: its profile was truncated) */
  rangeExact?: WindowProfile;
  retry: (slot: Slot) => void;
  fetches: number;
}

/**
 * One ProfileLoader per panel instance: points its two slots at the current windows after
 * each render and re-renders when an answer arrives. The loader outlives renders (its cache
 * is the point); it is disposed, cancelling what is in flight, when the panel unmounts.
 */
export function useWindowProfiles(
  query: ProfileQuery | undefined,
  comparison: TimeWindow | null,
  baseline: TimeWindow | null,
  describe: (w: TimeWindow) => string,
  /** label matchers of each slot's query (the siblings baseline); empty: the query as it is */
  matchers: { comparison: string; baseline: string } = { comparison: '', baseline: '' },
  /** exact tables: the node limit to ask for, and the range to fetch again (null: none) */
  exact?: { maxNodes: number; range: TimeWindow | null }
): WindowProfiles {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [loader] = useState(() => new ProfileLoader({ getDataSourceSrv, onChange: bump }));
  useEffect(() => () => loader.dispose(), [loader]);
  useEffect(() => {
    loader.setDescribe(describe);
    loader.setQuery(query);
    loader.load('comparison', query ? comparison : null, matchers.comparison);
    loader.load('baseline', query && comparison ? baseline : null, matchers.baseline);
  }, [loader, query, describe, comparison?.from, comparison?.to, baseline?.from, baseline?.to, matchers.comparison, matchers.baseline]); // eslint-disable-line react-hooks/exhaustive-deps
  // a window Pyroscope truncated is asked again at a larger maxNodes, for the tables
  const cut = (p: WindowProfile | undefined) => p?.status === 'done' && !!p.truncation?.truncated && !!exact;
  const comp = loader.get('comparison');
  const base = loader.get('baseline');
  const compCut = cut(comp);
  const baseCut = cut(base);
  useEffect(() => {
    loader.load('comparisonExact', compCut ? comparison : null, matchers.comparison, exact?.maxNodes);
    loader.load('baselineExact', baseCut ? baseline : null, matchers.baseline, exact?.maxNodes);
    loader.load('rangeExact', exact?.range ?? null, '', exact?.maxNodes);
  }, [loader, query, compCut, baseCut, comparison?.from, comparison?.to, baseline?.from, baseline?.to, matchers.comparison, matchers.baseline, exact?.maxNodes, exact?.range?.from, exact?.range?.to]); // eslint-disable-line react-hooks/exhaustive-deps
  return {
    comparison: comp,
    baseline: base,
    comparisonExact: compCut ? loader.get('comparisonExact') : undefined,
    baselineExact: baseCut ? loader.get('baselineExact') : undefined,
    rangeExact: exact?.range ? loader.get('rangeExact') : undefined,
    retry: (slot) => loader.retry(slot),
    fetches: loader.fetches,
  };
}
