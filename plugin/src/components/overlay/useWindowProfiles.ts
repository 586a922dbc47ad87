import { getDataSourceSrv } from '@grafana/runtime';
import { useEffect, useReducer, useState } from 'react';

import { ProfileLoader, ProfileQuery, WindowProfile } from '../../overlay/fetcher';
import { TimeWindow } from '../../overlay/windows';

export interface WindowProfiles {
  comparison?: WindowProfile;
  baseline?: WindowProfile;
  retry: (slot: 'comparison' | 'baseline') => void;
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
  matchers: { comparison: string; baseline: string } = { comparison: '', baseline: '' }
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
  return { comparison: loader.get('comparison'), baseline: loader.get('baseline'), retry: (slot) => loader.retry(slot), fetches: loader.fetches };
}
