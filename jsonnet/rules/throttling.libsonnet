// CFS throttling per container, plus its CPU usage and limit for the
// usage-vs-limit panels. cAdvisor exports the CFS counters only for containers
// with a CPU limit, so a container without them has no limit: it gets no
// throttling series at all rather than a misleading 0%.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local sumRate(metric) = p.sumBy(p.container, 'rate(%s[%s])' % [p.containerSelector(metric), cfg.rateWindow]),
    local maxOf(metric, cond='') = 'max by (%s) (%s%s)' % [p.list(p.container), p.containerSelector(metric), cond],

    groups+: [
      {
        name: 'hotpath-throttling',
        interval: cfg.evaluationInterval,
        rules: [
          {
            // The share of CFS periods in which the container hit its quota.
            record: series.throttledPeriodsRatio,
            expr: p.ratio(sumRate(cfg.cfsThrottledPeriodsMetric), sumRate(cfg.cfsPeriodsMetric), p.container),
          },
          {
            // Seconds throttled per second: how much the quota really cost.
            record: series.throttledSeconds,
            expr: sumRate(cfg.cfsThrottledSecondsMetric),
          },
          {
            record: series.containerCpu,
            expr: sumRate(cfg.containerCpuMetric),
          },
          {
            // quota / period in cores; cAdvisor reports a quota only when set.
            record: series.containerCpuLimit,
            expr: p.ratio(maxOf(cfg.containerCpuQuotaMetric, ' > 0'), maxOf(cfg.containerCpuPeriodMetric), p.container),
          },
        ],
      },
    ],
  },
}
