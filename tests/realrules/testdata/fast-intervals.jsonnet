// The shipped rule pack with only its groups' evaluation intervals shortened
// (1m -> 2s, the baseline's 5m -> 4s), so a test sees every group evaluate
// within seconds instead of waiting for a 5m group's first turn. Windows,
// thresholds and expressions are the shipped ones.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { evaluationInterval: '2s', baselineInterval: '4s' } }
)
