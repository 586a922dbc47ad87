// Selector and join helpers shared by the dashboards' queries. Every label
// name comes from the config; every recorded name from lib/series.libsonnet.
local dashboard = import '../../lib/dashboard.libsonnet';
local series = import '../../lib/series.libsonnet';

function(cfg) {
  local d = dashboard(cfg),
  local p = (import '../../lib/promql.libsonnet')(cfg),
  local root = self,

  d:: d,
  series:: series,
  scopeLabels:: d.scopeLabels,
  scope:: d.scope,
  clusterScope:: d.clusterScope,
  service:: d.service,
  services:: d.services,

  // Joins selector pieces, skipping empty ones: sel(['a="1"', '', 'b="2"']).
  sel(pieces):: p.matchers(pieces),

  // A `|||` block as the one-line query the dashboards carry: its lines
  // joined by a space (so a block breaks a query only where it has a space).
  oneLine(block):: std.join(' ', std.split(std.rstripChars(block, '\n'), '\n')),

  // series{matchers}
  select(series, matchers):: '%(series)s{%(matchers)s}' % { series: series, matchers: matchers },

  // A series of the baseline group, recorded every baselineInterval: its
  // latest sample within two intervals. An instant query looks back 5m, the
  // group's own interval, so read bare it blinks out whenever an evaluation
  // runs late (a busy Prometheus) and a table's column empties.
  selectSlow(series, matchers):: p.lastOfSlow(root.select(series, matchers)),

  // The top dashboardTopN series of expr.
  topN(expr):: 'topk(%(n)d, %(expr)s)' % { n: cfg.dashboardTopN, expr: expr },

  // The label a legend prints for a service: its scope labels and the service
  // joined by "/", each only where the series has it ("prod/shop/api", "api"
  // for a job without cluster and namespace). A legend format of
  // "{{cluster}}/{{namespace}}/{{job}}" prints the separators of absent labels
  // too ("//api"). label_join joins them all; the first label_replace strips
  // the separators at either end, each next one collapses one run of them
  // left in the middle (there are at most one fewer runs than scope labels).
  serviceNameLabel:: 'hotpath_service',
  withServiceName(expr)::
    local l = root.serviceNameLabel;
    local joined = 'label_join(%(expr)s, "%(l)s", "/", %(labels)s)' % {
      expr: expr,
      l: l,
      labels: std.join(', ', ['"%s"' % x for x in root.scopeLabels + [cfg.serviceLabel]]),
    };
    local trimmed = 'label_replace(%(e)s, "%(l)s", "$1", "%(l)s", "/*(.*?)/*")' % { e: joined, l: l };
    std.foldl(
      function(e, _) 'label_replace(%(e)s, "%(l)s", "$1/$2", "%(l)s", "(.*?)//+(.*)")' % { e: e, l: l },
      std.range(1, std.length(root.scopeLabels) - 1),
      trimmed,
    ),

  // The labels that identify a container (cAdvisor) and a pod.
  podKey:: p.list(p.pod),
  containerKey:: p.list(p.container),
  serviceKey:: p.list(p.service),

  // The pods of the picked service(s), from the rule pack's requests per pod
  // (as its cAdvisor join reads them): one series per (pod, service), so a
  // pod serving two jobs appears twice and a job scraped outside Kubernetes
  // (no pod label) not at all. Every work-unit counter (requestSources)
  // counts, each service from its one source. `multi`: several services can
  // be picked (the service variable is matched with =~).
  servicePods(multi=false)::
    'group by (%(pod)s, %(service)s) (%(series)s{%(matchers)s})' % {
      pod: root.podKey,
      service: cfg.serviceLabel,
      series: series.podRequests,
      matchers: p.matchers([d.matcher(cfg.podLabel, '!=', '')] + d.scopeMatchers + [d.serviceMatcher(multi)]),
    },

  // A per-container expression narrowed to the containers of the picked service.
  ofService(expr, multi=false)::
    '%(expr)s and on (%(pod)s) %(pods)s' % { expr: expr, pod: root.podKey, pods: root.servicePods(multi) },

  // A per-container expression summed per service. The pod side is summed
  // per pod first, so it is the unique side of the join: a pod serving two
  // jobs counts for both (as in the rule pack's cAdvisor mode) instead of
  // failing the query with "many-to-many matching not allowed".
  perService(expr, multi=true):: root.oneLine(|||
    sum by (%(service)s) (%(pods)s * on (%(pod)s) group_left ()
    sum by (%(pod)s) (%(expr)s))
  ||| % { service: root.serviceKey, pods: root.servicePods(multi), pod: root.podKey, expr: expr }),

  // CPU cores used and allowed per container (recorded by the rule pack).
  containerUsage:: root.select(series.containerCpu, d.scope),
  containerLimit:: root.select(series.containerCpuLimit, d.scope),
}
