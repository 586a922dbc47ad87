// The cfs story: latency up while CPU usage looks low, because the CFS quota
// throttles the container 1-3 s per second. Both conditions: a mostly idle
// container can be throttled in many of its few periods for a negligible time.
// Its knobs: config/throttling.libsonnet, its `for` and severity config/alerts.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusAlerts+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local t = (import '../lib/alert-text.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-throttling-alerts',
        interval: cfg.evaluationInterval,
        rules: [
          {
            alert: 'CPUThrottlingSustained',
            // The value is the throttled time per second.
            expr: p.and(
              '%s >= %s' % [series.throttledSeconds, p.num(cfg.throttledSecondsThreshold)],
              '%s >= %s' % [series.throttledPeriodsRatio, p.num(cfg.throttledPeriodsThreshold)],
              p.container,
            ),
            'for': cfg.alertFor.CPUThrottlingSustained,
            labels: { severity: cfg.alertSeverity.CPUThrottlingSustained },
            annotations: {
              summary: 'A container is throttled by its CPU limit for a significant time.',
              description: '%s is throttled %s seconds per second, in at least %s of its CFS periods. Its CPU limit, not its code, adds latency: compare its usage with its limit, and raise or remove the limit.' % [t.container, t.number, '%d%%' % std.round(cfg.throttledPeriodsThreshold * 100)],
            },
          },
        ],
      },
    ],
  },
}
