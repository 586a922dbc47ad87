// PromQL of hotpath-overview.json, apart from its layout. Override any of them:
//   mixin + { hotpathQueries+:: { overview+: { cpu: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local by(series) = '%s{%s}' % [series, c.services],
  local topN = c.topN,

  // The fleet table, one instant query per column.
  requests: by(s.requests),
  cpu: by(s.cpu),
  cpuPerRequest: by(s.cpuPerRequest),
  // CPU against what the service's cost model predicts at its current load:
  // 1 is as usual, cpuRegressionFactor is where CPUPerRequestRegression starts.
  vsBaseline: '%s / %s' % [by(s.cpu), by(s.cpuBaselinePredicted)],
  fixedShare: '%s / %s' % [by(s.cpuBaselineFixed), by(s.cpu)],
  throttled: c.perService('%s{%s}' % [s.throttledSeconds, c.scope]),
  toUpstream: 'max by (%s) (%s)' % [c.serviceKey, by(s.cpuPerRequestToUpstream)],
  alerts: 'count by (%s) (%s)' % [c.serviceKey, c.d.firingAlerts(c.services)],

  // Movers over time.
  topVsBaseline: topN(self.vsBaseline),
  topCpu: topN(by(s.cpu)),
  topToUpstream: topN(by(s.cpuPerRequestToUpstream)),

  annotations: c.d.firingAlerts(c.scope),
}
