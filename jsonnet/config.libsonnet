// Every knob of the hotpath mixin. Override any of them the kubernetes-mixin way:
//
//   (import 'hotpath/mixin.libsonnet') + { _config+:: { serviceLabel: 'service' } }
//
// Each knob says why you would change it and gives an example. Rules, alerts and
// dashboards read only from here, so one override changes all three consistently
// (tests/mixin proves that for the label names).
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

    // cAdvisor's CFS series exist only for containers with a CPU limit: absence
    // means "no limit", not "0% throttled". No job selector by default
    // (kube-prometheus scrapes them as job="kubelet", others as job="cadvisor";
    // the names are unique to cAdvisor). Narrow them with e.g. `'job="kubelet"'`.
    cadvisorSelector: '',

    // The service-graph edge counter from Tempo's metrics generator or Alloy.
    // `client` and `server` carry the same values as the service label.
    serviceGraphMetric: 'traces_service_graph_request_total',
    serviceGraphSelector: '',

    // ---- Windows and evaluation -----------------------------------------------

    // The rate window of every recorded series. 5m keeps at least 4 scrapes at a
    // 1m scrape interval; raise it (e.g. '10m') with a 2m+ scrape interval. The
    // recorded names keep their `rate5m` suffix: they are public API.
    rateWindow: '5m',

    // How often the recording groups evaluate. Baseline groups evaluate less often
    // (see the rules files); raise both on very large fleets, e.g. '2m'.
    evaluationInterval: '1m',

    // ---- Links in alerts ------------------------------------------------------

    // Where docs/runbook.md is published; alerts link to `<runbookURL>#<alertname>`.
    // Point it at your fork or wiki, e.g. 'https://wiki.example.com/hotpath'.
    runbookURL: 'https://github.com/hotpath/hotpath/blob/main/docs/runbook.md',

    // Your Grafana's base URL, for the alerts' dashboard_url. Example:
    // 'https://grafana.example.com'.
    grafanaURL: 'http://localhost:3000',

    // ---- Dashboards -----------------------------------------------------------

    // Tags, uids and the default time range of the generated dashboards. Change
    // the uids only if they collide with dashboards you already have: alerts link
    // to them.
    dashboardTags: ['hotpath'],
    dashboardUIDs: {
      overview: 'hotpath-overview',
      service: 'hotpath-service',
      throttling: 'hotpath-throttling',
    },

    // The time range and refresh a dashboard opens with. 3h shows an incident
    // and the hour before it; widen it (e.g. 'now-24h') to see the nightly low
    // the cost model accounts for.
    dashboardTimeFrom: 'now-3h',
    dashboardRefresh: '1m',

    // Names of the dashboards' datasource variables. They appear in URLs
    // (`var-datasource=...`); change them to match dashboards you link from,
    // e.g. `prometheusDatasourceVariable: 'prometheus'`. The service, cluster and
    // namespace variables are named after their labels (serviceLabel, ...), so an
    // alert can link with `var-<label>={{ $labels.<label> }}`.
    prometheusDatasourceVariable: 'datasource',
    profilesDatasourceVariable: 'profiles',

    // The Pyroscope profile the service dashboard shows, as a profile type id
    // (`<name>:<sample type>:<sample unit>:<period type>:<period unit>`). The
    // default is the CPU profile of the Go SDK and of Alloy's pprof scraping.
    // Change it when your profiler sends another type: copy the id Grafana's
    // Pyroscope query editor shows, e.g. 'wall:wall:nanoseconds:wall:nanoseconds'.
    profileTypeId: 'process_cpu:cpu:nanoseconds:cpu:nanoseconds',
    // The allocation profile next to the allocation panels ("what allocates"):
    // bytes allocated, as Go's alloc_space. Set it to
    // 'memory:alloc_objects:count:space:bytes' to count objects instead.
    allocProfileTypeId: 'memory:alloc_space:bytes:space:bytes',

    // How a service's profiles are found in Pyroscope, as a label selector.
    // `%(serviceLabel)s` and the other knobs are substituted, so `$%(serviceLabel)s`
    // is the dashboard's service variable. Change it when your profiles name the
    // service differently, e.g. '{service_name="$%(namespaceLabel)s/$%(serviceLabel)s"}'
    // for Alloy's Kubernetes discovery, or '{app="$%(serviceLabel)s"}'.
    profileLabelSelector: '{service_name="$%(serviceLabel)s"}',

    // Go runtime series the dashboards read (client_golang's Go collector); the
    // GOMAXPROCS gauge needs client_golang >= 1.12 (absent: that panel is empty).
    // Change them for another runtime, e.g. `gcDurationMetric: 'jvm_gc_pause_seconds'`.
    gcDurationMetric: 'go_gc_duration_seconds',
    heapMetric: 'go_memstats_heap_inuse_bytes',
    gomaxprocsMetric: 'go_sched_gomaxprocs_threads',

    // cAdvisor's CPU limit of a container is quota / period (both exist only
    // when a limit is set); the rule pack records it as cores. Change them only
    // for a kubelet that renames them.
    containerCpuQuotaMetric: 'container_spec_cpu_quota',
    containerCpuPeriodMetric: 'container_spec_cpu_period',

    // How many rows the "top" tables, movers and fleet heatmaps show. Raise it on
    // a large fleet with a tall screen, e.g. 25.
    dashboardTopN: 10,
  },
}
