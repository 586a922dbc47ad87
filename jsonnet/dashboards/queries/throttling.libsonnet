// PromQL of hotpath-throttling.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { throttling+: { workload: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local topN = c.topN,
  local seconds = c.select(s.throttledSeconds, c.scope),
  local periods = c.select(s.throttledPeriodsRatio, c.scope),

  // A workload is its pods' name without the ReplicaSet hash and the pod
  // suffix (api-7d9f8b6c5-x2x4z -> api) or the StatefulSet ordinal (redis-0 ->
  // redis): throttling is a property of the workload's limit, not of one pod.
  local workload(expr) = c.oneLine(|||
    label_replace(label_replace(label_replace(%(expr)s,
    "workload", "$1", "%(pod)s", "(.*)"),
    "workload", "$1", "%(pod)s", "(.+)-[0-9]+"),
    "workload", "$1", "%(pod)s", "(.+?)(-[0-9a-f]{6,10})?-[0-9a-z]{5}")
  ||| % { expr: expr, pod: cfg.podLabel }),
  local perWorkload(expr) = topN('max by (%(labels)s) (%(workloads)s)' % {
    labels: std.join(', ', c.scopeLabels + ['workload', cfg.containerLabel]),
    workloads: workload(expr),
  }),

  workloadSeconds: perWorkload(seconds),
  workloadPeriods: perWorkload(periods),
  // Every container's throttled seconds, for the distribution heatmap.
  allSeconds: seconds,

  // Top throttled containers: the table's columns share one topk.
  local top = topN(seconds),
  topSeconds: top,
  local ofTop(expr) = '%(expr)s and on (%(container)s) %(top)s' % { expr: expr, container: c.containerKey, top: top },
  topPeriods: ofTop(periods),
  topUsage: ofTop(c.containerUsage),
  topLimit: ofTop(c.containerLimit),
  // Throttled time per request of the container's pod: the most latency the
  // quota adds to a request (only pods whose requests are counted).
  topPerRequest: ofTop(c.select(s.throttledSecondsPerRequest, c.scope)),
  perRequest: topN(c.select(s.throttledSecondsPerRequest, c.scope)),
  // Usage as a share of the limit: a throttled container can use 30% of its
  // limit on average and still hit it in every burst.
  topUsageOfLimit: ofTop('(%(usage)s) / (%(limit)s)' % { usage: c.containerUsage, limit: c.containerLimit }),

  // Which services the throttled containers belong to.
  perService: c.perService(seconds),

  annotations: c.d.firingAlerts(c.scope, c.d.podAlertsRegex),
}
