// The shipped rule pack with every group evaluating every 15s (the baseline's
// 5m and the 15m of the noise groups and the function model's included), so
// a benchmark run sees each group evaluate several times within minutes. The
// cost of one evaluation does not depend on the interval. The 15m groups
// keep the shipped windows of their interval (the lookbacks of their own
// series, 2 intervals): their history is backfilled 15m apart, as the
// shipped groups sample it, and a 30s lookback 6h ago would find none of it.
// The bench renders an earlier commit's pack with this file too
// (BENCH_BEFORE_REF): it names only the user-facing _config, which every
// version has.
local mixin = (import 'mixin.libsonnet') + {
  _config+:: { evaluationInterval: '15s', baselineInterval: '15s', regressionNoiseInterval: '15m' },
};
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [g { interval: '15s' } for g in super.groups],
  },
})
