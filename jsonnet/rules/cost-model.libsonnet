// Every evaluationInterval: the recent least-squares fit of CPU on req/s
// behind CPUNotTrackingLoad. (What the self baseline's cost model predicts at
// the current traffic is recorded in hotpath-requests-cpu, next to the rates
// it is compared with.)
//
// The recent fit (the epoll busy-loop story: CPU stuck high whatever the
// traffic). Over loadFitWindow W, with c = CPU and r = req/s (both rate5m):
//
//   slope = cov(c, r) / var(r)
//         = (avg(c*r) - avg(c) * avg(r)) / (avg(r^2) - avg(r)^2)
//
// from the products c*r and r^2 (recorded in hotpath-requests-cpu next to c
// and r, so that all four averages read samples of the same evaluations) and
// avg_over_time. Only where traffic swung (coefficient of variation of r >=
// loadFitMinVariation), else the slope is noise, and only once the service has
// a whole window of history (it had a request rate W ago), else a new service
// is judged on its first minutes.
//
// A busy loop that starts inside the window is a step in c that least squares
// partly reads as slope for the next W, hiding the step for up to W when it
// happens to coincide with rising traffic. So the marginal cost used is the
// lower of this slope and the slope one window earlier (clean before the
// onset; after W the current window is clean again), clamped at >= 0. Then
//
//   fixed = c - marginal * r           (the fixed part now)
//   share = fixed / (fixed + marginal * avg(r))
//
// i.e. the fixed part's share of the CPU at the window's mean traffic. Taking
// the share at the mean, not at the current traffic, keeps a healthy service
// with a real fixed cost from looking fixed-dominated at a traffic low.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local key = p.list(p.service),
    local avg(s) = 'avg_over_time(%s[%s])' % [s, cfg.loadFitWindow],
    local c = series.cpu,
    local r = series.requests,

    groups+: [
      {
        name: 'hotpath-cost-model',
        interval: cfg.evaluationInterval,
        rules: [
          {
            record: series.requestsRecentVariation,
            expr: p.ratio(
              'sqrt(clamp_min(%s - on (%s) %s ^ 2, 0))' % [avg(series.requestsSquared), key, avg(r)],
              avg(r),
              p.service,
            ),
          },
          {
            record: series.cpuPerRequestRecentSlope,
            expr: |||
              (
                %(avgCR)s
                - on (%(key)s)
                (%(avgC)s * on (%(key)s) %(avgR)s)
              )
              / on (%(key)s)
              ((%(avgRR)s - on (%(key)s) %(avgR)s ^ 2) > 0)
              and on (%(key)s)
              %(cv)s >= %(minCV)s
              and on (%(key)s)
              %(r)s offset %(window)s
            ||| % {
              avgCR: avg(series.cpuTimesRequests),
              avgC: avg(c),
              avgR: avg(r),
              avgRR: avg(series.requestsSquared),
              cv: series.requestsRecentVariation,
              minCV: p.num(cfg.loadFitMinVariation),
              r: r,
              window: cfg.loadFitWindow,
              key: key,
            },
          },
          {
            // The lower of the slope now and one window ago (see above).
            record: series.cpuPerRequestRecentMarginal,
            expr: |||
              clamp_min(
                (%(now)s <= on (%(key)s) %(before)s)
                or
                (%(before)s < on (%(key)s) %(now)s)
                or
                %(now)s,
                0
              )
            ||| % {
              now: series.cpuPerRequestRecentSlope,
              before: '%s offset %s' % [series.cpuPerRequestRecentSlope, cfg.loadFitWindow],
              key: key,
            },
          },
          {
            record: series.cpuRecentFixed,
            expr: 'clamp_min(%s - on (%s) (%s * on (%s) %s), 0)' % [c, key, series.cpuPerRequestRecentMarginal, key, r],
          },
          {
            record: series.cpuRecentFixedShare,
            expr: p.ratio(
              series.cpuRecentFixed,
              '%s + on (%s) (%s * on (%s) %s)' % [series.cpuRecentFixed, key, series.cpuPerRequestRecentMarginal, key, avg(r)],
              p.service,
            ),
          },
        ],
      },
    ],
  },
}
