// fast-intervals.jsonnet in Kubernetes mode (cpuSource: cadvisor): CPU from
// cAdvisor joined to services through (namespace, pod). Only the intervals
// and the CPU source differ from the shipped rules.
local mixin = (import 'mixin.libsonnet') + { _config+:: { evaluationInterval: '2s', baselineInterval: '4s', regressionNoiseInterval: '15m', cpuSource: 'cadvisor' } };
(import 'lib/render.libsonnet')(mixin {
  prometheusRules+:: {
    groups: [
      if std.member(['hotpath-noise', 'hotpath-functions-noise'], g.name) then g { interval: '4s' } else g
      for g in super.groups
    ],
  },
})
