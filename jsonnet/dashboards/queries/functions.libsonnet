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
  // The line the alert judges its excess against: what its reference model
  // (fixed + marginal per request) predicts per request at the service's
  // current traffic, grown with the profile where the whole profile grew
  // past what its rows predict. Its cost per request less its excess (a
  // share of the service's profile), from series recorded every minute
  // (the model's own are recorded every 15m, which an instant lookup misses).
  local predicted(perRequest, excess, cost) = |||
    %(perRequest)s{%(named)s}
    - on (%(service)s, function)
    %(excess)s{%(named)s}
    * on (%(service)s) group_left ()
    sum by (%(service)s) (%(cost)s{%(svc)s})
    / on (%(service)s) group_left ()
    (sum by (%(service)s) (%(requests)s{%(svc)s}) > 0)
  ||| % { perRequest: perRequest, excess: excess, cost: cost, named: named, requests: s.requests, svc: svc, service: cfg.serviceLabel },
  cpuNamedPredicted: predicted(s.functionCpuPerRequest, s.functionCpuExcess, s.functionCpu),
  allocNamedPredicted: predicted(s.functionAllocPerRequest, s.functionAllocExcess, s.functionAlloc),
  // The function variable's values: the service's functions with a row.
  functions: 'label_values(%s{%s, function!="other"}, function)' % [s.functionCpuPerRequest, svc],
}
