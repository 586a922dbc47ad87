// Knobs of endpoints: the per-route request counters, the profile labels that
// name an endpoint, hotpath-profile-metrics' endpoint counters and
// EndpointCostPerRequestRegression's floors. They steer rules/endpoints.libsonnet
// (lib/endpoint-costs.libsonnet), alerts/endpoints.libsonnet, the service
// dashboard's row "Which endpoint?" and its overlay panel's endpoint filter.

{
  _config+:: {
    // ---- Rules and alerts: endpoints (hotpath-profile-metrics, route counters) --

    // The counters hotpath-profile-metrics exports per service and endpoint
    // (labels: the service label and `endpoint`, a route such as `/search`,
    // or `other`, the rest of the top endpoints, or `unlabelled`, the samples
    // that carry no endpoint label). Change them only if you renamed them on
    // the way in.
    endpointCpuMetric: 'hotpath_profile_endpoint_cpu_seconds_total',
    endpointAllocMetric: 'hotpath_profile_endpoint_alloc_bytes_total',

    // The counters hotpath-profile-metrics exports per service and instance:
    // the profile's cost by the instance it came from (its values under
    // instanceLabel, read from the profile label profileInstanceLabel).
    // Change them only if you renamed them on the way in.
    endpointInstanceCpuMetric: 'hotpath_profile_instance_cpu_seconds_total',
    endpointInstanceAllocMetric: 'hotpath_profile_instance_alloc_bytes_total',

    // The profile label that names the instance a profile came from, whose
    // values are those of instanceLabel on the per-route request counters for
    // the same process (hotpath-profile-metrics' --instance-label; it exports
    // them under instanceLabel). An endpoint's cost is divided by its route's
    // requests on the instances that were profiled only: a service profiled
    // on 1 of its 3 pods (a profiler on some nodes, a canary, sampling) has
    // one pod's cost in its profile, and divided by three pods' requests it
    // would read a third, and move whenever the profiled pods change. The
    // default matches Alloy's pyroscope.scrape, whose `instance` is the
    // scraped address, as Prometheus' is when both scrape the same port. On
    // Kubernetes set both to the pod, e.g. `profileInstanceLabel: 'pod',
    // instanceLabel: 'pod'` (kube-prometheus' ServiceMonitors and Grafana's
    // k8s-monitoring profiles both carry `pod`). A service whose profiles
    // carry no such label is divided by all its instances' requests.
    profileInstanceLabel: 'instance',

    // The per-route request counters an endpoint's cost is divided by: a list
    // of { metric, selector, routeLabel }, selector optional; routeLabel names
    // the label that holds the route, or a list of labels joined with `/`
    // (gRPC counters split the full method in two). A service's routes come
    // from the first source that has the service. Route names are normalised
    // as the bridge normalises the profile's (endpointRoutePattern), so the
    // route label must hold a template (`/users/{id}`), never a raw path
    // (`/users/42`: one series per user). Put your router's counter first,
    // e.g. `{ metric: 'http_requests_total', routeLabel: 'handler' }`
    // (Prometheus' own promhttp examples), or `[]` to turn the endpoint rules
    // off.
    endpointRequestSources: [
      // OpenTelemetry HTTP server metrics through the Prometheus exporter
      // (http.route becomes http_route)
      { metric: 'http_server_request_duration_seconds_count', routeLabel: 'http_route' },
      // Spring Boot / Micrometer
      { metric: 'http_server_requests_seconds_count', routeLabel: 'uri' },
      // go-grpc-prometheus and grpc-ecosystem's providers: grpc_service and
      // grpc_method, joined into the full method grpc-go labels goroutines with
      { metric: 'grpc_server_handled_total', routeLabel: ['grpc_service', 'grpc_method'] },
    ],

    // The route template both sides are normalised to, a whole-string
    // regular expression whose first group, after a `/`, is the endpoint:
    // blanks, an HTTP method before the path (`GET /search`, as OpenTelemetry
    // names spans) and slashes at either end dropped. It must equal the
    // profile core's ROUTE_PATTERN (packages/profile-core/src/endpoints),
    // which the bridge applies to the profile's labels; change both together.
    endpointRoutePattern: '\\s*(?:(?:GET|HEAD|POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH)\\s+)?/*(.*?)/*\\s*',

    // The profile labels that name a sample's endpoint, most specific first
    // (hotpath-profile-metrics' --endpoint-labels; the panel's and
    // hotpath-notify's too, through catalogue/catalogue.json): a router's
    // route, grpc-go's goroutine label, a span profile's span name. Set your
    // own label first when your handlers label their goroutines, e.g.
    // `endpointProfileLabels: ['handler'] + super.endpointProfileLabels`.
    endpointProfileLabels: ['http.route', 'grpc.method', 'span_name'],

    // How long after an instance's request counter restarts (a reset, or a
    // new instance) its requests and its share of the profile are left out
    // of its service's endpoint costs, beyond the rate window that holds the
    // restart. A restart reads as every route costing more per request: the
    // counter loses the requests served since its last scrape while the
    // profile keeps their cost, and the new process runs slower while it
    // warms up (caches, pools, connections). A service without the bridge's
    // instance rows has no endpoint cost per request meanwhile. Raise it for
    // a runtime that warms up longer, e.g. `'20m'` for a JVM's JIT.
    endpointWarmUp: '10m',

    // EndpointCostPerRequestRegression's materiality floor: an endpoint's
    // rise in cost per request, times its request rate, must be at least this
    // share of its whole service's cost (every row of the bridge, `other` and
    // `unlabelled` included). 0.03: a route whose rise adds 3% to its
    // service pages; a rare admin route that doubles does not. Raise it
    // (e.g. 0.1) where only larger changes are worth a look.
    endpointRegressionMinShare: 0.03,

    // The request rate under which an endpoint is not judged: its cost per
    // request is a few samples over a few requests. 0.2 req/s is 60 requests
    // in a 5-minute rate, 1,200 in the 20-minute smoothing. Raise it on
    // services whose profiles sample sparsely.
    endpointMinRequestRate: 0.2,
  },
}
