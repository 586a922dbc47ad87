// The instances serving >= minRequestRate, each with its CPU per request: the
// siblings CPUPerRequestOutlier compares, and whose median prices its change
// (lib/money.libsonnet).
//
// Usage: local serving = (import 'lib/serving-instances.libsonnet')(cfg);
local series = import 'series.libsonnet';

function(cfg)
  local p = (import 'promql.libsonnet')(cfg);
  '(%(perRequest)s and on (%(ikey)s) %(requests)s >= %(minRate)s)' % {
    perRequest: series.instanceCpuPerRequest,
    requests: series.instanceRequests,
    minRate: p.num(cfg.minRequestRate),
    ikey: p.list(p.instance),
  }
