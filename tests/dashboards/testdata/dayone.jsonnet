// The shipped pack as a platform team turns it on for a fleet whose services
// count no requests of their own: one line, Istio's sidecars count them
// (requestsFrom). For the day-one fleet test, the groups evaluate every few
// seconds (the 1m and 2m groups every 2s, the 5m and 15m ones every 4s) so it
// sees each of them within seconds; windows, thresholds and expressions are the
// shipped ones.
local mixin = (import 'mixin.libsonnet') + { _config+:: {
  requestsFrom+: { istio: true },

  evaluationInterval: '2s',
  functionEvaluationInterval: '2s',
  baselineInterval: '4s',
  regressionNoiseInterval: '15m',
} };
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [
      if std.member(['hotpath-noise', 'hotpath-functions-model', 'hotpath-functions-noise'], g.name) then g { interval: '4s' } else g
      for g in super.groups
    ],
  },
})
