// The pure data layer: no React, no DOM, only types from @grafana/data. Usable from the panel,
// the browser harness, the snapshot CLI and the demo's stand-in datasource.
export * from './tree';
export * from './frame';
export * from './flamebearer';
export * from './mergeDiff';
export * from './focus';
export * from './collapse';
export * from './search';
export * from './topTable';
export * from './pprof';
export * from './pprof-decode';
export * from './summary';
export { fromAscii, toAscii } from './ascii';
export * from './select';
export * from './perRequest';
export * from './sandwich';
export * from './attribution';
export * from './generate';
export * from './truncation';
export * from './pyroscopeTruncate';
