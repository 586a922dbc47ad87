// The request counters hotpath knows by name: what each tool exports, as the
// sources requestSources takes (metric, selector, and which of its labels name
// the service, its namespace, instance and pod). config/requests-cpu.libsonnet's
// requestsFrom turns each on with one line; a service several of them see is
// counted from the first in `precedence` (docs/runbook.md, "Where request
// counts and CPU come from", says why in that order).
//
// Each shape is copied from the tool's own source or documentation, and from
// how a Prometheus scrape labels it (the target's job, instance, namespace and
// pod; a metric label that collides with a target label is renamed
// exported_<name> unless the scrape honours labels). promkit/synth's
// RealShapes holds a series of each, and says where each came from.
//
// Usage: local shapes = (import 'lib/request-sources.libsonnet')(cfg);
function(cfg) {
  // The service's own counter (the default input contract): the service in
  // the scrape's job.
  app: [{ metric: cfg.requestsMetric, selector: cfg.requestsSelector }],

  // OpenTelemetry's HTTP and RPC server duration histograms, as the
  // Collector's Prometheus exporter names them (their _count: one per
  // request): http.server.request.duration (s, semantic conventions 1.20+),
  // http.server.duration (ms, before 1.20) and rpc.server.duration (ms). Three
  // ways they reach Prometheus, told apart by their labels:
  //   - through a Collector with resource_to_telemetry_conversion: the
  //     service in service_name, its pod and namespace in k8s_pod_name and
  //     k8s_namespace_name (the k8sattributes processor), its instance in
  //     service_instance_id;
  //   - through a Collector scraped without honor_labels: the service in
  //     exported_job (the exporter's job, service.namespace/service.name),
  //     exported_instance, and exported_namespace and exported_pod where a
  //     transform processor set them (the exporter's README shows it);
  //   - scraped from the service itself (an SDK's Prometheus exporter), or
  //     from a Collector with honor_labels: the service in job.
  // The first two were relayed: the scrape's pod is the Collector's, whose
  // CPU is not the service's, so it is dropped there and the service's own
  // pod label, when present, takes its place.
  opentelemetry: [
    {
      metric: m,
      serviceLabel: ['service_name', 'exported_job'],
      namespaceLabel: ['k8s_namespace_name', 'exported_namespace'],
      instanceLabel: ['service_instance_id', 'exported_instance'],
      podLabel: ['k8s_pod_name', 'exported_pod', cfg.podLabel],
      relayLabels: ['service_name', 'exported_job'],
    }
    for m in [
      'http_server_request_duration_seconds_count',
      'http_server_duration_milliseconds_count',
      'rpc_server_duration_milliseconds_count',
    ]
  ],

  // Spring Boot's Micrometer (http.server.requests: uri, method, status,
  // outcome, exception; and the `application` common tag where set),
  // scraped from the service: the service in job.
  micrometer: [{ metric: 'http_server_requests_seconds_count' }],

  // go-grpc-prometheus and go-grpc-middleware's prometheus provider (and
  // java-grpc-prometheus, same names): one per RPC handled, whatever its
  // code; grpc_service, grpc_method, grpc_code, grpc_type summed away.
  grpc: [{ metric: 'grpc_server_handled_total' }],

  // Istio's sidecars: istio_requests_total as the server's proxy reports it
  // (reporter="destination": one per request the pod served), scraped from
  // that proxy (the pod's own namespace and pod). The service is the
  // canonical service (the pod's service.istio.io/canonical-name,
  // app.kubernetes.io/name or app label, else its workload's name): one job
  // across the versions of a workload (reviews-v1, reviews-v2 -> reviews).
  istio: [{
    metric: 'istio_requests_total',
    selector: 'reporter="destination"',
    serviceLabel: 'destination_canonical_service',
    namespaceLabel: 'destination_workload_namespace',
  }],

  // Linkerd's proxies: request_total{direction="inbound"} (one per request
  // the pod received), scraped from the proxy; linkerd-viz's scrape config
  // copies the pod's linkerd.io/proxy-<kind> label into deployment,
  // statefulset or daemonset (a Kubernetes Job's into k8s_job).
  linkerd: [
    {
      metric: 'request_total',
      selector: 'direction="inbound", %s!=""' % kind,
      serviceLabel: kind,
    }
    for kind in ['deployment', 'statefulset', 'daemonset']
  ],

  // ingress-nginx at the edge: nginx_ingress_controller_requests, one per
  // request the controller proxied to the backend Service `service` of an
  // Ingress in `namespace`. Scraped through a ServiceMonitor, those two
  // collide with the target's own and arrive as exported_service and
  // exported_namespace. Only requests from outside the cluster are counted,
  // and the controller's pod is not the service's: no pod (the CPU then
  // comes from the service's process metrics). Requests that matched no
  // Ingress (the default backend, ingress="") are left out.
  ingressNginx: [{
    metric: 'nginx_ingress_controller_requests',
    selector: 'ingress!=""',
    serviceLabel: ['exported_service', 'service'],
    namespaceLabel: 'exported_namespace',
    podLabel: [],
    relayLabels: ['controller_pod'],
  }],

  // The order a service seen by several sources takes its count from: the
  // service's own counters first (counted in the process whose CPU is
  // divided by them), then the mesh (every request that reached the pod,
  // the proxy's own rejections included), then the edge (only requests
  // from outside the cluster).
  precedence: ['app', 'opentelemetry', 'micrometer', 'grpc', 'istio', 'linkerd', 'ingressNginx'],
}
