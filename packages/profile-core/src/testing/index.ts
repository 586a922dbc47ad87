// The core's test aids, for tests and benchmarks only ('@hotpath/profile-core/testing'): the
// public index leaves them out, so the panel's module.js and hotpath-notify never load them.
// (testing/arbitrary.ts, fast-check's random trees, is imported by path by the core's own tests.)
export { fromAscii, toAscii } from './ascii';
export * from './generate';
export * from './pyroscopeTruncate';
export * from './trees';
