// The shipped rule pack with only its groups' evaluation intervals shortened
// (1m and the functions' 2m -> 2s, the baseline's 5m and the noise models'
// 15m -> 4s, the services', the functions' and the endpoints'), so a test sees
// every group evaluate within seconds instead of waiting for a 5m group's
// first turn. Windows, thresholds and expressions are the shipped ones: the
// noise groups' lookbacks of their own series stay those of their shipped 15m
// interval, so the samples a test backfills for them (5m apart) are found 6h
// back.
// Every request source is on (the mesh's and the edge's are off by default):
// a fleet that exports none of their counters records what the shipped pack
// records, and promkit/synth's RealShapes has series of each.
local mixin = (import 'mixin.libsonnet') + { _config+:: {
  evaluationInterval: '2s',
  functionEvaluationInterval: '2s',
  baselineInterval: '4s',
  regressionNoiseInterval: '15m',
  requestsFrom+: { istio: true, linkerd: true, ingressNginx: true },
} };
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [
      if std.member(['hotpath-noise', 'hotpath-functions-model', 'hotpath-functions-noise', 'hotpath-endpoints-noise'], g.name) then g { interval: '4s' } else g
      for g in super.groups
    ],
  },
})
