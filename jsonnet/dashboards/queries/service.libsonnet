// PromQL of hotpath-service.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { service+: { requests: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local sel = c.service,
  local by(series) = c.select(series, sel),
  local slow(series) = c.selectSlow(series, sel),

  // 1. Load or efficiency?
  requests: by(s.requests),
  // One per instance: the overlay's siblings baseline counts an instance's
  // requests against the others'.
  instanceRequests: by(s.instanceRequests),
  // One per endpoint: the overlay's endpoint filter counts the endpoint's
  // own requests.
  endpointRequests: 'sum by (endpoint) (%s)' % by(s.endpointRequests),
  cpu: by(s.cpu),
  cpuPerRequest: by(s.cpuPerRequest),
  // The band: from what the cost model predicts at the current traffic up to
  // where CPUPerRequestRegression starts.
  cpuPerRequestPredicted: by(s.cpuPerRequestBaselinePredicted),
  cpuPerRequestRegression: '%(predicted)s * %(factor)s' % { predicted: by(s.cpuPerRequestBaselinePredicted), factor: cfg.cpuRegressionFactor },
  cpuFixed: slow(s.cpuBaselineFixed),
  // The marginal cost (CPU seconds per request) times the current load.
  cpuMarginal: '%(marginal)s * %(requests)s' % { marginal: slow(s.cpuPerRequestBaselineMarginal), requests: by(s.requests) },
  // The last loadFitWindow's fit behind CPUNotTrackingLoad: the share of CPU that
  // does not follow requests (the value the alert compares), and how much
  // requests swung.
  recentFixedShare: by(s.cpuRecentFixedShare),
  requestsVariation: by(s.requestsRecentVariation),
  // The slow path: the fixed share from the median of the day's long fits.
  longFixedShare: by(s.cpuLongFixedShare),

  // 2. One instance or all?
  instanceCpuPerRequest: by(s.instanceCpuPerRequest),
  instanceToSiblings: c.oneLine(|||
    %(instance)s / on (%(service)s) group_left ()
    (quantile by (%(service)s) (0.5, %(instance)s) > 0)
  ||| % { instance: by(s.instanceCpuPerRequest), service: c.serviceKey }),

  // 3. Upstream?
  toUpstream: by(s.cpuPerRequestToUpstream),
  toUpstreamBaseline: slow(s.cpuPerRequestToUpstreamBaselineMedian),
  // This service's CPU per request and each upstream's, side by side: the
  // upstreams are the `upstream` values of the ratio series.
  withUpstreams: c.oneLine(|||
    %(own)s or (%(all)s and on (%(service)s)
    label_replace(%(ratio)s, "%(service)s", "$1", "upstream", "(.*)"))
  ||| % {
    own: by(s.cpuPerRequest),
    all: c.select(s.cpuPerRequest, c.clusterScope),
    service: cfg.serviceLabel,
    ratio: by(s.cpuPerRequestToUpstream),
  }),

  // 4. Throttling? (the service's containers, through its pods)
  throttledSeconds: c.ofService(c.select(s.throttledSeconds, c.scope)),
  throttledPeriods: c.ofService(c.select(s.throttledPeriodsRatio, c.scope)),
  containerUsage: c.ofService(c.containerUsage),
  containerLimit: c.ofService(c.containerLimit),
  // Per pod: an instance outside Kubernetes has no pod and no CPU limit to
  // compare with (its line would be a legend without a name).
  gomaxprocs: 'max by (%(pod)s) (%(gomaxprocs)s)' % {
    pod: c.podKey,
    gomaxprocs: c.select(cfg.gomaxprocsMetric, c.sel([sel, c.d.matcher(cfg.podLabel, '!=', '')])),
  },
  podLimit: 'sum by (%(pod)s) (%(limit)s)' % { pod: c.podKey, limit: c.ofService(c.containerLimit) },

  // 5. Allocations?
  allocPerRequest: by(s.allocPerRequest),
  allocPerRequestBaseline: by(s.allocPerRequestBaselinePredicted),
  alloc: by(s.alloc),
  heap: 'max by (%(instance)s) (%(heap)s)' % { instance: cfg.instanceLabel, heap: by(cfg.heapMetric) },
  gcCycles: 'sum by (%(service)s) (rate(%(count)s[$__rate_interval]))' % { service: c.serviceKey, count: by(cfg.gcDurationMetric + '_count') },
  gcPause: 'sum by (%(service)s) (rate(%(sum)s[$__rate_interval]))' % { service: c.serviceKey, sum: by(cfg.gcDurationMetric + '_sum') },

  // 7. Where in the code? The anomalies the overlay panel marks on its strip:
  // the alerts that carry the service label (the catalogue's), pending too.
  anomalies: 'ALERTS{alertname=~"%(names)s", %(service)s}' % { names: c.d.serviceAlertsRegex, service: sel },

  // Annotations: the service's hotpath alerts, and the alerts on its
  // containers (CPUThrottlingSustained: per container, not per service).
  alerts: c.d.firingAlerts(sel),
  // The service's deploys (versionSources): each one's time in unix ms, the
  // annotation's own time (useValueForTime).
  deploys: '%s * 1000' % by(s.versionRollout),
  throttlingAlerts: c.ofService(c.d.firingAlerts(c.scope, c.d.podAlertsRegex)),
}
