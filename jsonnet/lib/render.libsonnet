// Turns a mixin into the files it generates, keyed by path relative to the
// repository root. Used by generate.jsonnet for the shipped artefacts and by the
// overlay tests and the demo with other configs, so all of them render alike.
local importFlavour = import 'import.libsonnet';
local header = '# Generated from jsonnet/ by `make generate`. DO NOT EDIT.\n';

local yaml(obj) = header + std.manifestYamlDoc(obj, indent_array_in_object=true, quote_keys=false) + '\n';

// Every expr leaves here in one shape, whatever built it: a one-line expr
// without a trailing newline, a multi-line one ending in exactly one (block
// literals end in a newline, '%s' joins do not). std.manifestYamlDoc writes a
// string as a `|` block only when it ends with a newline; any other multi-line
// expr would become one quoted line full of \n.
local readableExpr(expr) =
  local e = std.rstripChars(expr, '\n');
  if std.member(e, '\n') then e + '\n' else e;
local readableExprs(groups) = {
  groups: [
    g { rules: [r { expr: readableExpr(r.expr) } for r in g.rules] }
    for g in groups.groups
  ],
};

function(mixin)
  local rules = readableExprs(mixin.prometheusRules);
  local alerts = readableExprs(mixin.prometheusAlerts);
  {
    'rules/hotpath-rules.yaml': yaml(rules),
    'rules/hotpath-alerts.yaml': yaml(alerts),
    // The same groups for prometheus-operator.
    'rules/hotpath-prometheusrule.yaml': yaml({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: {
        name: 'hotpath',
        labels: { 'app.kubernetes.io/name': 'hotpath', 'app.kubernetes.io/part-of': 'hotpath' },
      },
      spec: { groups: rules.groups + alerts.groups },
    }),
  } + {
    ['dashboards/' + name]: std.manifestJsonEx(mixin.grafanaDashboards[name], '  ') + '\n'
    for name in std.objectFields(mixin.grafanaDashboards)
  } + {
    // The same dashboards for Grafana's UI import (lib/import.libsonnet says why).
    ['dashboards/import/' + name]: std.manifestJsonEx(importFlavour(mixin.grafanaDashboards[name]), '  ') + '\n'
    for name in std.objectFields(mixin.grafanaDashboards)
  }
