// Selector and join helpers shared by the dashboards' queries. Every label
// name comes from the config; every recorded name from lib/series.libsonnet.
local dashboard = import '../../lib/dashboard.libsonnet';
local registry = import '../../lib/series.libsonnet';

// Cost-model and baseline series the rule pack is adding to the registry; the
// registry's names win as soon as it has them, so these guesses only fill in
// until then (tests/dashboards fails while one of them records nothing).
local pending = {
  cpuPredicted: 'job:cpu_seconds:predicted_rate5m',
  cpuPerRequestBaselineLow: 'job:cpu_seconds_per_request:baseline_low',
  cpuPerRequestBaselineHigh: 'job:cpu_seconds_per_request:baseline_high',
  cpuFixed: 'job:cpu_seconds:fixed',
  cpuMarginal: 'job:cpu_seconds_per_request:marginal',
  instanceCpuPerRequestMedian: 'job:instance_cpu_seconds_per_request:median',
  allocPerRequestBaseline: 'job:alloc_bytes_per_request:baseline',
};
local series = pending + registry;

function(cfg) {
  local d = dashboard(cfg),
  local root = self,

  d:: d,
  series:: series,
  scopeLabels:: d.scopeLabels,
  scope:: d.scope,
  // Only the cluster: an upstream may live in another namespace.
  clusterScope:: if cfg.clusterLabel == '' then '' else '%s=~"$%s"' % [cfg.clusterLabel, cfg.clusterLabel],
  service:: d.service,
  services:: d.services,

  // Joins selector pieces, skipping empty ones: sel(['a="1"', '', 'b="2"']).
  sel(pieces):: std.join(', ', [p for p in pieces if p != '']),

  // The labels that identify a container (cAdvisor) and a pod.
  podKey:: std.join(', ', d.scopeLabels + [cfg.podLabel]),
  containerKey:: std.join(', ', d.scopeLabels + [cfg.podLabel, cfg.containerLabel]),
  serviceKey:: std.join(', ', d.scopeLabels + [cfg.serviceLabel]),

  // The pods of the picked service(s), from the requests counter's labels
  // (as the rule pack's cAdvisor mode joins them). `matchers` is d.service or
  // d.services.
  servicePods(matchers)::
    'group by (%s, %s) (%s{%s})' % [
      root.podKey,
      cfg.serviceLabel,
      cfg.requestsMetric,
      root.sel([cfg.requestsSelector, matchers]),
    ],

  // A per-container expression narrowed to the containers of the picked service.
  ofService(expr, matchers=d.service):: '%s and on (%s) %s' % [expr, root.podKey, root.servicePods(matchers)],

  // A per-container expression summed per service (the service label comes
  // from the service's pods).
  perService(expr, matchers=d.services)::
    'sum by (%s) (%s * on (%s) group_left (%s) %s)' % [
      root.serviceKey,
      expr,
      root.podKey,
      cfg.serviceLabel,
      root.servicePods(matchers),
    ],

  // cAdvisor's per-container series in the picked scope, pod-level cgroups dropped.
  cadvisor(metric):: '%s{%s}' % [metric, root.sel([cfg.cadvisorSelector, '%s!=""' % cfg.containerLabel, d.scope])],

  // CPU cores used and allowed per container.
  containerUsage::
    'sum by (%s) (rate(%s[$__rate_interval]))' % [root.containerKey, root.cadvisor(cfg.containerCpuMetric)],
  containerLimit::
    'max by (%s) (%s) / max by (%s) (%s)' % [
      root.containerKey,
      root.cadvisor(cfg.containerCpuQuotaMetric),
      root.containerKey,
      root.cadvisor(cfg.containerCpuPeriodMetric),
    ],
}
