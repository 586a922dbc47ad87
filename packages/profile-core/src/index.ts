// The profile core: no React, no DOM, only types from @grafana/data. The panel bundles it from
// source; hotpath-notify, the headless renderer and the snapshot CLI import its ESM build (dist/).
// The test aids (synthetic and ASCII trees, Pyroscope's truncation reproduced) are not here:
// tests import them from '@hotpath/profile-core/testing' (testing/index.ts).

// readers: the nested-set frame, pprof, Pyroscope's flamebearer, and the panel's pick of its frames
export * from './readers/frame';
export * from './readers/pprof';
export * from './readers/pprof-decode';
export * from './readers/flamebearer';
export * from './readers/select';

// the tree and what gives a tree back: focus, folding into "other"
export * from './tree/tree';
export * from './tree/focus';
export * from './tree/collapse';

// analysis: merge and diff, the top and changes tables, per request, attribution, truncation
export * from './analysis/mergeDiff';
export * from './analysis/topTable';
export * from './analysis/perRequest';
export * from './analysis/attribution';
export * from './analysis/attributedChanges';
export * from './analysis/truncation';
export * from './analysis/summary';

// what the panel's views read: search, the call tree's rows, the sandwich, counts
export * from './views/search';
export * from './views/callTree';
export * from './views/sandwich';
export * from './views/formatCount';

// the two windows the overlay compares and the baseline rule; a window's request count
export * from './windows/windows';
export * from './windows/requestCount';

// a profile split by endpoint (its route labels, normalised to the rule pack's template)
export * from './endpoints/endpoints';
