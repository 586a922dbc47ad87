// Dashboards, one file each; keyed by output file name. Their PromQL lives in
// queries/, one object per dashboard under hotpathQueries, so a user can
// replace one query without touching layout:
//   mixin + { hotpathQueries+:: { service+: { heap: 'max by (instance) (...)' } } }
// Its knobs: config/dashboards.libsonnet.
(import 'overview.libsonnet')
+ (import 'service.libsonnet')
+ (import 'throttling.libsonnet')
+ {
  hotpathQueries+:: {
    overview: (import 'queries/overview.libsonnet')($._config),
    service: (import 'queries/service.libsonnet')($._config),
    throttling: (import 'queries/throttling.libsonnet')($._config),
    money: (import 'queries/money.libsonnet')($._config),
    functions: (import 'queries/functions.libsonnet')($._config),
    endpoints: (import 'queries/endpoints.libsonnet')($._config),
  },
}
// Applied last: alerts link to these uids, so they must be set, distinct and
// what the config says.
+ {
  local uids = $._config.dashboardUIDs,
  grafanaDashboards+:: {
    [name]+: {
      local want = { 'hotpath-overview.json': uids.overview, 'hotpath-service.json': uids.service, 'hotpath-throttling.json': uids.throttling }[name],
      assert self.uid == want : '%s: uid %s, config says %s' % [name, self.uid, want],
      assert std.length(std.set(std.objectValues(uids))) == 3 : 'dashboardUIDs must be distinct: %s' % std.toString(uids),
      assert std.length(self.uid) <= 40 : '%s: Grafana uids have at most 40 characters' % name,
    }
    for name in std.objectFields(super.grafanaDashboards)
  },
}
