// Money per service, from the list prices of config/money.libsonnet
// (lib/money.libsonnet): no group at all when costPerCoreHour is 0. The
// dashboards read these; hotpath-notify prices an alert's change itself,
// from the catalogue's query in cores.
// Its knobs: config/money.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local money = (import '../lib/money.libsonnet')(cfg),

    groups+: if !money.on then [] else [
      {
        name: 'hotpath-cost',
        interval: cfg.evaluationInterval,
        rules: [
                 {
                   // CPU cost a month at the current rate: cores x
                   // costPerCoreHour x 730 hours.
                   record: series.cpuCostPerMonth,
                   expr: '%s * %s' % [series.cpu, p.num(money.perCoreMonth)],
                 },
                 {
                   // CPU cost of a million requests at the current CPU per
                   // request: seconds x 1e6 / 3600 x costPerCoreHour.
                   record: series.cpuCostPerMillionRequests,
                   expr: '%s * %s' % [series.cpuPerRequest, p.num(money.perMillionRequestSeconds)],
                 },
               ]
               + (if !money.memoryOn then [] else [
                    {
                      // Resident memory of the service's processes, in bytes.
                      record: series.memoryBytes,
                      expr: p.sumBy(p.service, p.selector(cfg.memoryMetric, [cfg.memorySelector])),
                    },
                    {
                      // Memory cost a month at the current size: GiB x
                      // costPerGiBHour x 730 hours.
                      record: series.memoryCostPerMonth,
                      expr: '%s / 1073741824 * %s' % [series.memoryBytes, p.num(money.perGiBMonth)],
                    },
                  ]),
      },
    ],
  },
}
