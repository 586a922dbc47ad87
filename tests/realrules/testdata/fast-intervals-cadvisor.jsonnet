// fast-intervals.jsonnet in Kubernetes mode (cpuSource: cadvisor): CPU from
// cAdvisor joined to services through (namespace, pod). Only the intervals
// and the CPU source differ from the shipped rules.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { evaluationInterval: '2s', baselineInterval: '4s', cpuSource: 'cadvisor' } }
)
