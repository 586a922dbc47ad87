// What hotpath-notify reads for the throttling answer of an alert on a
// container (CPUThrottlingSustained's message), rendered into
// catalogue/catalogue.json so the receiver reads the series and knobs of this
// config. Each query is instant, at the incident's end, with three
// placeholders the receiver fills: $container (the alert's container
// matchers), $pod (its pod matchers, for series scraped from the pod itself)
// and $range (the incident's length, e.g. 1800s). docs/runbook.md
// (CPUThrottlingSustained) explains the figures and the suggestion.
// Usage: (import 'lib/throttling-answer.libsonnet')(cfg).queries.peak
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

function(cfg) {
  local p = (import 'promql.libsonnet')(cfg),
  local mean(s) = 'max(avg_over_time(%s{$container}[$range]))' % s,
  local last(s) = 'max(max_over_time(%s{$container}[$range]))' % s,
  // A subquery's resolution: four points per short window, so every short
  // window of the incident is seen.
  local step = '%ds' % std.max(1, durations.seconds(cfg.throttlingBurstWindow) / 4),

  queries: {
    // Mean CPU cores used over the incident (the recorded 5m rate).
    usage: mean(series.containerCpu),
    // The peak of the short windows' CPU cores over the incident.
    peak: 'max(max_over_time(sum by (%(container)s) (rate(%(cpu)s[%(window)s]))[$range:%(step)s]))' % {
      container: p.list(p.container),
      cpu: p.containerSelector(cfg.containerCpuMetric, ['$container']),
      window: cfg.throttlingBurstWindow,
      step: step,
    },
    limit: last(series.containerCpuLimit),
    request: last(series.containerCpuRequest),
    // Mean throttled seconds per second over the incident.
    throttled: mean(series.throttledSeconds),
    // Mean requests per second of the pod (every work-unit counter): the
    // per-request figure is the mean throttled time over this.
    podRequests: 'sum(avg_over_time((%s)[$range:1m]))' % std.join(' or ', [
      p.sumBy(p.pod, p.rate(src.metric, ['$pod', src.selector]))
      for src in p.requestSources
    ]),
    // The services whose requests the pod counts (label `%s`).
    services: 'group by (%s) (%s)' % [cfg.serviceLabel, p.allSources(['$pod'])],
    // Go's GOMAXPROCS, where the runtime exports it (client_golang >= 1.12
    // on Go >= 1.21 runtime metrics).
    gomaxprocs: 'max(max_over_time(go_sched_gomaxprocs_threads{$pod}[$range]))',
  },
  serviceLabel: cfg.serviceLabel,
  burstWindow: cfg.throttlingBurstWindow,
  burstyRatio: cfg.throttlingBurstyRatio,
  headroom: cfg.throttlingLimitHeadroom,
  stepCores: cfg.throttlingLimitStep,
  cfsPeriodSeconds: durations.seconds(cfg.cfsPeriod),
}
