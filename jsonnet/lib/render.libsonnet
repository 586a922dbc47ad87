// Turns a mixin into the files it generates, keyed by path relative to the
// repository root. Used by generate.jsonnet for the shipped artefacts and by the
// overlay tests and the demo with other configs, so all of them render alike.
local importFlavour = import 'import.libsonnet';
local header = '# Generated from jsonnet/ by `make generate`. DO NOT EDIT.\n';

local yaml(obj) = header + std.manifestYamlDoc(obj, indent_array_in_object=true, quote_keys=false) + '\n';

function(mixin) {
  'rules/hotpath-rules.yaml': yaml(mixin.prometheusRules),
  'rules/hotpath-alerts.yaml': yaml(mixin.prometheusAlerts),
  // The same groups for prometheus-operator.
  'rules/hotpath-prometheusrule.yaml': yaml({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'hotpath',
      labels: { 'app.kubernetes.io/name': 'hotpath', 'app.kubernetes.io/part-of': 'hotpath' },
    },
    spec: { groups: mixin.prometheusRules.groups + mixin.prometheusAlerts.groups },
  }),
} + {
  ['dashboards/' + name]: std.manifestJsonEx(mixin.grafanaDashboards[name], '  ') + '\n'
  for name in std.objectFields(mixin.grafanaDashboards)
} + {
  // The same dashboards for Grafana's UI import (lib/import.libsonnet says why).
  ['dashboards/import/' + name]: std.manifestJsonEx(importFlavour(mixin.grafanaDashboards[name]), '  ') + '\n'
  for name in std.objectFields(mixin.grafanaDashboards)
}
