// CFS throttling per container, plus its CPU usage and limit for the
// usage-vs-limit panels. cAdvisor exports the CFS counters only for containers
// with a CPU limit, so a container without them has no limit: it gets no
// throttling series at all rather than a misleading 0%.
// Its knobs: config/throttling.libsonnet.
local durations = import '../lib/durations.libsonnet';
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local sumRate(metric) = p.sumBy(p.container, 'rate(%s[%s])' % [p.containerSelector(metric), cfg.rateWindow]),
    local maxOf(metric, cond='') = 'max by (%s) (%s%s)' % [p.list(p.container), p.containerSelector(metric), cond],
    local kubeStateMetrics(metric, selector) = 'max by (%s) (%s)' % [p.list(p.container), p.selector(metric, ['%s!=""' % cfg.containerLabel, selector])],
    // Requests per second per pod: every service it serves, each counted
    // from its one source (hotpath-requests-cpu's pod series).
    local podRequests = p.sumBy(p.pod, '%s{%s!=""}' % [series.podRequests, cfg.podLabel]),

    groups+: [
      {
        name: 'hotpath-throttling',
        interval: cfg.evaluationInterval,
        rules: [
          {
            // CFS periods throttled per second per container.
            record: series.throttledPeriods,
            expr: sumRate(cfg.cfsThrottledPeriodsMetric),
          },
          {
            // The share of CFS periods in which the container hit its quota.
            record: series.throttledPeriodsRatio,
            expr: p.ratio(series.throttledPeriods, sumRate(cfg.cfsPeriodsMetric), p.container),
          },
          {
            // Seconds throttled per second: how much the quota really cost.
            // Where cAdvisor's throttled seconds are dropped (kube-prometheus-
            // stack's default), throttled periods x the CFS period: an upper
            // bound, so an idle container (few periods) stays small.
            record: series.throttledSeconds,
            expr: '%s\nor on (%s)\n%s * %s' % [sumRate(cfg.cfsThrottledSecondsMetric), p.list(p.container), series.throttledPeriods, p.num(durations.seconds(cfg.cfsPeriod))],
          },
          {
            // CPU cores per container, for the usage-vs-limit panels.
            record: series.containerCpu,
            expr: sumRate(cfg.containerCpuMetric),
          },
          {
            // quota / period in cores; cAdvisor reports a quota only when set.
            // Without container_spec_* (kube-prometheus-stack's default), the
            // limit kube-state-metrics reports.
            record: series.containerCpuLimit,
            expr: '%s\nor on (%s)\n%s' % [
              p.ratio(maxOf(cfg.containerCpuQuotaMetric, ' > 0'), maxOf(cfg.containerCpuPeriodMetric), p.container),
              p.list(p.container),
              kubeStateMetrics(cfg.kubeStateMetricsLimitMetric, cfg.kubeStateMetricsLimitSelector),
            ],
          },
          {
            // The CPU request in cores (kube-state-metrics); no series means
            // no request (or no kube-state-metrics).
            record: series.containerCpuRequest,
            expr: kubeStateMetrics(cfg.kubeStateMetricsRequestMetric, cfg.kubeStateMetricsRequestSelector),
          },
          {
            // Throttled seconds per request the container's pod serves: the
            // most latency the quota adds to a request. Only for pods whose
            // requests are counted (a known service); the pod side is summed
            // per pod, so each container of the pod matches it once.
            record: series.throttledSecondsPerRequest,
            expr: '%s\n/ on (%s) group_left ()\n((\n%s\n) > 0)' % [series.throttledSeconds, p.list(p.pod), podRequests],
          },
        ],
      },
    ],
  },
}
