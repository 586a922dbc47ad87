// Turns a mixin into the files it generates, keyed by path relative to the
// repository root. Used by generate.jsonnet for the shipped artefacts and by the
// overlay tests and the demo with other configs, so all of them render alike.
local files = import 'files.libsonnet';
local importFlavour = import 'import.libsonnet';
local yaml = files.yaml;

function(mixin)
  local rules = files.readableGroups(mixin.prometheusRules);
  local alerts = files.readableGroups(mixin.prometheusAlerts);
  {
    'rules/hotpath-rules.yaml': yaml(rules),
    'rules/hotpath-alerts.yaml': yaml(alerts),
    // The same groups for prometheus-operator.
    'rules/hotpath-prometheusrule.yaml': yaml(files.prometheusRule(mixin)),
  } + {
    ['dashboards/' + name]: files.dashboardJSON(mixin.grafanaDashboards[name])
    for name in std.objectFields(mixin.grafanaDashboards)
  } + {
    // The same dashboards for Grafana's UI import (lib/import.libsonnet says
    // why), in a folder of their own: a dashboard provider reads its folder
    // recursively, and would load each uid twice from dashboards/.
    ['dashboards-import/' + name]: files.dashboardJSON(importFlavour(mixin.grafanaDashboards[name]))
    for name in std.objectFields(mixin.grafanaDashboards)
  }
