// The shipped rule pack with every group evaluating every 15s (the baseline's
// 5m and the noise model's 15m included), so a benchmark run sees each group
// evaluate several times within minutes. The cost of one evaluation does not
// depend on the interval. The noise group keeps the shipped windows of its
// 15m interval (the lookbacks of its own series, 2 intervals): its history is
// backfilled 15m apart, as the shipped group samples it, and a 30s lookback
// 6h ago would find none of it.
local mixin = (import 'mixin.libsonnet') + {
  _config+:: { evaluationInterval: '15s', baselineInterval: '15s', regressionNoiseInterval: '15m' },
};
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [
      if g.name == 'hotpath-noise' then g { interval: '15s' } else g
      for g in super.groups
    ],
  },
})
