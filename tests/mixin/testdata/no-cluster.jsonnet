// No cluster label at all (a single-cluster Prometheus), with a static edge.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { clusterLabel: '', staticUpstreams: { api: ['cache'] } } }
)
