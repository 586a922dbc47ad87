// PromQL of the service dashboard's endpoint panels (dashboards/endpoints.libsonnet),
// apart from their layout. The endpoint cost series carry the service label
// and `endpoint` only (hotpath-profile-metrics names a service by its service
// label), so they are matched on the service variable alone; the routes'
// request rates carry the scope too, summed away here. Override any of them:
// mixin + { hotpathQueries+:: { endpoints+: { cpuTop: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,
  local svc = c.d.serviceMatcher(),
  local named = c.sel([svc, c.d.matcher('endpoint', '=', '$endpoint')]),
  local routes = c.sel([svc, 'endpoint=~"/.*"']),
  local top(series) = c.topN('%s{%s}' % [series, routes]),
  local requests = 'sum by (%s, endpoint) (%s{%s})' % [cfg.serviceLabel, s.endpointRequests, routes],

  // The top endpoints' cost per request of their own route.
  cpuTop: top(s.endpointCpuPerRequest),
  allocTop: top(s.endpointAllocPerRequest),
  // The mix: each route's share of the service's requests.
  mix: '%s\n/ on (%s) group_left ()\nsum by (%s) (%s)' % [c.topN(requests), cfg.serviceLabel, cfg.serviceLabel, requests],
  // The endpoints' CPU per request together, and the same mix at each
  // endpoint's reference cost: apart, the endpoints changed; together, the
  // mix did. Beside them the share of the profile no endpoint label explains.
  endpointsCpu: c.select(s.endpointsCpuPerRequest, svc),
  endpointsCpuAtReference: c.select(s.endpointsCpuPerRequestAtReference, svc),
  unlabelledCpu: c.select(s.cpuUnlabelledShare, svc),
  unlabelledAlloc: c.select(s.allocUnlabelledShare, svc),
  // The endpoint an alert names ($endpoint): its smoothed cost per request
  // and the 5m ratio it smooths.
  cpuNamed: c.select(s.endpointCpuPerRequestSmoothed, named),
  cpuNamedRate: c.select(s.endpointCpuPerRequest, named),
  allocNamed: c.select(s.endpointAllocPerRequestSmoothed, named),
  allocNamedRate: c.select(s.endpointAllocPerRequest, named),
  // The endpoint variable's values: the service's endpoints with a cost per request.
  endpoints: 'label_values(%s{%s}, endpoint)' % [s.endpointCpuPerRequest, routes],
}
