// The shipped mixin in Kubernetes mode: CPU from cAdvisor's per-container
// counter, joined to services through (namespace, pod). For cadvisor.yaml.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { cpuSource: 'cadvisor' } }
)
