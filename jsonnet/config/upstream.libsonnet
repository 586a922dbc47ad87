// Knobs of siblings and upstreams: the service graph and the edges it does
// not see, CPUPerRequestOutlier's and CPUPerRequestAboveUpstream's factors.
// They steer rules/upstream.libsonnet and those two alerts
// (alerts/efficiency.libsonnet).

{
  _config+:: {
    // The service-graph edge counter from Tempo's metrics generator or Alloy.
    // `client` and `server` carry the same values as the service label.
    serviceGraphMetric: 'traces_service_graph_request_total',
    serviceGraphSelector: '',
    // The labels of an edge's two ends, for a service graph that names them
    // otherwise (e.g. Alloy with a prefix: 'client_service', 'server_service').
    serviceGraphClientLabel: 'client',
    serviceGraphServerLabel: 'server',

    // Upstreams the service graph does not see (no tracing, a cache behind a
    // client library): service -> the services it calls, added to the edges.
    // Example: `staticUpstreams: { api: ['cache', 'facebox'] }`.
    staticUpstreams: {},

    // ---- Rules and alerts: siblings and upstreams ------------------------------

    // CPUPerRequestOutlier: an instance at >= outlierFactor times the median
    // CPU/request of its service's instances, counted only when at least
    // outlierMinInstances instances (itself included) serve >= minRequestRate.
    outlierFactor: 1.5,
    outlierMinInstances: 3,

    // CPUPerRequestAboveUpstream: CPU/request relative to an upstream at >=
    // upstreamBaselineFactor times its own median over the baseline window, or
    // >= upstreamAbsoluteFactor whatever the history. Services that are heavy by
    // design next to a cheap cache (templating, auth) may sit above 5x: raise the
    // absolute factor (e.g. 50) rather than silence the alert.
    upstreamBaselineFactor: 2,
    upstreamAbsoluteFactor: 5,

    // The edges of one service are expanded one "slot" at a time (PromQL cannot
    // pair every namespace of a service with every upstream in one join); a
    // service with more upstreams than this has the rest ignored. Raise it for
    // fan-out services, e.g. 16 (each slot is one more join).
    maxUpstreamsPerService: 8,
  },
}
