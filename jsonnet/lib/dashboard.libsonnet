// The parts every hotpath dashboard shares: datasource references, template
// variables, alert annotations, links between the three dashboards, and the
// dashboard envelope. All label and variable names come from the config, so an
// overlay that renames a label renames it here too.
local layout = import 'layout.libsonnet';
local panel = import 'panel.libsonnet';
local promql = import 'promql.libsonnet';

// The hotpath alerts, from the catalogue. Dashboards show them as annotations
// and count them; tests/dashboards checks them against
// rules/hotpath-alerts.yaml.
local catalogue = import '../catalogue.libsonnet';

function(cfg) {
  local root = self,

  alertNames:: catalogue.alertNames,
  alertsRegex:: catalogue.regex(catalogue.alertNames),
  // The alerts whose series carry the service label (the others reach a
  // service only through its pods: podAlertsRegex).
  serviceAlertsRegex:: catalogue.regex(catalogue.serviceAlerts),
  podAlertsRegex:: catalogue.regex(catalogue.podAlerts),

  // Datasource references: always a variable, never a uid.
  promDs:: { type: 'prometheus', uid: '${%s}' % cfg.prometheusDatasourceVariable },
  profilesDs:: { type: 'grafana-pyroscope-datasource', uid: '${%s}' % cfg.profilesDatasourceVariable },

  // Matchers for the cluster/namespace scope and the service, e.g.
  // `cluster=~"$cluster", namespace=~"$namespace"`, built from their parts
  // (never edited as text). A scope label set to '' in the config drops out.
  // The scope matchers are regexes so that "All" (allValue .*) also matches
  // series that do not carry the label.
  // matcher('job', '=', '$job') is job="$job".
  matcher(label, op, value):: '%(label)s%(op)s"%(value)s"' % { label: label, op: op, value: value },
  local variable(l) = root.matcher(l, '=~', '$' + l),
  scopeLabels:: promql(cfg).scope,
  scopeMatchers:: [variable(l) for l in root.scopeLabels],
  scope:: std.join(', ', root.scopeMatchers),
  // Only the cluster: an upstream may live in another namespace.
  clusterScope:: if cfg.clusterLabel == '' then '' else variable(cfg.clusterLabel),
  // The service variable, matched on `label`: one service (=) or, where
  // several can be picked, any of them (=~). A request source that names the
  // service in a label of its own is matched on that label.
  serviceMatcher(multi=false, label=cfg.serviceLabel)::
    root.matcher(label, if multi then '=~' else '=', '$' + cfg.serviceLabel),
  serviceMatchers(multi=false):: root.scopeMatchers + [root.serviceMatcher(multi)],
  service:: std.join(', ', root.serviceMatchers()),
  // The same for dashboards where several services can be picked.
  services:: std.join(', ', root.serviceMatchers(true)),

  // A knob as panel text, so that a description says what the pack really does:
  // num(0.1) is '0.1', times(1.5) is '1.5×', percent(0.25) is '25%'.
  num(x):: promql(cfg).num(x),
  times(x):: '%s×' % root.num(x),
  percent(x):: '%d%%' % std.round(x * 100),

  // Query targets on the Prometheus variable: a series over time, or a table column (instant).
  prom(expr, legend=''):: panel.prom(root.promDs, expr, legend),
  column(expr):: panel.prom(root.promDs, expr, instant=true, format='table'),

  local datasourceVar(name, label, type) = {
    name: name,
    label: label,
    type: 'datasource',
    query: type,
    current: {},
    hide: 0,
    refresh: 1,
    regex: '',
    includeAll: false,
    multi: false,
    options: [],
  },

  // A variable listing the values of `label` on `series`, narrowed by the
  // variables before it.
  local labelVar(label, title, series, filter, multi) = {
    local q = 'label_values(%s{%s}, %s)' % [series, filter, label],
    name: label,
    label: title,
    type: 'query',
    datasource: root.promDs,
    query: { query: q, refId: 'PrometheusVariableQueryEditor-VariableQuery', qryType: 1 },
    definition: q,
    refresh: 2,
    sort: 1,
    hide: 0,
    regex: '',
    multi: multi,
    includeAll: multi,
    current: {},
    options: [],
  } + (if multi then { allValue: '.*' } else {}),

  // Prometheus and profiles datasources, then cluster (only when a cluster
  // label is configured), namespace and service, each narrowed by the ones
  // before. `series` is a recorded series every service has; `scopeSeries`
  // lists the clusters and namespaces (the throttling dashboard lists those
  // of throttled containers, services or not).
  variables(series, multiService, scopeSeries=series):: [
    datasourceVar(cfg.prometheusDatasourceVariable, 'Prometheus', 'prometheus'),
    datasourceVar(cfg.profilesDatasourceVariable, 'Profiles', 'grafana-pyroscope-datasource'),
  ] + (
    if cfg.clusterLabel == '' then []
    else [labelVar(cfg.clusterLabel, 'cluster', scopeSeries, '', true)]
  ) + [
    labelVar(cfg.namespaceLabel, 'namespace', scopeSeries, root.clusterScope, true),
    labelVar(cfg.serviceLabel, 'service', series, root.scope, multiService),
  ],

  // Firing alerts as annotations; `expr` selects them from ALERTS (see
  // firingAlerts).
  annotation(name, expr, color='red'):: {
    name: name,
    datasource: root.promDs,
    enable: true,
    iconColor: color,
    expr: expr,
    step: '60s',
    titleFormat: '{{alertname}}',
    textFormat: '{{alertname}} firing',
    tagKeys: 'severity',
    useValueForTime: false,
  },

  // The deploys of `expr` (job:version:rollout_timestamp in ms), each marked
  // at the time its version began to run, with the version before it.
  deployAnnotation(expr):: root.annotation('deploys', expr, 'blue') {
    titleFormat: 'deploy {{version}}',
    textFormat: '{{previous_version}} → {{version}}',
    tagKeys: 'version',
    useValueForTime: true,
  },

  // The firing hotpath alerts (or some of them: `names` is a regex) narrowed
  // by PromQL matchers.
  firingAlerts(matchers, names=root.alertsRegex)::
    'ALERTS{alertstate="firing", alertname=~"%s", %s}' % [names, matchers],

  // Links to the other hotpath dashboards, keeping time range and variables.
  links(except):: [
    {
      title: title,
      type: 'link',
      url: '/d/%s' % cfg.dashboardUIDs[key],
      includeVars: true,
      keepTime: true,
      icon: 'dashboard',
      targetBlank: false,
      asDropdown: false,
      tags: [],
      tooltip: 'Open %s with the same variables and time range' % title,
    }
    for key in ['overview', 'service', 'throttling']
    if key != except
    for title in [{ overview: 'hotpath: fleet', service: 'hotpath: service', throttling: 'hotpath: throttling' }[key]]
  ],

  // URL of the service dashboard for one row of a table: the service, its
  // scope labels and the datasource, taken from the row's label columns.
  serviceLink(title):: {
    title: title,
    url: '/d/%s?%s&${%s:queryparam}&${__url_time_range}' % [
      cfg.dashboardUIDs.service,
      std.join('&', ['var-%s=${__data.fields.%s}' % [l, l] for l in root.scopeLabels + [cfg.serviceLabel]]),
      cfg.prometheusDatasourceVariable,
    ],
  },

  dashboard(key, title, description, panels, variables, annotations):: {
    uid: cfg.dashboardUIDs[key],
    title: title,
    description: description,
    tags: cfg.dashboardTags,
    schemaVersion: 39,
    version: 1,
    editable: true,
    graphTooltip: 1,  // shared crosshair: load, CPU and throttling line up in time
    time: { from: cfg.dashboardTimeFrom, to: 'now' },
    refresh: cfg.dashboardRefresh,
    timezone: '',
    timepicker: {},
    fiscalYearStartMonth: 0,
    liveNow: false,
    links: root.links(key),
    templating: { list: variables },
    annotations: { list: annotations },
    panels: layout(panels),
  },
}
