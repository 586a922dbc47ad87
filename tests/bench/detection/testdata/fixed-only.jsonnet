// The shipped pack with the noise path of the regression alerts switched off
// (floors no residual reaches): the alerts fire at the fixed factors alone,
// 1.5x CPU and 2x allocations, as they did before the noise model. The
// detection benchmark's "today" detector.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { cpuRegressionFloor: 1e9, allocRegressionFloor: 1e9 } }
)
