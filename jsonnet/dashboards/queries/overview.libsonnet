// PromQL of hotpath-overview.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { overview+: { cpu: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local by(series) = c.select(series, c.services),
  local topN = c.topN,

  // The fleet table, one instant query per column.
  requests: by(s.requests),
  cpu: by(s.cpu),
  cpuPerRequest: by(s.cpuPerRequest),
  // CPU against what the service's cost model predicts at its current load:
  // 1 is as usual, cpuRegressionFactor is where CPUPerRequestRegression starts.
  // No value where the prediction is 0 (a service fitted on a history
  // without CPU): a ratio to nothing is no ratio, not an infinity.
  vsBaseline: '%(cpu)s / (%(predicted)s > 0)' % { cpu: by(s.cpu), predicted: by(s.cpuBaselinePredicted) },
  fixedShare: '%(fixed)s / (%(cpu)s > 0)' % { fixed: c.selectSlow(s.cpuBaselineFixed, c.services), cpu: by(s.cpu) },
  throttled: c.perService(c.select(s.throttledSeconds, c.scope)),
  toUpstream: 'max by (%(service)s) (%(ratio)s)' % { service: c.serviceKey, ratio: by(s.cpuPerRequestToUpstream) },
  // Firing alerts per service. The alerts on container series (the catalogue's
  // identity 'container') carry no service label: they count for the
  // services whose pods they fire on, joined as the throttled column is.
  // The two sides differ in `alertname`, so `or` keeps both.
  alerts: c.oneLine(|||
    sum by (%(service)s) (count by (%(service)s, alertname) (%(serviceAlerts)s)
    or %(podAlerts)s)
  ||| % {
    service: c.serviceKey,
    serviceAlerts: c.d.firingAlerts(c.services, c.d.serviceAlertsRegex),
    podAlerts: c.perService(c.d.firingAlerts(c.scope, c.d.podAlertsRegex)),
  }),

  // The label the Movers' legends print.
  serviceNameLabel:: c.serviceNameLabel,

  // Movers over time, each series named by c.serviceNameLabel for its legend.
  topVsBaseline: c.withServiceName(topN(self.vsBaseline)),
  topCpu: c.withServiceName(topN(by(s.cpu))),
  topToUpstream: c.withServiceName(topN(by(s.cpuPerRequestToUpstream))),

  annotations: c.d.firingAlerts(c.scope),
}
