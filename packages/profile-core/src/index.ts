// The profile core: no React, no DOM, only types from @grafana/data. The panel bundles it from
// source; hotpath-notify, the headless renderer and the snapshot CLI import its ESM build (dist/).
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
export * from './callTree';
export * from './formatCount';
export * from './windows';
