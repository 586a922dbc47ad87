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

    // The service's own counter of handled requests (requestsFrom's `app`); all
    // its labels but the identity ones are summed away. Change it when your
    // services count requests under another name, e.g.
    // `requestsMetric: 'myapp_http_requests_total'`.
    requestsMetric: 'http_requests_total',

    // Where request counts come from, by tool: each one a line to turn on or
    // off, e.g. `requestsFrom+: { istio: true }`. The shapes of each (which
    // series, which labels name the service) are in
    // jsonnet/lib/request-sources.libsonnet. On by default: the counters a
    // service exports itself (app: requestsMetric; OpenTelemetry's HTTP and
    // RPC server histograms; Micrometer; gRPC), each naming the service by
    // the scrape's job. Off by default: the ones that name services by labels
    // of their own and count at a proxy (istio: the canonical service of
    // istio_requests_total{reporter="destination"}; linkerd: the deployment,
    // statefulset or daemonset of request_total{direction="inbound"};
    // ingressNginx: the backend Service of nginx_ingress_controller_requests,
    // requests from outside the cluster only). Turn one on where your
    // services export no counter of their own. A service that several of them
    // see is counted once, from the first in this order: app, opentelemetry,
    // micrometer, grpc, istio, linkerd, ingressNginx (docs/runbook.md, "Where
    // request counts and CPU come from"); the same service must then carry
    // the same name in each (the scrape's job and the mesh's canonical
    // service), or it shows twice.
    requestsFrom: {
      app: true,
      opentelemetry: true,
      micrometer: true,
      grpc: true,
      istio: false,
      linkerd: false,
      ingressNginx: false,
    },

    // Every counter of a unit of work, as a list of sources, a service counted
    // from the first source in the list that has it. The default is the
    // sources requestsFrom turns on, in its order; set it to count work in
    // other counters too (log records, messages), or to change the order.
    // A source is { metric, selector, serviceLabel, namespaceLabel,
    // instanceLabel, podLabel, relayLabels }, all but metric optional:
    // serviceLabel (and namespaceLabel, instanceLabel) is the label of that
    // source, or a list of them, whose first non-empty value is copied into
    // serviceLabel (namespaceLabel, instanceLabel), the series' own kept
    // where none is set; podLabel likewise names the pod that served the
    // requests, which CPU from cAdvisor is joined through, and relayLabels are
    // labels that mark a series relayed by another pod (a Collector, an
    // ingress controller): there the scrape's own pod is the relay's and is
    // dropped. Example:
    //   requestSources: super.requestSources + [
    //     { metric: 'fluentd_output_status_emit_records', selector: 'type!="stdout"' },
    //   ],
    requestSources: std.flattenArrays([
      $._config.requestSourceShapes[name]
      for name in $._config.requestSourceShapes.precedence
      if std.get($._config.requestsFrom, name, false)
    ]),
    requestSourceShapes:: (import '../lib/request-sources.libsonnet')($._config),

    // Where per-service CPU comes from. 'auto' (the default) takes each
    // service's process_cpu_seconds_total where it exports one, and
    // cAdvisor's container_cpu_usage_seconds_total of its pods where it does
    // not (most JVMs, Python and Node services, behind a mesh or not): the
    // containers of every pod a request source counts the service in,
    // sidecars included, joined through (namespace, pod). A service that has
    // both gets one, its process's, never their sum. 'process' and
    // 'cadvisor' force one source for every service: 'cadvisor' when your
    // process counters do not measure the service (a wrapper process, a
    // sidecar exporter that counts its own CPU under the service's job).
    cpuSource: 'auto',
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
    // not recorded. Lower it for small internal services, e.g. 0.2. The function
    // alert does not use it: it judges shares of the profile, whose noise is
    // their count of samples, at any traffic above 0.
    minRequestRate: 1,
  },
}
