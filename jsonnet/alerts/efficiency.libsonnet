// CPU efficiency of a service: against its own cost model, its instances'
// siblings and its upstreams, CPU that does not follow load, and allocations.
// Each alert names the incident story it exists for (shared/seeds, docs/runbook.md).
local series = import '../lib/series.libsonnet';

{
  prometheusAlerts+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local t = (import '../lib/alert-text.libsonnet')(cfg),
    local key = p.list(p.service),
    local ikey = p.list(p.instance),
    local withTraffic(expr) = '%s\nand on (%s)\n%s >= %s' % [expr, key, series.requests, p.num(cfg.minRequestRate)],
    local alert(name, o) = {
      alert: name,
      'for': cfg.alertFor[name],
      labels: { severity: cfg.alertSeverity[name] },
      dashboard:: 'service',
    } + o,

    // Instances serving >= minRequestRate, the ones the outlier alert compares.
    local servingInstances = '(%s and on (%s) %s >= %s)' % [series.instanceCpuPerRequest, ikey, series.instanceRequests, p.num(cfg.minRequestRate)],

    groups+: [
      {
        name: 'hotpath-efficiency',
        interval: cfg.evaluationInterval,
        rules: [
          alert('CPUPerRequestRegression', {
            // Stories 000 and 004: the same traffic suddenly costs more CPU.
            // The value is CPU / what the service's own cost model predicts at
            // the current req/s (lib/baseline-model.libsonnet), so the nightly low,
            // where fixed costs are spread over fewer requests, is no regression.
            expr: withTraffic('%s\n>= %s' % [p.ratio(series.cpu, series.cpuBaselinePredicted, p.service), p.num(cfg.cpuRegressionFactor)]),
            annotations: {
              summary: 'A service uses more CPU than its own cost model predicts at its current traffic.',
              description: '%s uses %s the CPU its own cost model (fixed + marginal CPU per request, fitted on the last %s) predicts at its current request rate. Each request, or the idle work, became more expensive: compare its CPU flame graph with the same hour of a good day.' % [t.service, t.ratio, cfg.baselineWindow],
            },
          }),
          alert('AllocationsPerRequestRegression', {
            // Story 003: a compression writer allocated per response. The same
            // cost model as CPU: allocations have fixed costs too.
            expr: withTraffic('%s\n>= %s' % [p.ratio(series.alloc, series.allocBaselinePredicted, p.service), p.num(cfg.allocRegressionFactor)]),
            annotations: {
              summary: 'A service allocates more memory per request than its own history predicts.',
              description: '%s allocates %s the bytes per second its own cost model (fitted on the last %s) predicts at its current request rate. More allocation means more GC CPU: look at its alloc_space flame graph and the diff against the baseline window.' % [t.service, t.ratio, cfg.baselineWindow],
            },
          }),
          alert('CPUPerRequestOutlier', {
            // One instance spends more per request than its siblings: a bad node,
            // a noisy neighbour, a stuck goroutine in one process. Siblings are
            // the instances of the same service (and namespace, cluster) serving
            // >= minRequestRate, the instance itself included.
            expr: |||
              %(instances)s
              / on (%(key)s) group_left ()
              (
                quantile by (%(key)s) (0.5, %(instances)s) > 0
                and on (%(key)s)
                count by (%(key)s) (%(instances)s) >= %(min)s
              )
              >= %(factor)s
            ||| % { instances: servingInstances, key: key, min: p.num(cfg.outlierMinInstances), factor: p.num(cfg.outlierFactor) },
            annotations: {
              summary: 'One instance of a service spends much more CPU per request than its siblings.',
              description: "Instance %s spends %s the median CPU per request of its service's instances. Compare its CPU flame graph with a sibling's: a difference in code paths points at data or state, none at the host." % [t.instance, t.ratio],
            },
          }),
          alert('CPUNotTrackingLoad', {
            // Story 001: epoll_wait with a 0 timeout, a busy loop that keeps CPU
            // high whatever the traffic. The value is the fixed part's share of
            // the CPU (rules/load-fit.libsonnet explains both fits). Once a
            // service has the slow path (the median of the day's long-window
            // fits), it alone decides: the recent fit sees a swing now and
            // then, and letting it fire in between would be the flapping the
            // slow path removes. Before that (a new service), the recent fit.
            expr: |||
              (
                %(longShare)s >= %(minShare)s
                or
                (
                  %(share)s >= %(minShare)s
                  and on (%(key)s)
                  %(cv)s >= %(minCV)s
                  unless on (%(key)s)
                  %(longShare)s
                )
              )
              and on (%(key)s)
              %(cpu)s >= %(minCores)s
              and on (%(key)s)
              avg_over_time(%(requests)s[%(window)s]) >= %(floor)s
            ||| % {
              share: series.cpuRecentFixedShare,
              longShare: series.cpuLongFixedShare,
              minShare: p.num(cfg.notTrackingLoadFixedShare),
              cv: series.requestsRecentVariation,
              minCV: p.num(cfg.loadFitMinVariation),
              cpu: series.cpu,
              minCores: p.num(cfg.notTrackingLoadMinCores),
              requests: series.requests,
              window: cfg.loadFitWindow,
              floor: p.num(cfg.minRequestRate),
              key: key,
            },
            annotations: {
              summary: 'A service burns CPU that does not follow its traffic.',
              description: '%s: %s of its CPU is a fixed cost that did not follow its request rate when the traffic swung (over the last %s, or in the %s windows of the last %s). A busy loop (a poll with a zero timeout, a spinning retry) looks like this: find the frame that dominates its CPU flame graph at any traffic.' % [t.service, t.share, cfg.loadFitWindow, cfg.loadFitLongWindow, cfg.baselineWindow],
            },
          }),
          alert('CPUPerRequestAboveUpstream', {
            // Story 000: the API spent 10x the CPU per request of the cache it
            // streams from. The value is the ratio of the two CPUs per request.
            expr: |||
              %(ratio)s
              >= on (%(key)s, upstream)
              %(factor)s * %(median)s
              or
              %(ratio)s >= %(absolute)s
            ||| % {
              ratio: series.cpuPerRequestToUpstream,
              median: p.lastOfSlow(series.cpuPerRequestToUpstreamBaselineMedian),
              factor: p.num(cfg.upstreamBaselineFactor),
              absolute: p.num(cfg.upstreamAbsoluteFactor),
              key: key,
            },
            annotations: {
              summary: 'A service spends much more CPU per request than an upstream it calls.',
              description: '%s spends %s the CPU per request of its upstream %s (alert at %sx its own median over the last %s, or %sx). A service that mostly passes data through should cost about what its upstream costs: look for serialization, logging or copying in its flame graph.' % [t.service, t.ratio, t.label('upstream'), p.num(cfg.upstreamBaselineFactor), cfg.baselineWindow, p.num(cfg.upstreamAbsoluteFactor)],
            },
          }),
        ],
      },
    ],
  },
}
