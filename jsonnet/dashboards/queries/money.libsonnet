// PromQL of the money columns and panels (dashboards/money.libsonnet), apart
// from their layout; the series exist only while costPerCoreHour > 0. Override
// any of them: mixin + { hotpathQueries+:: { money+: { cpuCostPerMonth: '...' } } }
local common = import 'common.libsonnet';

function(cfg) {
  local c = common(cfg),
  local s = c.series,

  // The fleet table's columns, one instant query each.
  fleetCpuCostPerMonth: c.select(s.cpuCostPerMonth, c.services),
  fleetCostPerMillionRequests: c.select(s.cpuCostPerMillionRequests, c.services),

  // One service, over time; cores and CPU per request beside the money.
  cpuCostPerMonth: c.select(s.cpuCostPerMonth, c.service),
  memoryCostPerMonth: c.select(s.memoryCostPerMonth, c.service),
  cpu: c.select(s.cpu, c.service),
  costPerMillionRequests: c.select(s.cpuCostPerMillionRequests, c.service),
  cpuPerRequest: c.select(s.cpuPerRequest, c.service),
}
