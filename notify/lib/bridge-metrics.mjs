// The bridge's metrics: the cost counters it exports (per service and function) and its own
// (queries, failures, skipped services, series, rounds), in a registry of their own.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The exported counters: per profile type, its name, help and the factor from the profile's unit. */
export const COST_METRICS = {
  cpu: { name: 'hotpath_profile_cpu_seconds_total', help: 'CPU seconds in the service profile, self time by function (runtime, libc and allocator time charged to the calling code); the top K functions by the last day of cost and `other`, which add up to the profile total; origin="runtime" or "profiler" on a row that is not the service\'s own code', scale: 1e-9 },
  alloc_space: { name: 'hotpath_profile_alloc_bytes_total', help: 'Bytes allocated in the service profile, by function (allocator frames charged to the calling code); the top K functions by the last day of allocations and `other`, which add up to the profile total; origin="runtime" or "profiler" on a row that is not the service\'s own code', scale: 1 },
};

/**
 * The endpoint counters: per profile type, its name and help. An endpoint is a route normalised
 * to the rule pack's template (it starts with `/`); `other` (the endpoints outside the top set)
 * and `unlabelled` (the samples without an endpoint label) never do.
 */
export const ENDPOINT_METRICS = {
  cpu: { name: 'hotpath_profile_endpoint_cpu_seconds_total', help: 'CPU seconds in the service profile by endpoint (the route its samples\' endpoint label names, normalised); the top K endpoints by the last day of cost, `other`, and `unlabelled` (samples without an endpoint label), which add up to the profile total' },
  alloc_space: { name: 'hotpath_profile_endpoint_alloc_bytes_total', help: 'Bytes allocated in the service profile by endpoint (the route its samples\' endpoint label names, normalised); the top K endpoints by the last day of allocations, `other`, and `unlabelled` (samples without an endpoint label), which add up to the profile total' },
};

/**
 * The instance counters: per profile type, its name and help. Which instances a service's profile
 * came from, so that the rule pack divides an endpoint's cost by the requests of those instances
 * only (a service profiled on 1 of its 3 pods is not divided by 3 pods' requests).
 */
export const INSTANCE_METRICS = {
  cpu: { name: 'hotpath_profile_instance_cpu_seconds_total', help: 'CPU seconds in the service profile by the instance it came from (the profile\'s instance label, --instance-label), the samples of the endpoint query; an instance without samples for 15 minutes loses its series' },
  alloc_space: { name: 'hotpath_profile_instance_alloc_bytes_total', help: 'Bytes allocated in the service profile by the instance it came from (the profile\'s instance label, --instance-label), the samples of the endpoint query; an instance without samples for 15 minutes loses its series' },
};

/** The row of everything not in the top set. */
export const OTHER = 'other';

/**
 * The metrics of a bridge reading `types`, its instance rows labelled `instanceLabel`: { registry,
 * cost, endpointCost and instanceCost: { [type]: Counter },
 * and its own (queryDuration, queryErrors, endpointQueryErrors, endpointSeriesGauge, emptyAnswers, gapSeconds, discoveryErrors, skipped,
 * servicesGauge, seriesGauge, roundDuration, lastRound) }.
 */
export function bridgeMetrics(types, instanceLabel = 'instance') {
  const registry = new Registry();
  const r = [registry];
  return {
    registry,
    cost: Object.fromEntries(types.map((t) => [t, new Counter({ name: COST_METRICS[t].name, help: COST_METRICS[t].help, labelNames: ['job', 'function', 'origin'], registers: r })])),
    endpointCost: Object.fromEntries(types.map((t) => [t, new Counter({ name: ENDPOINT_METRICS[t].name, help: ENDPOINT_METRICS[t].help, labelNames: ['job', 'endpoint'], registers: r })])),
    instanceCost: Object.fromEntries(types.map((t) => [t, new Counter({ name: INSTANCE_METRICS[t].name, help: INSTANCE_METRICS[t].help, labelNames: ['job', instanceLabel], registers: r })])),
    endpointQueryErrors: new Counter({ name: 'hotpath_profile_metrics_endpoint_query_errors_total', help: 'Endpoint queries (SelectSeries grouped by the endpoint labels) that failed, by profile type and reason; the window is asked again with the next one', labelNames: ['profile_type', 'reason'], registers: r }),
    endpointSeriesGauge: new Gauge({ name: 'hotpath_profile_metrics_endpoint_series', help: 'Endpoint cost series exported (service x endpoint rows, `other` and `unlabelled` included), by profile type', labelNames: ['profile_type'], registers: r }),
    queryDuration: new Histogram({ name: 'hotpath_profile_metrics_query_duration_seconds', help: 'Time of one profile query to Pyroscope, answer decoded, by profile type', labelNames: ['profile_type'], buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20], registers: r }),
    queryErrors: new Counter({ name: 'hotpath_profile_metrics_query_errors_total', help: 'Profile queries that failed, by profile type and reason (timeout, unreachable, error_answer, too_large, unusable); the window is asked again with the next one', labelNames: ['profile_type', 'reason'], registers: r }),
    emptyAnswers: new Counter({ name: 'hotpath_profile_metrics_empty_answers_total', help: 'Profile queries answered without samples (an idle service, or one that stopped sending profiles)', labelNames: ['profile_type'], registers: r }),
    gapSeconds: new Counter({ name: 'hotpath_profile_metrics_lost_window_seconds_total', help: 'Seconds of profile windows never counted: failures for longer than the catch-up limit', labelNames: ['profile_type'], registers: r }),
    discoveryErrors: new Counter({ name: 'hotpath_profile_metrics_discovery_errors_total', help: 'Failed LabelValues calls listing the services (the last list is kept)', registers: r }),
    skipped: new Counter({ name: 'hotpath_profile_metrics_services_skipped_total', help: 'Services not read in a round, by reason: cap (more services than --max-services), overrun (the previous round was still running), unnamed (a name that is no service: Pyroscope\'s unknown_service of an OTLP profile without service.name)', labelNames: ['reason'], registers: r }),
    servicesGauge: new Gauge({ name: 'hotpath_profile_metrics_services', help: 'Services read in the last round', registers: r }),
    seriesGauge: new Gauge({ name: 'hotpath_profile_metrics_series', help: 'Cost series exported (service x function rows, `other` included), by profile type', labelNames: ['profile_type'], registers: r }),
    roundDuration: new Gauge({ name: 'hotpath_profile_metrics_round_duration_seconds', help: 'How long the last round took (all services, all types)', registers: r }),
    lastRound: new Gauge({ name: 'hotpath_profile_metrics_last_round_timestamp_seconds', help: 'When the last round ended (unix seconds)', registers: r }),
  };
}

/** A one-word reason for a failed query, the errors counter's `reason` label. */
export function failureReason(message) {
  if (/no answer within|took longer than/.test(message)) {
    return 'timeout';
  }
  if (/unreachable/.test(message)) {
    return 'unreachable';
  }
  if (/answered \d{3}/.test(message)) {
    return 'error_answer';
  }
  if (/exceeds|above the [\d.]+ MiB|more than \d+ MiB/.test(message)) {
    return 'too_large';
  }
  return 'unusable';
}
