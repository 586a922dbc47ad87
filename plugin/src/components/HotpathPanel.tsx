import { PanelProps } from '@grafana/data';
import { useMemo } from 'react';

import { DEFAULT_OPTIONS, HotpathOptions } from '../constants';
import { selectProfile } from '../data/select';

import { ErrorView } from './ErrorView';
import { FlameGraphExplorer } from './FlameGraphExplorer';

export const HotpathPanelTitles: Record<string, string> = {
  'no-data': 'No profile',
  'missing-field': 'Not a profile frame',
  'wrong-type': 'Not a profile frame',
  'invalid-value': 'Invalid profile',
  order: 'Invalid profile',
  length: 'Invalid profile',
  empty: 'Empty profile',
  mismatch: 'Cannot compare these profiles',
  pprof: 'Invalid pprof',
};

/**
 * The engine's panel (before the overlay): reads the query runner's frames through the pure data layer and hands the tree to
 * the explorer, or says what is wrong with the data. No state of its own.
 */
export function HotpathPanel({ data, options, width, height }: PanelProps<HotpathOptions>) {
  const opts = { ...DEFAULT_OPTIONS, ...options };
  const { profileRefId, baselineRefId, maxNodes } = opts;
  const selected = useMemo(
    () => selectProfile(data?.series, { profileRefId, baselineRefId, maxNodes }),
    [data?.series, profileRefId, baselineRefId, maxNodes]
  );
  if (!selected.ok) {
    const err = data?.errors?.[0];
    if (err?.message && selected.error.kind === 'no-data') {
      return <ErrorView title="The query failed" message={err.message} />;
    }
    return <ErrorView title={HotpathPanelTitles[selected.error.kind] ?? 'Invalid profile'} message={selected.error.message} />;
  }
  return (
    <FlameGraphExplorer
      tree={selected.selected.tree}
      width={width}
      height={height}
      options={opts}
      notices={selected.selected.notices}
    />
  );
}
