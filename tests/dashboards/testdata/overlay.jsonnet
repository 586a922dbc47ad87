// The dashboards with every label, variable and uid renamed, as a user with
// another labelling would configure them. overlay_test.go renders this and
// proves no default name is left anywhere.
local mixin = (import 'mixin.libsonnet') + {
  _config+:: {
    serviceLabel: 'service',
    instanceLabel: 'target',
    clusterLabel: 'k8s_cluster',
    namespaceLabel: 'k8s_namespace',
    podLabel: 'k8s_pod',
    containerLabel: 'k8s_container',
    prometheusDatasourceVariable: 'metrics',
    profilesDatasourceVariable: 'pyroscope',
    dashboardUIDs: { overview: 'fleet-cpu', service: 'svc-cpu', throttling: 'cfs' },
  },
};
(import 'lib/render.libsonnet')(mixin)
