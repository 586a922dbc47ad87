// Grafana's side: the panel plugin installed from its zip and allowed to load
// unsigned, and the Pyroscope datasource. Values for Grafana's Helm chart and
// for kube-prometheus-stack (which nests that chart under `grafana:`), a
// Grafana resource for grafana-operator (grafanaSnippets: deploy/grafana/,
// merged into your own), and a GrafanaDatasource (kubernetesManifests).
local plugin = std.parseJson(importstr '../../plugin/src/plugin.json');
local pluginPackage = std.parseJson(importstr '../../plugin/package.json');

{
  local k = $._config.kubernetes,
  local g = k.grafana,
  local zipURL = g.pluginZipURL % { version: pluginPackage.version },

  // Unsigned: the plugin is not signed by Grafana Labs (community signing
  // needs a grafana.com publication; a private signature needs the Grafana
  // root URLs it may run on). Grafana refuses an unsigned plugin unless its id
  // is listed here.
  local grafanaIni = { plugins: { allow_loading_unsigned_plugins: plugin.id } },

  local datasource = {
    name: g.pyroscopeDatasource.name,
    uid: g.pyroscopeDatasource.uid,
    type: 'grafana-pyroscope-datasource',
    access: 'proxy',
    url: k.pyroscopeURL,
  },

  // kube-prometheus-stack's sidecar, configured as the ConfigMaps expect.
  local sidecar = {
    dashboards: {
      enabled: true,
      label: std.objectFields(k.dashboardSidecarLabels)[0],
      labelValue: std.objectValues(k.dashboardSidecarLabels)[0],
      folderAnnotation: k.dashboardFolderAnnotation,
      provider: { foldersFromFilesStructure: true },
    },
  },
  assert std.length(k.dashboardSidecarLabels) == 1 : 'kubernetes.dashboardSidecarLabels: the sidecar finds dashboards by one label, got %s' % std.toString(k.dashboardSidecarLabels),

  grafanaSnippets+:: {
    // helm upgrade --install grafana grafana/grafana -f deploy/grafana/helm-values.yaml
    'helm-values.yaml': {
      // "<url>;<plugin id>": the chart's way to install a plugin from a zip.
      plugins: ['%s;%s' % [zipURL, plugin.id]],
      'grafana.ini': grafanaIni,
      datasources: { 'datasources.yaml': { apiVersion: 1, datasources: [datasource] } },
      sidecar: sidecar,
    },

    // helm upgrade --install kube-prometheus-stack prometheus-community/kube-prometheus-stack -f ...
    'kube-prometheus-stack-values.yaml': {
      grafana: {
        plugins: ['%s;%s' % [zipURL, plugin.id]],
        'grafana.ini': grafanaIni,
        additionalDataSources: [datasource],
        sidecar: sidecar,
      },
      alertmanager: {
        alertmanagerSpec: {
          // The pack's alerts carry the namespace of the service they are
          // about, not hotpath's: without this the operator narrows the
          // AlertmanagerConfig's route to alerts from its own namespace.
          alertmanagerConfigMatcherStrategy: { type: 'None' },
        },
      },
    },

    // Merge into your Grafana resource: an init container unpacks the zip
    // into the plugins folder (grafana-operator's own plugin install takes
    // grafana.com names only), and the config allows it unsigned.
    'grafana-operator-grafana.yaml': {
      apiVersion: 'grafana.integreatly.org/v1beta1',
      kind: 'Grafana',
      metadata: {
        name: 'grafana',
        namespace: k.grafanaNamespace,
        labels: k.grafanaInstanceSelector.matchLabels,
      },
      spec: {
        config: grafanaIni,
        deployment: {
          spec: {
            template: {
              spec: {
                initContainers: [{
                  name: 'install-hotpath-plugin',
                  image: 'busybox:1.37',
                  command: ['sh', '-c', 'wget -qO /tmp/plugin.zip "$PLUGIN_ZIP_URL" && unzip -o /tmp/plugin.zip -d /var/lib/grafana/plugins'],
                  env: [{ name: 'PLUGIN_ZIP_URL', value: zipURL }],
                  // grafana-operator's data volume, which Grafana mounts at /var/lib/grafana.
                  volumeMounts: [{ name: 'grafana-data', mountPath: '/var/lib/grafana' }],
                }],
              },
            },
          },
        },
      },
    },
  },

  kubernetesManifests+:: {
    'grafana-operator/pyroscope-datasource.yaml': {
      apiVersion: 'grafana.integreatly.org/v1beta1',
      kind: 'GrafanaDatasource',
      metadata: {
        name: 'hotpath-pyroscope',
        namespace: k.grafanaNamespace,
        labels: k.commonLabels { 'app.kubernetes.io/name': 'hotpath-dashboards' },
      },
      spec: {
        instanceSelector: k.grafanaInstanceSelector,
        allowCrossNamespaceImport: true,
        datasource: datasource,
      },
    },
  },
}
