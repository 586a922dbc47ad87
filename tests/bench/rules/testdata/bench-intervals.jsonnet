// The shipped rule pack with every group evaluating every 15s (the baseline's
// 5m included), so a benchmark run sees each group evaluate several times
// within minutes. The cost of one evaluation does not depend on the interval.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { evaluationInterval: '15s', baselineInterval: '15s' } }
)
