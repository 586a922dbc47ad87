// The load fit (rule group hotpath-load-fit), every evaluationInterval: the
// recent least-squares fit of CPU on req/s behind CPUNotTrackingLoad. (What
// the self baseline's cost model, lib/baseline-model.libsonnet, predicts at
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
//
// The slow path (group hotpath-load-fit-long, every baselineInterval): traffic that moves
// only with hours-long swings (a daily curve) rarely swings inside 30m, so the
// recent fit sees a busy loop only now and then and the alert flapped. The
// same fit over loadFitLongWindow L (3h) sees those swings; its slope is
// recorded wherever traffic swung within L, and the marginal cost used is the
// median of those slopes over baselineWindow (1d): a fit that sees many
// windows at once. A busy loop is a constant, so it leaves every slope alone
// except those of the windows holding its onset or its fix, and the median
// ignores those: the marginal cost stays right before, during and after the
// loop, also through plateaus where nothing swings. When every slope of the
// last L is higher than the median, the lowest of them is used instead: a
// lasting rise of the cost per request is then read as marginal, not fixed,
// from at most 2L after it (before that, a regression of the cost per request
// can also show here; CPUPerRequestRegression is the alert for it). Then, every
// evaluationInterval, with the current c and r:
//
//   fixed = c - marginal * r            share = fixed / (fixed + marginal * mean(r))
//
// with mean(r) over baselineWindow: the share at the day's typical traffic, so
// the nightly low does not make a real fixed cost look dominant. It follows c
// within minutes, so the alert fires soon after the onset and resolves soon
// after the fix. (keep_firing_for would hide flapping, not remove it, and
// delay every resolve by as long as the longest gap between swings: hours.)
// Its knobs: config/load-fit.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local key = p.list(p.service),
    local avgOver(s, w) = 'avg_over_time(%s[%s])' % [s, w],
    local avg(s) = avgOver(s, cfg.loadFitWindow),
    local c = series.cpu,
    local r = series.requests,

    // The averages of r and r^2 over window w the fit reads.
    local inlineMeans(w) = { r: avgOver(r, w), rr: avgOver(series.requestsSquared, w) },

    // The least-squares slope of c on r over window w, where traffic swung
    // (coefficient of variation `cv` >= loadFitMinVariation) and the service
    // had a request rate w ago (a whole window of history).
    local slope(w, cv, means=inlineMeans(w)) = |||
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
      avgCR: avgOver(series.cpuTimesRequests, w),
      avgC: avgOver(c, w),
      avgR: means.r,
      avgRR: means.rr,
      cv: cv,
      minCV: p.num(cfg.loadFitMinVariation),
      r: r,
      window: w,
      key: key,
    },
    local variation(w, means=inlineMeans(w)) = p.ratio(
      'sqrt(clamp_min(%s - on (%s) %s ^ 2, 0))' % [means.rr, key, means.r],
      means.r,
      p.service,
    ),
    // The fixed part now, and its share of the CPU at traffic `meanR`.
    local fixedNow(marginal) = 'clamp_min(%s - on (%s) (%s * on (%s) %s), 0)' % [c, key, marginal, key, r],
    local share(fixed, marginal, meanR) = p.ratio(
      fixed,
      '%s + on (%s) (%s * on (%s) %s)' % [fixed, key, marginal, key, meanR],
      p.service,
    ),

    // The slow path's refits, in a group of their own every baselineInterval
    // (after the baseline group, whose sampled req/s they average).
    local slowRules = [
      {
        // The slope of CPU on req/s over loadFitLongWindow, where traffic swung in it.
        record: series.cpuPerRequestLongSlope,
        expr: slope(cfg.loadFitLongWindow, '(\n%s\n)' % variation(cfg.loadFitLongWindow)),
      },
      {
        // The day's median slope, or every slope of the last window when
        // all of them are higher: a lasting rise of the cost per request
        // then counts as marginal, not fixed, once the windows see it.
        record: series.cpuPerRequestLongMarginal,
        expr: |||
          clamp_min(
            max by (%(key)s) (
              %(median)s
              or
              min_over_time(%(slope)s[%(window)s])
            ),
            0
          )
        ||| % {
          key: key,
          median: p.setLabel('quantile_over_time(0.5, %s[%s])' % [series.cpuPerRequestLongSlope, cfg.baselineWindow], 'fit', 'median'),
          slope: series.cpuPerRequestLongSlope,
          window: cfg.loadFitLongWindow,
        },
      },
      {
        // The mean req/s over baselineWindow: the traffic the long share is taken at.
        record: series.requestsBaselineMean,
        expr: 'avg_over_time(%s[%s])' % [series.requestsSampled, cfg.baselineWindow],
      },
    ],

    groups+: [
      {
        name: 'hotpath-load-fit-long',
        interval: cfg.baselineInterval,
        rules: slowRules,
      },
      {
        name: 'hotpath-load-fit',
        interval: cfg.evaluationInterval,
        rules: [
          {
            // How much req/s swung over loadFitWindow (stddev / mean).
            record: series.requestsRecentVariation,
            expr: variation(cfg.loadFitWindow),
          },
          {
            // The least-squares slope of CPU on req/s over loadFitWindow, where traffic swung.
            record: series.cpuPerRequestRecentSlope,
            expr: slope(cfg.loadFitWindow, series.requestsRecentVariation),
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
            // The fixed part of the CPU now, by the recent fit (cores).
            record: series.cpuRecentFixed,
            expr: fixedNow(series.cpuPerRequestRecentMarginal),
          },
          {
            // Its share of the CPU at the window's mean traffic (CPUNotTrackingLoad's value).
            record: series.cpuRecentFixedShare,
            expr: share(series.cpuRecentFixed, series.cpuPerRequestRecentMarginal, avg(r)),
          },
          {
            // The fixed part of the CPU now, by the slow path (cores).
            record: series.cpuLongFixed,
            expr: fixedNow(p.lastOfSlow(series.cpuPerRequestLongMarginal)),
          },
          {
            // Its share of the CPU at the day's mean traffic.
            record: series.cpuLongFixedShare,
            expr: share(series.cpuLongFixed, p.lastOfSlow(series.cpuPerRequestLongMarginal), p.lastOfSlow(series.requestsBaselineMean)),
          },
        ],
      },
    ],
  },
}
