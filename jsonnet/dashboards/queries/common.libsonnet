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

  // The top dashboardTopN series of expr.
  topN(expr):: 'topk(%d, %s)' % [cfg.dashboardTopN, expr],

  // The labels that identify a container (cAdvisor) and a pod.
  podKey:: p.list(p.pod),
  containerKey:: p.list(p.container),
  serviceKey:: p.list(p.service),

  // The pods of the picked service(s), from the requests counter's labels
  // (as the rule pack's cAdvisor mode joins them): one series per (pod,
  // service), so a pod serving two jobs appears twice and a job scraped
  // outside Kubernetes (no pod label) not at all. `matchers` is d.service or
  // d.services.
  // Every work-unit counter (requestSources) counts; a source that names the
  // service in another label is matched on that label.
  servicePods(matchers)::
    'group by (%s, %s) (%s)' % [
      root.podKey,
      cfg.serviceLabel,
      std.join(' or ', [
        p.asService(src, '%s{%s}' % [src.metric, root.sel([
          '%s!=""' % cfg.podLabel,
          src.selector,
          std.strReplace(matchers, ' %s=' % cfg.serviceLabel, ' %s=' % src.serviceLabel),
        ])])
        for src in p.requestSources
      ]),
    ],

  // A per-container expression narrowed to the containers of the picked service.
  ofService(expr, matchers=d.service):: '%s and on (%s) %s' % [expr, root.podKey, root.servicePods(matchers)],

  // A per-container expression summed per service. The pod side is summed
  // per pod first, so it is the unique side of the join: a pod serving two
  // jobs counts for both (as in the rule pack's cAdvisor mode) instead of
  // failing the query with "many-to-many matching not allowed".
  perService(expr, matchers=d.services)::
    'sum by (%s) (%s * on (%s) group_left () sum by (%s) (%s))' % [
      root.serviceKey,
      root.servicePods(matchers),
      root.podKey,
      root.podKey,
      expr,
    ],

  // CPU cores used and allowed per container (recorded by the rule pack).
  containerUsage:: '%s{%s}' % [series.containerCpu, d.scope],
  containerLimit:: '%s{%s}' % [series.containerCpuLimit, d.scope],
}
