// Neither a cluster nor a namespace label: services are told apart by name only.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { clusterLabel: '', namespaceLabel: '', cpuSource: 'cadvisor' } }
)
