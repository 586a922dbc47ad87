// Knobs of requests and CPU: the labels that name a service and its parts,
// the input counters (requests, CPU, allocations), the rate window, the
// evaluation interval and the traffic floor. They steer every area; first of
// all rules/requests-cpu.libsonnet, the recorded request rate, CPU and CPU
// per request every other rule and panel builds on.

{
  _config+:: {
    // ---- Identity -------------------------------------------------------------

    // The label that names a service. Every recording rule aggregates to it and
    // every alert carries it. Change it when your scrape config puts the service
    // name elsewhere, e.g. `serviceLabel: 'service'` or `'app'`.
    serviceLabel: 'job',

    // The label that tells sibling instances of a service apart (the outlier
    // alert compares them). Change it when instances are pods, e.g. `'pod'`.
    instanceLabel: 'instance',

    // Kept in every aggregation when present, dropped cleanly when absent. Set
    // to '' when you have no such label; set it to your name for it otherwise,
    // e.g. `clusterLabel: 'k8s_cluster'` on a multi-cluster Thanos or Mimir.
    clusterLabel: 'cluster',
    namespaceLabel: 'namespace',

    // Labels of cAdvisor's per-container series. Change them only if your
    // kubelet relabels them (old kubelets used `pod_name`, `container_name`).
    podLabel: 'pod',
    containerLabel: 'container',

    // ---- Input metrics and selectors -------------------------------------------

    // Extra matchers added to every input selector, to narrow hotpath to some
    // services or to drop a noisy exporter. Example: `'env="prod"'`. Empty means
    // "every series of that name".
    requestsSelector: '',
    cpuSelector: '',
    allocSelector: '',

    // The counter of handled requests; all its labels but the identity ones are
    // summed away. Change it for gRPC services, e.g.
    // `requestsMetric: 'grpc_server_handled_total'`.
    requestsMetric: 'http_requests_total',

    // Every counter of a unit of work, for a fleet that counts it in more than
    // one (HTTP, gRPC, log records): a list of { metric, selector, serviceLabel },
    // selector and serviceLabel optional (serviceLabel: the label of that
    // source that carries the service name, copied into serviceLabel). A service
    // found in several sources is counted once, from the first source in this
    // list that has it. The default is requestsMetric alone. Example:
    //   requestSources: [
    //     { metric: 'http_requests_total' },
    //     { metric: 'http_server_request_duration_seconds_count' },  // OpenTelemetry
    //     { metric: 'http_server_requests_seconds_count' },          // Spring / Micrometer
    //     { metric: 'grpc_server_handled_total' },                   // go-grpc-prometheus
    //     { metric: 'fluentd_output_status_emit_records', selector: 'type="forward"' },
    //   ],
    requestSources: [{ metric: $._config.requestsMetric, selector: $._config.requestsSelector }],

    // Where per-service CPU comes from. 'process' reads process_cpu_seconds_total
    // from the service's own /metrics; 'cadvisor' reads cAdvisor's
    // container_cpu_usage_seconds_total and joins it to the service through
    // (namespace, pod) using the requests series' labels. Use 'cadvisor' when your
    // services do not export process metrics (e.g. JVMs without a process collector).
    cpuSource: 'process',
    processCpuMetric: 'process_cpu_seconds_total',
    containerCpuMetric: 'container_cpu_usage_seconds_total',

    // Go allocations, from client_golang's Go collector. Change it for a runtime
    // that exports a similar counter, e.g. `'jvm_gc_memory_allocated_bytes_total'`.
    allocMetric: 'go_memstats_alloc_bytes_total',

    // ---- Windows and evaluation -----------------------------------------------

    // The rate window of every recorded series. 5m keeps at least 4 scrapes at a
    // 1m scrape interval; raise it (e.g. '10m') with a 2m+ scrape interval. The
    // recorded names keep their `rate5m` suffix: they are public API.
    rateWindow: '5m',

    // How often the recording groups evaluate. Baseline groups evaluate less often
    // (see the rules files); raise both on very large fleets, e.g. '2m'.
    evaluationInterval: '1m',

    // ---- Rules and alerts: traffic floor --------------------------------------

    // Below this many requests per second, CPU per request is noise (a health
    // check, a cron): the efficiency alerts stay silent and the upstream ratio is
    // not recorded. Lower it for small internal services, e.g. 0.2.
    minRequestRate: 1,
  },
}
