import { locationService as defaultLocationService, LocationService } from '@grafana/runtime';
import { useCallback, useMemo, useSyncExternalStore } from 'react';

import { parseUrlState, ParsedUrlState, UrlState, urlMatches, urlUpdate } from '../../windows/urlState';

/**
 * The overlay's windows and view, kept in the dashboard URL through Grafana's locationService
 * (the URL is the only copy: a link, back/forward and another overlay panel all see the same).
 * Updates replace the history entry: dragging does not flood the back button.
 */
export function useUrlState(locationService: LocationService = defaultLocationService): [ParsedUrlState, (next: UrlState) => void] {
  const subscribe = useCallback((onChange: () => void) => locationService.getHistory().listen(onChange), [locationService]);
  const search = useSyncExternalStore(subscribe, () => locationService.getLocation().search);
  const parsed = useMemo(() => parseUrlState(Object.fromEntries(new URLSearchParams(search))), [search]);
  const update = useCallback(
    (next: UrlState) => {
      if (!urlMatches(locationService.getSearchObject(), next)) {
        locationService.partial(urlUpdate(next), true);
      }
    },
    [locationService]
  );
  return [parsed, update];
}
