// PromQL of the service dashboard's function panels (dashboards/functions.libsonnet),
// apart from their layout. The function series carry the service label and
// `function` only (hotpath-profile-metrics names a service by its service
// label), so they are matched on the service variable alone. Override any of
// them: mixin + { hotpathQueries+:: { functions+: { cpuTop: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local svc = c.d.serviceMatcher(),
  local named = c.sel([svc, c.d.matcher('function', '=', '$function')]),
  local top(series) = c.topN('%s{%s, function!="other"}' % [series, svc]),

  // The top functions' cost per request, `other` (the rest of the profile) apart.
  cpuTop: top(s.functionCpuPerRequest),
  allocTop: top(s.functionAllocPerRequest),
  // The function an alert names ($function): its smoothed cost per request
  // and the 5m ratio it smooths (both recorded every minute: an instant
  // lookup always finds them, as a 15m-group series it would not).
  cpuNamed: c.select(s.functionCpuPerRequestSmoothed, named),
  cpuNamedRate: c.select(s.functionCpuPerRequest, named),
  allocNamed: c.select(s.functionAllocPerRequestSmoothed, named),
  allocNamedRate: c.select(s.functionAllocPerRequest, named),
  // What its reference model (fixed + marginal per request, recorded every
  // 15m, read as its last sample) predicts per request at the service's
  // current traffic: the line the alert judges its excess against.
  local predicted(fixed, marginal) = |||
    last_over_time(%(fixed)s{%(named)s}[30m])
    / on (%(service)s) group_left ()
    (sum by (%(service)s) (%(requests)s{%(svc)s}) > 0)
    + on (%(service)s, function)
    last_over_time(%(marginal)s{%(named)s}[30m])
  ||| % { fixed: fixed, marginal: marginal, named: named, requests: s.requests, svc: svc, service: cfg.serviceLabel },
  cpuNamedPredicted: predicted(s.functionCpuReferenceFixed, s.functionCpuReferenceMarginal),
  allocNamedPredicted: predicted(s.functionAllocReferenceFixed, s.functionAllocReferenceMarginal),
  // The function variable's values: the service's functions with a row.
  functions: 'label_values(%s{%s, function!="other"}, function)' % [s.functionCpuPerRequest, svc],
}
