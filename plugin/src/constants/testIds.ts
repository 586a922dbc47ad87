/** data-testid values, shared by the component tests and the browser tests (tests/browser). */
export const TEST_IDS = {
  panel: 'hotpath-panel',
  error: 'hotpath-error',
  notice: 'hotpath-notice',
  canvas: 'hotpath-flamegraph-canvas',
  overlay: 'hotpath-flamegraph-overlay',
  tooltip: 'hotpath-tooltip',
  search: 'hotpath-search',
  searchRegex: 'hotpath-search-regex',
  searchShare: 'hotpath-search-share',
  resetFocus: 'hotpath-reset-focus',
  focusPath: 'hotpath-focus-path',
  modeToggle: 'hotpath-mode-toggle',
  topTable: 'hotpath-top-table',
  changesTable: 'hotpath-changes-table',
  legend: 'hotpath-diff-legend',
} as const;
