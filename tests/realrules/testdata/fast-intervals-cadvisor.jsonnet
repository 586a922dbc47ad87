// fast-intervals.jsonnet with every service's CPU from cAdvisor (cpuSource:
// cadvisor), joined to services through (namespace, pod). Only the intervals,
// the request sources and the CPU source differ from the shipped rules.
local mixin = (import 'mixin.libsonnet') + { _config+:: {
  evaluationInterval: '2s',
  functionEvaluationInterval: '2s',
  baselineInterval: '4s',
  regressionNoiseInterval: '15m',
  requestsFrom+: { istio: true, linkerd: true, ingressNginx: true },
  cpuSource: 'cadvisor',
} };
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [
      if std.member(['hotpath-noise', 'hotpath-functions-model', 'hotpath-functions-noise'], g.name) then g { interval: '4s' } else g
      for g in super.groups
    ],
  },
})
