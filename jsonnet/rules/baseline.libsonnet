// The self baseline: each service's cost model for CPU and for allocations,
// refitted every baselineInterval on baselineWindow of history (the method is
// described in lib/baseline-model.libsonnet), and the upstream ratio's median. The
// predictions at the current traffic are the model's fast rules, in requests-cpu.libsonnet.
// Its knobs: config/baseline.libsonnet.
local series = import '../lib/series.libsonnet';

{
  prometheusRules+:: {
    local cfg = $._config,
    local p = (import '../lib/promql.libsonnet')(cfg),
    local cm = (import '../lib/baseline-model.libsonnet')(cfg),
    local models = (import '../lib/cost-models.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-baseline',
        interval: cfg.baselineInterval,
        rules: cm.requestsMedian + [
          cm.history,
          cm.gate(series.requestsByHalf, series.requests),
          cm.halfQuantile(series.requestsHalfQuantile, series.requestsByHalf),
        ] + cm.model(models.cpu).slow + cm.model(models.alloc).slow + [
          cm.sampled(series.cpuPerRequestToUpstreamSampled, series.cpuPerRequestToUpstream),
          {
            // Once the edge existed baselineMinHistory ago (a coarser history
            // check than the services', cheap for the many edges).
            record: series.cpuPerRequestToUpstreamBaselineMedian,
            expr: p.and(
              cm.median(series.cpuPerRequestToUpstreamSampled),
              cm.existedMinHistoryAgo(series.cpuPerRequestToUpstream),
              p.service + ['upstream'],
            ),
          },
        ],
      },
    ],
  },
}
