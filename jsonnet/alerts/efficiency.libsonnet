// CPU efficiency of a service: against its own cost model, its instances'
// siblings and its upstreams, CPU that does not follow load, and allocations.
// Each alert names the playground incident it exists for (docs/reference.md, docs/runbook.md).
// Its knobs: config/baseline.libsonnet, config/load-fit.libsonnet and
// config/upstream.libsonnet, their `for` and severity config/alerts.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusAlerts+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local t = (import '../lib/alert-text.libsonnet')(cfg),
    local key = p.list(p.service),
    local cm = (import '../lib/baseline-model.libsonnet')(cfg),
    local models = (import '../lib/cost-models.libsonnet')(cfg),
    // A cost (m, a row of lib/cost-models.libsonnet) at >= its factor times
    // its prediction now, or its residual's median over
    // regressionResidualWindow at or above its noise threshold, or, once the
    // alert is firing (its own ALERTS series of the last evaluation), at or
    // above the lower hold level: hysteresis, so that noise dipping under the
    // threshold does not resolve a change that lasts; all while the service
    // serves >= minRequestRate. Where the cost has a floor in its own unit
    // (minExcess), the two paths that start a page also need the cost above
    // the prediction, value * (1 - 1 / residual), at or above it.
    local regression(name, m) =
      local floored(ratio) =
        if m.minExcess <= 0 then ''
        else '\nand on (%(key)s)\n%(value)s * on (%(key)s) (1 - 1 / %(ratio)s) >= %(min)s' % {
          key: key,
          value: m.value,
          ratio: ratio,
          min: p.num(m.minExcess),
        };
      |||
        (
          (
            %(residual)s >= %(factor)s%(residualFloor)s
          )
          or
          (
            %(smoothed)s
            >= on (%(key)s)
            %(threshold)s%(smoothedFloor)s
          )
          or
          (
            %(smoothed)s
            >= on (%(key)s)
            %(hold)s
            and on (%(key)s)
            ALERTS{alertname="%(name)s", alertstate="firing"}
          )
        )
        and on (%(key)s)
        %(requests)s >= %(minRate)s
      ||| % {
        name: name,
        residual: m.residual,
        residualFloor: std.strReplace(floored(m.residual), '\n', '\n    '),
        factor: p.num(m.factor),
        smoothed: m.residualSmoothed,
        threshold: cm.lastOfNoise(m.residualThreshold),
        smoothedFloor: std.strReplace(floored(m.residualSmoothed), '\n', '\n    '),
        hold: cm.lastOfNoise(m.residualHold),
        requests: series.requests,
        minRate: p.num(cfg.minRequestRate),
        key: key,
      },
    local alert(name, o) = {
      alert: name,
      'for': cfg.alertFor[name],
      labels: { severity: cfg.alertSeverity[name] },
    } + o,
    // The regression alerts hold through the noise's dips under their
    // threshold for regressionKeepFiringFor.
    local regressionAlert(name, o) = alert(name, { keep_firing_for: cfg.regressionKeepFiringFor } + o),

    // Instances serving >= minRequestRate, the ones the outlier alert compares.
    local servingInstances = (import '../lib/serving-instances.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-efficiency',
        interval: cfg.evaluationInterval,
        rules: [
          regressionAlert('CPUPerRequestRegression', {
            // The println story, or any change that makes the same traffic cost more CPU.
            // The value is CPU / what the service's own cost model predicts at
            // the current req/s (lib/baseline-model.libsonnet), so the nightly low,
            // where fixed costs are spread over fewer requests, is no regression.
            // Besides the fixed factor, the noise path: the residual's median over
            // regressionResidualWindow above the service's own noise band
            // (rules/noise.libsonnet), for smaller lasting regressions. The
            // value is either ratio. Both judge against the model and band as
            // recorded regressionAcceptAfter ago: held while a change lasts,
            // accepted after that.
            // Both start a page only once the CPU above the prediction is
            // cpuRegressionMinCores or more.
            expr: regression('CPUPerRequestRegression', models.cpu),
            annotations: {
              summary: 'A service uses more CPU than its own cost model predicts at its current traffic.',
              description: '%(service)s uses %(ratio)s the CPU its own cost model (fixed + marginal CPU per request, fitted on %(window)s of history up to %(lag)s ago) predicts at its current request rate. Each request, or the idle work, became more expensive: compare its CPU flame graph with the same hour of a good day.' % { service: t.service, ratio: t.ratio, window: cfg.baselineWindow, lag: cfg.regressionAcceptAfter },
            },
          }),
          regressionAlert('AllocationsPerRequestRegression', {
            // The gzip incident: a compression writer allocated per response. The same
            // cost model as CPU: allocations have fixed costs too, and the same
            // noise path.
            expr: regression('AllocationsPerRequestRegression', models.alloc),
            annotations: {
              summary: 'A service allocates more memory per request than its own history predicts.',
              description: '%(service)s allocates %(ratio)s the bytes per second its own cost model (fitted on %(window)s of history up to %(lag)s ago) predicts at its current request rate. More allocation means more GC CPU: look at its alloc_space flame graph and the diff against the baseline window.' % { service: t.service, ratio: t.ratio, window: cfg.baselineWindow, lag: cfg.regressionAcceptAfter },
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
              description: "Instance %(instance)s spends %(ratio)s the median CPU per request of its service's instances. Compare its CPU flame graph with a sibling's: a difference in code paths points at data or state, none at the host." % { instance: t.instance, ratio: t.ratio },
            },
          }),
          alert('CPUNotTrackingLoad', {
            // The epoll story: epoll_wait with a 0 timeout, a busy loop that keeps CPU
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
              description: '%(service)s: %(share)s of its CPU is a fixed cost that did not follow its request rate when the traffic swung (over the last %(recent)s, or in the %(long)s windows of the last %(window)s). A busy loop (a poll with a zero timeout, a spinning retry) looks like this: find the frame that dominates its CPU flame graph at any traffic.' % {
                service: t.service,
                share: t.share,
                recent: cfg.loadFitWindow,
                long: cfg.loadFitLongWindow,
                window: cfg.baselineWindow,
              },
            },
          }),
          alert('CPUPerRequestAboveUpstream', {
            // The println story: the API spent 10x the CPU per request of the cache it
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
              description: '%(service)s spends %(ratio)s the CPU per request of its upstream %(upstream)s (alert at %(factor)sx its own median over the last %(window)s, or %(absolute)sx). A service that mostly passes data through should cost about what its upstream costs: look for serialization, logging or copying in its flame graph.' % {
                service: t.service,
                ratio: t.ratio,
                upstream: t.label('upstream'),
                factor: p.num(cfg.upstreamBaselineFactor),
                window: cfg.baselineWindow,
                absolute: p.num(cfg.upstreamAbsoluteFactor),
              },
            },
          }),
        ],
      },
    ],
  },
}
