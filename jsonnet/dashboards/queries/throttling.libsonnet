// PromQL of hotpath-throttling.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { throttling+: { workload: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local topN = c.topN,
  local seconds = '%s{%s}' % [s.throttledSeconds, c.scope],
  local periods = '%s{%s}' % [s.throttledPeriodsRatio, c.scope],

  // A workload is its pods' name without the ReplicaSet hash and the pod
  // suffix (api-7d9f8b6c5-x2x4z -> api) or the StatefulSet ordinal (redis-0 ->
  // redis): throttling is a property of the workload's limit, not of one pod.
  local workload(expr) =
    'label_replace(label_replace(label_replace(%s, "workload", "$1", "%s", "(.*)"), "workload", "$1", "%s", "(.+)-[0-9]+"), "workload", "$1", "%s", "(.+?)(-[0-9a-f]{6,10})?-[0-9a-z]{5}")' % [
      expr,
      cfg.podLabel,
      cfg.podLabel,
      cfg.podLabel,
    ],
  local perWorkload(expr) = topN('max by (%s) (%s)' % [
    std.join(', ', c.scopeLabels + ['workload', cfg.containerLabel]),
    workload(expr),
  ]),

  workloadSeconds: perWorkload(seconds),
  workloadPeriods: perWorkload(periods),
  // Every container's throttled seconds, for the distribution heatmap.
  allSeconds: seconds,

  // Top throttled containers: the table's columns share one topk.
  local top = topN(seconds),
  topSeconds: top,
  topPeriods: '%s and on (%s) %s' % [periods, c.containerKey, top],
  topUsage: '%s and on (%s) %s' % [c.containerUsage, c.containerKey, top],
  topLimit: '%s and on (%s) %s' % [c.containerLimit, c.containerKey, top],
  // Usage as a share of the limit: the CFS story's "throttled at 30% usage".
  topUsageOfLimit: '(%s) / (%s) and on (%s) %s' % [c.containerUsage, c.containerLimit, c.containerKey, top],

  // Which services the throttled containers belong to.
  perService: c.perService(seconds),

  annotations: c.d.firingAlerts(c.scope, 'CPUThrottlingSustained'),
}
