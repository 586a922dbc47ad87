// PromQL of hotpath-service.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { service+: { requests: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local sel = c.service,
  local by(series) = '%s{%s}' % [series, sel],

  // 1. Load or efficiency?
  requests: by(s.requests),
  // One per instance: the overlay's siblings baseline counts an instance's
  // requests against the others'.
  instanceRequests: by(s.instanceRequests),
  cpu: by(s.cpu),
  cpuPerRequest: by(s.cpuPerRequest),
  // The band: from what the cost model predicts at the current traffic up to
  // where CPUPerRequestRegression starts.
  cpuPerRequestPredicted: by(s.cpuPerRequestBaselinePredicted),
  cpuPerRequestRegression: '%s * %s' % [by(s.cpuPerRequestBaselinePredicted), cfg.cpuRegressionFactor],
  cpuFixed: by(s.cpuBaselineFixed),
  // The marginal cost (CPU seconds per request) times the current load.
  cpuMarginal: '%s * %s' % [by(s.cpuPerRequestBaselineMarginal), by(s.requests)],
  // The last loadFitWindow's fit behind CPUNotTrackingLoad: the share of CPU that
  // does not follow requests (the value the alert compares), and how much
  // requests swung.
  recentFixedShare: by(s.cpuRecentFixedShare),
  requestsVariation: by(s.requestsRecentVariation),
  // The slow path: the fixed share from the median of the day's long fits.
  longFixedShare: by(s.cpuLongFixedShare),

  // 2. One instance or all?
  instanceCpuPerRequest: by(s.instanceCpuPerRequest),
  instanceToSiblings: '%s / on (%s) group_left () quantile by (%s) (0.5, %s)' % [
    by(s.instanceCpuPerRequest),
    c.serviceKey,
    c.serviceKey,
    by(s.instanceCpuPerRequest),
  ],

  // 3. Upstream?
  toUpstream: by(s.cpuPerRequestToUpstream),
  toUpstreamBaseline: by(s.cpuPerRequestToUpstreamBaselineMedian),
  // This service's CPU per request and each upstream's, side by side: the
  // upstreams are the `upstream` values of the ratio series.
  withUpstreams: '%s or (%s{%s} and on (%s) label_replace(%s, "%s", "$1", "upstream", "(.*)"))' % [
    by(s.cpuPerRequest),
    s.cpuPerRequest,
    c.clusterScope,
    cfg.serviceLabel,
    by(s.cpuPerRequestToUpstream),
    cfg.serviceLabel,
  ],

  // 4. Throttling? (the service's containers, through its pods)
  throttledSeconds: c.ofService('%s{%s}' % [s.throttledSeconds, c.scope]),
  throttledPeriods: c.ofService('%s{%s}' % [s.throttledPeriodsRatio, c.scope]),
  containerUsage: c.ofService(c.containerUsage),
  containerLimit: c.ofService(c.containerLimit),
  gomaxprocs: 'max by (%s) (%s{%s})' % [c.podKey, cfg.gomaxprocsMetric, sel],
  podLimit: 'sum by (%s) (%s)' % [c.podKey, c.ofService(c.containerLimit)],

  // 5. Allocations?
  allocPerRequest: by(s.allocPerRequest),
  allocPerRequestBaseline: by(s.allocPerRequestBaselinePredicted),
  alloc: by(s.alloc),
  heap: 'max by (%s) (%s{%s})' % [cfg.instanceLabel, cfg.heapMetric, sel],
  gcCycles: 'sum by (%s) (rate(%s_count{%s}[$__rate_interval]))' % [c.serviceKey, cfg.gcDurationMetric, sel],
  gcPause: 'sum by (%s) (rate(%s_sum{%s}[$__rate_interval]))' % [c.serviceKey, cfg.gcDurationMetric, sel],

  // 6. Where in the code? The anomalies the overlay panel marks on its strip.
  anomalies: 'ALERTS{alertname=~"CPUPerRequest.*|AllocationsPerRequestRegression|CPUNotTrackingLoad", %s}' % sel,

  // Annotations: the service's hotpath alerts, and CPUThrottlingSustained on
  // its containers (that alert is per container, not per service).
  alerts: c.d.firingAlerts(sel),
  throttlingAlerts: c.ofService(c.d.firingAlerts(c.scope, 'CPUThrottlingSustained')),
}
