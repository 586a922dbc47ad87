// The dashboards for Grafana in Kubernetes, twice: as ConfigMaps for the
// dashboard sidecar of Grafana's Helm chart (kube-prometheus-stack enables it),
// and as grafana-operator GrafanaDashboards. Install one of the two.
local files = import '../lib/files.libsonnet';

{
  local k = $._config.kubernetes,
  local name(file) = std.strReplace(file, '.json', ''),
  local labels = k.commonLabels { 'app.kubernetes.io/name': 'hotpath-dashboards' },

  kubernetesManifests+:: {
    ['grafana-sidecar/%s.yaml' % name(file)]: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: name(file),
        namespace: k.grafanaNamespace,
        labels: labels + k.dashboardSidecarLabels,
        annotations: { [k.dashboardFolderAnnotation]: k.dashboardFolder },
      },
      data: { [file]: files.dashboardJSON($.grafanaDashboards[file]) },
    }
    for file in std.objectFields($.grafanaDashboards)
  } + {
    ['grafana-operator/%s.yaml' % name(file)]: {
      apiVersion: 'grafana.integreatly.org/v1beta1',
      kind: 'GrafanaDashboard',
      metadata: {
        name: name(file),
        namespace: k.grafanaNamespace,
        labels: labels,
      },
      spec: {
        instanceSelector: k.grafanaInstanceSelector,
        folder: k.dashboardFolder,
        // A Grafana in another namespace than these resources may import them.
        allowCrossNamespaceImport: true,
        json: files.dashboardJSON($.grafanaDashboards[file]),
      },
    }
    for file in std.objectFields($.grafanaDashboards)
  },
}
