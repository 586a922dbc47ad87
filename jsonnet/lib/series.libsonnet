// The names of every recorded series, in one place: the rules record them, the
// dashboards and alerts read them. They are public API (docs/reference.md
// lists them): they may grow, never silently rename.
{
  // Per service (job, plus cluster/namespace when present) and per instance.
  requests: 'job:requests:rate5m',
  instanceRequests: 'instance:requests:rate5m',
  // Requests per second per pod that served them (label pod; absent for a
  // service outside Kubernetes), with the service and instance they were
  // counted under: from the one source each service is counted from. The
  // joins of cAdvisor's per-pod series to services read it.
  podRequests: 'pod:requests:rate5m',
  cpu: 'job:cpu_seconds:rate5m',
  instanceCpu: 'instance:cpu_seconds:rate5m',
  cpuPerRequest: 'job:cpu_seconds_per_request:ratio_rate5m',
  instanceCpuPerRequest: 'instance:cpu_seconds_per_request:ratio_rate5m',
  alloc: 'job:alloc_bytes:rate5m',
  allocPerRequest: 'job:alloc_bytes_per_request:ratio_rate5m',

  // CPU per request against each upstream peer (extra label `upstream`).
  cpuPerRequestToUpstream: 'job:cpu_seconds_per_request:ratio_to_upstream',

  // CFS throttling per container (namespace, pod, container).
  throttledPeriodsRatio: 'container:cpu_cfs_throttled_periods:ratio_rate5m',
  throttledSeconds: 'container:cpu_cfs_throttled_seconds:rate5m',
  // Throttled periods per second: the ratio's numerator, and (times the CFS
  // period) the throttled seconds where cAdvisor's are dropped.
  throttledPeriods: 'container:cpu_cfs_throttled_periods:rate5m',

  // Versions (versionSources): one series per version a service runs (value
  // 1, label version; two during a rollout), when each began to run (unix
  // seconds), and its last deploy: labels version and previous_version, the
  // value the unix seconds the version began to run.
  versionInfo: 'job:version:info',
  versionStart: 'job:version:start_timestamp',
  versionRollout: 'job:version:rollout_timestamp',
  // Money (lib/money.libsonnet), recorded only while costPerCoreHour > 0, in
  // the currency of the knob: CPU cost a month at the current rate, CPU cost
  // per million requests, and memory cost a month (costPerGiBHour > 0).
  cpuCostPerMonth: 'job:cpu_cost_per_month:rate5m',
  cpuCostPerMillionRequests: 'job:cpu_cost_per_million_requests:ratio_rate5m',
  memoryBytes: 'job:memory_bytes:sum',
  memoryCostPerMonth: 'job:memory_cost_per_month:sum',

  // ---- The rule pack's own intermediate series; the dashboards read these too. ----

  // CPU usage and limit per container (cAdvisor), for usage-vs-limit panels.
  // The limit is quota / period in cores; no series means "no limit".
  containerCpu: 'container:cpu_usage_seconds:rate5m',
  containerCpuLimit: 'container:cpu_limit_cores:ratio',
  // The CPU request per container in cores (kube-state-metrics): what the
  // scheduler reserves, the floor a container without a limit keeps.
  containerCpuRequest: 'container:cpu_request_cores:max',
  // Throttled seconds per request the container's pod serves: the most
  // latency the quota adds to a request, on average.
  throttledSecondsPerRequest: 'container:cpu_cfs_throttled_seconds_per_request:ratio_rate5m',

  // The self baseline: each service's cost model CPU = fixed + marginal * req/s,
  // fitted on baselineWindow (1d) by a two-group resistant line and refitted
  // every baselineInterval (5m). See jsonnet/rules/baseline.libsonnet.
  requestsBaselineMedian: 'job:requests:baseline_median',
  // Copies recorded every baselineInterval of series the baseline takes a
  // day-long median of: 288 points a day to read instead of 1440.
  requestsSampled: 'job:requests:rate5m_sampled',
  cpuPerRequestToUpstreamSampled: 'job:cpu_seconds_per_request:ratio_to_upstream_sampled',
  // Seconds of history the service has within the baseline window (coarse).
  requestsBaselineHistory: 'job:requests:baseline_history_seconds',
  // The rate5m series gated by traffic half: label half="upper"|"lower".
  requestsByHalf: 'job:requests:rate5m_by_half',
  cpuByHalf: 'job:cpu_seconds:rate5m_by_half',
  allocByHalf: 'job:alloc_bytes:rate5m_by_half',
  // A low quantile (baselineHalfQuantile) of the gated series over the window,
  // per half: the two points the model's line goes through.
  requestsHalfQuantile: 'job:requests:baseline_half_quantile',
  cpuHalfQuantile: 'job:cpu_seconds:baseline_half_quantile',
  allocHalfQuantile: 'job:alloc_bytes:baseline_half_quantile',
  // The fallback when traffic did not vary enough to fit a line: the plain
  // cost per request of the two points (a line through the origin).
  cpuPerRequestBaselineRatio: 'job:cpu_seconds_per_request:baseline_ratio',
  allocPerRequestBaselineRatio: 'job:alloc_bytes_per_request:baseline_ratio',
  // The fitted model: fixed part (cores; bytes/s) and marginal part (per request).
  cpuBaselineFixed: 'job:cpu_seconds:baseline_fixed',
  cpuPerRequestBaselineMarginal: 'job:cpu_seconds_per_request:baseline_marginal',
  allocBaselineFixed: 'job:alloc_bytes:baseline_fixed',
  allocPerRequestBaselineMarginal: 'job:alloc_bytes_per_request:baseline_marginal',
  // What the model (or the fallback) predicts at the current traffic, as a
  // rate and per request (the "baseline band" of CPU per request).
  cpuBaselinePredicted: 'job:cpu_seconds:baseline_predicted',
  cpuPerRequestBaselinePredicted: 'job:cpu_seconds_per_request:baseline_predicted',
  allocBaselinePredicted: 'job:alloc_bytes:baseline_predicted',
  allocPerRequestBaselinePredicted: 'job:alloc_bytes_per_request:baseline_predicted',

  // The noise model (rules/noise.libsonnet): the residual, measured / what
  // the cost model predicts (every evaluationInterval); the residual's median
  // over regressionResidualWindow (the smoothed residual); its copy sampled
  // every regressionNoiseInterval once the model is fitted on a whole
  // baselineWindow; that copy's median and spread (median minus the lower
  // quartile) over the baseline window; and the smoothed residual above which
  // the regression alerts fire, max(median * (1 + floor), median + k * spread);
  // and the lower level a firing regression alert holds at,
  // median + regressionHoldShare * (threshold - median).
  cpuBaselineResidual: 'job:cpu_seconds:baseline_residual',
  cpuBaselineResidualSmoothed: 'job:cpu_seconds:baseline_residual_smoothed',
  cpuBaselineResidualSampled: 'job:cpu_seconds:baseline_residual_sampled',
  cpuBaselineResidualMedian: 'job:cpu_seconds:baseline_residual_median',
  cpuBaselineResidualSpread: 'job:cpu_seconds:baseline_residual_spread',
  cpuBaselineResidualThreshold: 'job:cpu_seconds:baseline_residual_threshold',
  cpuBaselineResidualHold: 'job:cpu_seconds:baseline_residual_hold',
  allocBaselineResidual: 'job:alloc_bytes:baseline_residual',
  allocBaselineResidualSmoothed: 'job:alloc_bytes:baseline_residual_smoothed',
  allocBaselineResidualSampled: 'job:alloc_bytes:baseline_residual_sampled',
  allocBaselineResidualMedian: 'job:alloc_bytes:baseline_residual_median',
  allocBaselineResidualSpread: 'job:alloc_bytes:baseline_residual_spread',
  allocBaselineResidualThreshold: 'job:alloc_bytes:baseline_residual_threshold',
  allocBaselineResidualHold: 'job:alloc_bytes:baseline_residual_hold',

  // The recent least-squares fit of CPU on req/s (loadFitWindow, 30m) behind
  // CPUNotTrackingLoad: products for the fit, the fitted parts, and how much
  // traffic swung (coefficient of variation of req/s over the window).
  cpuTimesRequests: 'job:cpu_seconds_times_requests:rate5m',
  requestsSquared: 'job:requests_squared:rate5m',
  requestsRecentVariation: 'job:requests:recent_cv',
  // The plain least-squares slope over the window, and the marginal cost used:
  // the lower of that slope and the one a window earlier (see load-fit).
  cpuPerRequestRecentSlope: 'job:cpu_seconds_per_request:recent_slope',
  cpuPerRequestRecentMarginal: 'job:cpu_seconds_per_request:recent_marginal',
  // The fixed part now (cores), and its share of the CPU at the window's mean
  // traffic: the value CPUNotTrackingLoad compares with its threshold.
  cpuRecentFixed: 'job:cpu_seconds:recent_fixed',
  cpuRecentFixedShare: 'job:cpu_seconds:recent_fixed_share',
  // The slow path (loadFitLongWindow, 3h): the slope of each long window in
  // which traffic swung (every baselineInterval), its median over the
  // baseline window, the mean req/s over that window, and the fixed part now
  // and its share at that mean traffic.
  cpuPerRequestLongSlope: 'job:cpu_seconds_per_request:long_slope',
  cpuPerRequestLongMarginal: 'job:cpu_seconds_per_request:long_marginal',
  requestsBaselineMean: 'job:requests:baseline_mean',
  cpuLongFixed: 'job:cpu_seconds:long_fixed',
  cpuLongFixedShare: 'job:cpu_seconds:long_fixed_share',

  // Upstream edges (labels job, upstream): service graph plus the static map.
  upstreamEdges: 'job_upstream:edges:group',
  // The client's own CPU per request, one series per edge (label upstream).
  upstreamClientCpuPerRequest: 'job_upstream:cpu_seconds_per_request:ratio_rate5m',
  // Median of ratio_to_upstream over the baseline window (label upstream).
  cpuPerRequestToUpstreamBaselineMedian: 'job:cpu_seconds_per_request:ratio_to_upstream_baseline_median',

  // Functions (lib/function-costs.libsonnet; labels: the service label and
  // `function`), from hotpath-profile-metrics' counters: each function's cost
  // per second and per request of its service, that ratio's median over
  // regressionResidualWindow; its cost model (fixed + marginal * req/s,
  // fitted on the service's traffic halves every regressionNoiseInterval),
  // whether the bridge admitted the function lately (1, else 0), the model
  // as recorded regressionAcceptAfter ago (the reference: 0 for a function
  // admitted lately), the function's excess over the reference's prediction
  // as a share of its service's profile, that excess smoothed, sampled, its median and spread
  // over baselineWindow, and the threshold and hold level
  // FunctionCostPerRequestRegression judges it against.
  // The service's req/s at the function models' quantile (functionFitQuantile)
  // of each traffic half: the x of their points.
  functionRequestsHalfQuantile: 'job:requests:function_half_quantile',
  functionCpu: 'job_function:cpu_seconds:rate5m',
  functionCpuPerRequest: 'job_function:cpu_seconds_per_request:ratio_rate5m',
  functionCpuPerRequestSmoothed: 'job_function:cpu_seconds_per_request:smoothed',
  functionCpuByHalf: 'job_function:cpu_seconds:by_half',
  functionCpuHalfQuantile: 'job_function:cpu_seconds:half_quantile',
  functionCpuHalvesSum: 'job_function:cpu_seconds:halves_sum',
  functionCpuHalvesRequests: 'job_function:requests:cpu_halves_sum',
  functionCpuMarginal: 'job_function:cpu_seconds_per_request:baseline_marginal',
  functionCpuFixed: 'job_function:cpu_seconds:baseline_fixed',
  functionCpuReferenceMarginal: 'job_function:cpu_seconds_per_request:reference_marginal',
  functionCpuReferenceFixed: 'job_function:cpu_seconds:reference_fixed',
  functionCpuAdmittedLately: 'job_function:cpu_seconds:admitted_lately',
  functionCpuReferencePredicted: 'job_function:cpu_seconds:reference_predicted',
  functionCpuExcess: 'job_function:cpu_seconds_excess_share:ratio_rate5m',
  functionCpuExcessSmoothed: 'job_function:cpu_seconds_excess_share:smoothed',
  functionCpuExcessSampled: 'job_function:cpu_seconds_excess_share:smoothed_sampled',
  functionCpuExcessMedian: 'job_function:cpu_seconds_excess_share:baseline_median',
  functionCpuExcessSpread: 'job_function:cpu_seconds_excess_share:baseline_spread',
  functionCpuExcessThreshold: 'job_function:cpu_seconds_excess_share:baseline_threshold',
  functionCpuExcessHold: 'job_function:cpu_seconds_excess_share:baseline_hold',
  functionAlloc: 'job_function:alloc_bytes:rate5m',
  functionAllocPerRequest: 'job_function:alloc_bytes_per_request:ratio_rate5m',
  functionAllocPerRequestSmoothed: 'job_function:alloc_bytes_per_request:smoothed',
  functionAllocByHalf: 'job_function:alloc_bytes:by_half',
  functionAllocHalfQuantile: 'job_function:alloc_bytes:half_quantile',
  functionAllocHalvesSum: 'job_function:alloc_bytes:halves_sum',
  functionAllocHalvesRequests: 'job_function:requests:alloc_halves_sum',
  functionAllocMarginal: 'job_function:alloc_bytes_per_request:baseline_marginal',
  functionAllocFixed: 'job_function:alloc_bytes:baseline_fixed',
  functionAllocReferenceMarginal: 'job_function:alloc_bytes_per_request:reference_marginal',
  functionAllocReferenceFixed: 'job_function:alloc_bytes:reference_fixed',
  functionAllocAdmittedLately: 'job_function:alloc_bytes:admitted_lately',
  functionAllocReferencePredicted: 'job_function:alloc_bytes:reference_predicted',
  functionAllocExcess: 'job_function:alloc_bytes_excess_share:ratio_rate5m',
  functionAllocExcessSmoothed: 'job_function:alloc_bytes_excess_share:smoothed',
  functionAllocExcessSampled: 'job_function:alloc_bytes_excess_share:smoothed_sampled',
  functionAllocExcessMedian: 'job_function:alloc_bytes_excess_share:baseline_median',
  functionAllocExcessSpread: 'job_function:alloc_bytes_excess_share:baseline_spread',
  functionAllocExcessThreshold: 'job_function:alloc_bytes_excess_share:baseline_threshold',
  functionAllocExcessHold: 'job_function:alloc_bytes_excess_share:baseline_hold',

  // Endpoints (lib/endpoint-costs.libsonnet; labels: the service label and
  // `endpoint`, a normalised route): each route's request rate, from the
  // per-route counters (endpointRequestSources, with the scope labels), by
  // instance and by service, and by service on the instances whose profiles
  // the bridge read (per profile type: what an endpoint's cost is divided
  // by), and from hotpath-profile-metrics' endpoint counters each endpoint's cost per
  // second and per request of that route, that ratio's median over
  // regressionResidualWindow, its copy sampled every regressionNoiseInterval,
  // the copy's median and ceiling (max + k * spread) over
  // baselineWindow, and what EndpointCostPerRequestRegression judges
  // against: the median (the reference) and the ceiling (the threshold) as
  // recorded regressionAcceptAfter ago.
  endpointInstanceRequests: 'instance_endpoint:requests:rate5m',
  endpointRequests: 'job_endpoint:requests:rate5m',
  endpointCpuProfiledRequests: 'job_endpoint:cpu_profiled_requests:rate5m',
  endpointAllocProfiledRequests: 'job_endpoint:alloc_profiled_requests:rate5m',
  // The instances whose route counters restarted lately, and the share of
  // a service's profile its endpoint costs are counted on.
  routeRequestsRestarted: 'instance:route_requests:restarted',
  endpointCpuCountedShare: 'job:cpu_seconds_counted_share:ratio_rate5m',
  endpointAllocCountedShare: 'job:alloc_bytes_counted_share:ratio_rate5m',
  endpointCpu: 'job_endpoint:cpu_seconds:rate5m',
  endpointCpuPerRequest: 'job_endpoint:cpu_seconds_per_request:ratio_rate5m',
  endpointCpuPerRequestSmoothed: 'job_endpoint:cpu_seconds_per_request:smoothed',
  endpointCpuPerRequestSampled: 'job_endpoint:cpu_seconds_per_request:smoothed_sampled',
  endpointCpuPerRequestMedian: 'job_endpoint:cpu_seconds_per_request:baseline_median',
  endpointCpuPerRequestCeiling: 'job_endpoint:cpu_seconds_per_request:baseline_ceiling',
  endpointCpuPerRequestReference: 'job_endpoint:cpu_seconds_per_request:baseline_reference',
  endpointCpuPerRequestThreshold: 'job_endpoint:cpu_seconds_per_request:baseline_threshold',
  endpointAlloc: 'job_endpoint:alloc_bytes:rate5m',
  endpointAllocPerRequest: 'job_endpoint:alloc_bytes_per_request:ratio_rate5m',
  endpointAllocPerRequestSmoothed: 'job_endpoint:alloc_bytes_per_request:smoothed',
  endpointAllocPerRequestSampled: 'job_endpoint:alloc_bytes_per_request:smoothed_sampled',
  endpointAllocPerRequestMedian: 'job_endpoint:alloc_bytes_per_request:baseline_median',
  endpointAllocPerRequestCeiling: 'job_endpoint:alloc_bytes_per_request:baseline_ceiling',
  endpointAllocPerRequestReference: 'job_endpoint:alloc_bytes_per_request:baseline_reference',
  endpointAllocPerRequestThreshold: 'job_endpoint:alloc_bytes_per_request:baseline_threshold',
  // Per service: the share of its profile that carries no endpoint label
  // (the bridge's `unlabelled` row over all its rows), so a partial picture
  // is not read as the whole; and the mix: the endpoints' cost per request
  // (their cost over their requests, routes with requests only) and what it
  // would be at the current mix with each endpoint at its reference cost.
  // Their ratio is the endpoints' own change; the reference cost over the
  // first, as recorded regressionAcceptAfter ago, against the second, the
  // mix's.
  cpuUnlabelledShare: 'job:cpu_seconds_unlabelled_share:ratio_rate5m',
  allocUnlabelledShare: 'job:alloc_bytes_unlabelled_share:ratio_rate5m',
  endpointsCpuPerRequest: 'job:endpoint_cpu_seconds_per_request:ratio_rate5m',
  endpointsCpuPerRequestAtReference: 'job:endpoint_cpu_seconds_per_request:at_reference',
  endpointsAllocPerRequest: 'job:endpoint_alloc_bytes_per_request:ratio_rate5m',
  endpointsAllocPerRequestAtReference: 'job:endpoint_alloc_bytes_per_request:at_reference',
}
