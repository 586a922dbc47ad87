// How generated files are written, shared by lib/render.libsonnet (rules/,
// dashboards/) and deploy/render.libsonnet (deploy/kubernetes/), so that a
// dashboard or a rule group reads the same byte for byte wherever it lands.
local header = '# Generated from jsonnet/ by `make generate`. DO NOT EDIT.\n';

// Every expr leaves here in one shape, whatever built it: a one-line expr
// without a trailing newline, a multi-line one ending in exactly one (block
// literals end in a newline, '%s' joins do not). std.manifestYamlDoc writes a
// string as a `|` block only when it ends with a newline; any other multi-line
// expr would become one quoted line full of \n.
local readableExpr(expr) =
  local e = std.rstripChars(expr, '\n');
  if std.member(e, '\n') then e + '\n' else e;

{
  // A YAML file with the generated-file header, and `comment` (lines of
  // text) as comments below it: what a reader of the file needs to use it.
  // Usage: yaml({ groups: [...] }), yaml(patch, ['Apply it with:', '  kubectl ...']).
  yaml(obj, comment=[]):: header + std.join('', ['#%s\n' % (if l == '' then '' else ' ' + l) for l in comment])
                          + std.manifestYamlDoc(obj, indent_array_in_object=true, quote_keys=false) + '\n',

  // A dashboard's JSON text, as dashboards/<name> holds it. Usage: dashboardJSON(mixin.grafanaDashboards[name]).
  dashboardJSON(dashboard):: std.manifestJsonEx(dashboard, '  ') + '\n',

  // Rule groups with every expr in its readable shape. Usage: readableGroups(mixin.prometheusRules).
  readableGroups(groups):: {
    groups: [
      g { rules: [r { expr: readableExpr(r.expr) } for r in g.rules] }
      for g in groups.groups
    ],
  },

  // The pack's rule and alert groups as one prometheus-operator PrometheusRule;
  // metadata is merged into the default name and labels. Usage:
  // prometheusRule(mixin, { namespace: 'monitoring', labels+: { release: 'prom' } }).
  prometheusRule(mixin, metadata={}):: {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'hotpath',
      labels: { 'app.kubernetes.io/name': 'hotpath', 'app.kubernetes.io/part-of': 'hotpath' },
    } + metadata,
    spec: {
      groups: $.readableGroups(mixin.prometheusRules).groups + $.readableGroups(mixin.prometheusAlerts).groups,
    },
  },
}
