// The pure data layer: no React, no DOM, only types from @grafana/data. Usable from the panel,
// the browser harness, the snapshot CLI and the demo's stand-in datasource.
export * from './tree';
export * from './frame';
export * from './flamebearer';
export * from './ops';
export * from './pprof';
export * from './pprof-decode';
export * from './summary';
export { fromAscii, toAscii } from './ascii';
export * from './select';
