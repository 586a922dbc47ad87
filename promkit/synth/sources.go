package synth

import "fmt"

// The request counters of the tools hotpath counts requests from
// (jsonnet/lib/request-sources.libsonnet), each as a real scrape of it labels
// its series: the metric's own labels, copied from the tool's source or
// documentation, and the target labels the usual scrape config adds (job,
// instance, namespace, pod; a metric label that collides with a target
// label arrives as exported_<name>). Each function returns one series'
// name{labels}; a test gives it a rate. Where each shape comes from is said
// above its function.

// Pod is where a series was served or scraped: a Kubernetes pod and its IP.
type Pod struct{ Namespace, Name, IP string }

func (p Pod) target(job, port string) string {
	return fmt.Sprintf(`%s, namespace=%q, pod=%q, job=%q, instance="%s:%s"`, cluster, p.Namespace, p.Name, job, p.IP, port)
}

// IstioRequests is istio_requests_total as the sidecar of pod reports it and
// Istio's PodMonitor for prometheus-operator scrapes it (job from its
// jobLabel, the sidecar's merged metrics port 15020, namespace, pod and
// pod_name from its relabelings). reporter "destination": the pod served the
// request (canonical, workload, version are the pod's own); "source": the pod
// sent it to canonical/workload in peerNamespace.
//
// Labels: istio/proxy testdata/metric/server_request_total.yaml.tmpl (the
// metric's), istio/istio samples/addons/extras/prometheus-operator.yaml (the
// scrape's); https://istio.io/latest/docs/reference/config/metrics/.
func IstioRequests(p Pod, reporter, canonical, workload, version, peer, peerNamespace string, code int) string {
	src := fmt.Sprintf(`source_workload=%q, source_canonical_service=%q, source_canonical_revision="v1", source_workload_namespace=%q, source_principal="spiffe://cluster.local/ns/%s/sa/%s", source_app=%q, source_version="v1", source_cluster="Kubernetes"`,
		peer+"-v1", peer, peerNamespace, peerNamespace, peer, peer)
	dst := fmt.Sprintf(`destination_workload=%q, destination_workload_namespace=%q, destination_principal="spiffe://cluster.local/ns/%s/sa/%s", destination_app=%q, destination_version=%q, destination_service="%s.%s.svc.cluster.local", destination_canonical_service=%q, destination_canonical_revision=%q, destination_service_name=%q, destination_service_namespace=%q, destination_cluster="Kubernetes", destination_port="8080"`,
		workload, p.Namespace, p.Namespace, canonical, canonical, version, canonical, p.Namespace, canonical, version, canonical, p.Namespace)
	if reporter == "source" { // the client's sidecar: it is the source, the peer the destination
		src, dst = fmt.Sprintf(`source_workload=%q, source_canonical_service=%q, source_canonical_revision=%q, source_workload_namespace=%q, source_principal="spiffe://cluster.local/ns/%s/sa/%s", source_app=%q, source_version=%q, source_cluster="Kubernetes"`,
			workload, canonical, version, p.Namespace, p.Namespace, canonical, canonical, version),
			fmt.Sprintf(`destination_workload=%q, destination_workload_namespace=%q, destination_principal="spiffe://cluster.local/ns/%s/sa/%s", destination_app=%q, destination_version="v1", destination_service="%s.%s.svc.cluster.local", destination_canonical_service=%q, destination_canonical_revision="v1", destination_service_name=%q, destination_service_namespace=%q, destination_cluster="Kubernetes", destination_port="8080"`,
				peer+"-v1", peerNamespace, peerNamespace, peer, peer, peer, peerNamespace, peer, peer, peerNamespace)
	}
	return fmt.Sprintf(`istio_requests_total{%s, container="istio-proxy", endpoint="http-envoy-prom", pod_name=%q, reporter=%q, %s, %s, request_protocol="http", response_code="%d", grpc_response_status="", response_flags="-", connection_security_policy="mutual_tls"}`,
		p.target("istio-system/envoy-stats-monitor", "15020"), p.Name, reporter, src, dst, code)
}

// LinkerdRequests is request_total of pod's Linkerd proxy as linkerd-viz's
// Prometheus scrapes it (job linkerd-proxy, the proxy's admin port 4191,
// namespace, pod, and the pod's linkerd.io/proxy-<kind> label as <kind>:
// deployment, statefulset or daemonset). direction "inbound": requests the
// pod received; "outbound": requests it sent to peer.
//
// Labels: linkerd/linkerd2 viz/charts/linkerd-viz/templates/prometheus.yaml
// (the scrape's), https://linkerd.io/2/reference/proxy-metrics/ (the
// metric's).
func LinkerdRequests(p Pod, kind, workload, direction, peer string) string {
	own := fmt.Sprintf(`%s, %s=%q, control_plane_ns="linkerd", serviceaccount=%q, workload_ns=%q`, p.target("linkerd-proxy", "4191"), kind, workload, workload, p.Namespace)
	if direction == "outbound" {
		return fmt.Sprintf(`request_total{%s, direction="outbound", authority="%s.%s.svc.cluster.local:8080", dst_namespace=%q, dst_deployment=%q, dst_service=%q, tls="true", server_id="%s.%s.serviceaccount.identity.linkerd.cluster.local"}`,
			own, peer, p.Namespace, p.Namespace, peer, peer, peer, p.Namespace)
	}
	return fmt.Sprintf(`request_total{%s, direction="inbound", authority="%s.%s.svc.cluster.local:8080", target_addr="%s:8080", target_ip=%q, target_port="8080", tls="true", client_id="%s.%s.serviceaccount.identity.linkerd.cluster.local", srv_kind="default", srv_name="all-unauthenticated"}`,
		own, workload, p.Namespace, p.IP, p.IP, peer, p.Namespace)
}

// The OpenTelemetry HTTP and RPC server metrics as the Collector's Prometheus
// exporter names them: http.server.request.duration (s) ->
// http_server_request_duration_seconds_count, http.server.duration (ms,
// semantic conventions before 1.20) -> http_server_duration_milliseconds_count,
// rpc.server.duration (ms) -> rpc_server_duration_milliseconds_count; the
// exporter sets job to service.namespace/service.name (service.name alone
// without a namespace) and instance to service.instance.id.
//
// Labels: open-telemetry/opentelemetry-collector-contrib
// exporter/prometheusexporter (README.md, collector.go),
// https://opentelemetry.io/docs/specs/semconv/http/http-metrics/ and
// .../rpc/rpc-metrics/ (the attributes).
const (
	OtelHTTP    = "http_server_request_duration_seconds_count"
	OtelHTTPOld = "http_server_duration_milliseconds_count"
	OtelRPC     = "rpc_server_duration_milliseconds_count"
)

// OtelAttributes is one request's attributes on metric (HTTP or RPC).
func otelAttributes(metric string) string {
	switch metric {
	case OtelRPC:
		return `rpc_system="grpc", rpc_service="checkout.v1.Checkout", rpc_method="PlaceOrder", rpc_grpc_status_code="0", otel_scope_name="io.opentelemetry.grpc-1.6"`
	case OtelHTTPOld:
		return `http_method="GET", http_route="/api/orders", http_status_code="200", net_host_name="orders", otel_scope_name="io.opentelemetry.tomcat-10.0"`
	}
	return `http_request_method="GET", http_route="/api/orders", http_response_status_code="200", url_scheme="http", network_protocol_version="1.1", otel_scope_name="io.opentelemetry.tomcat-10.0"`
}

// OtelViaCollectorResource is metric of service (running in pod, instance id
// uid) through a Collector with the k8sattributes processor and
// resource_to_telemetry_conversion, scraped without honor_labels: the
// resource attributes as labels (service_name, service_instance_id,
// k8s_namespace_name, k8s_pod_name), the exporter's job and instance as
// exported_job and exported_instance, the scrape's target the Collector.
func OtelViaCollectorResource(collector Pod, metric, service string, pod Pod, uid string) string {
	return fmt.Sprintf(`%s{%s, exported_job=%q, exported_instance=%q, service_name=%q, service_instance_id=%q, k8s_namespace_name=%q, k8s_pod_name=%q, k8s_deployment_name=%q, telemetry_sdk_language="java", %s}`,
		metric, collector.target("otel-collector", "8889"), service, uid, service, uid, pod.Namespace, pod.Name, service, otelAttributes(metric))
}

// OtelViaCollector is metric of service through a Collector without
// resource attributes as labels, scraped without honor_labels: the service
// only in exported_job, the scrape's target (namespace, pod) the Collector.
func OtelViaCollector(collector Pod, metric, service, uid string) string {
	return fmt.Sprintf(`%s{%s, exported_job=%q, exported_instance=%q, %s}`,
		metric, collector.target("otel-collector", "8889"), service, uid, otelAttributes(metric))
}

// OtelDirect is metric as an SDK's Prometheus exporter serves it from the
// service's own pod, scraped there: the service in the scrape's job.
func OtelDirect(p Pod, metric, job string) string {
	return fmt.Sprintf(`%s{%s, %s}`, metric, p.target(job, "9464"), otelAttributes(metric))
}

// MicrometerRequests is Spring Boot's http.server.requests timer as
// Micrometer's Prometheus registry names it, scraped from the service's pod
// (/actuator/prometheus), with the `application` common tag Spring Boot
// users set.
//
// Labels: https://docs.spring.io/spring-boot/reference/actuator/metrics.html
// (Spring MVC metrics: exception, method, outcome, status, uri; error in
// Spring Boot 3's observations).
func MicrometerRequests(p Pod, job, uri string, status int) string {
	outcome := "SUCCESS"
	if status >= 500 {
		outcome = "SERVER_ERROR"
	}
	return fmt.Sprintf(`http_server_requests_seconds_count{%s, application=%q, error="none", exception="none", method="GET", outcome=%q, status="%d", uri=%q}`,
		p.target(job, "8080"), job, outcome, status, uri)
}

// GRPCHandled is go-grpc-prometheus' (and go-grpc-middleware's prometheus
// provider's) counter of RPCs handled, scraped from the service's pod.
//
// Labels: grpc-ecosystem/go-grpc-prometheus server_metrics.go and README.md.
func GRPCHandled(p Pod, job, service, method, code, typ string) string {
	return fmt.Sprintf(`grpc_server_handled_total{%s, grpc_service=%q, grpc_method=%q, grpc_code=%q, grpc_type=%q}`,
		p.target(job, "9090"), service, method, code, typ)
}

// IngressNginxRequests is nginx_ingress_controller_requests of the
// controller pod, scraped through the chart's ServiceMonitor: the metric's
// namespace and service (the Ingress's namespace and backend Service) collide
// with the target's and arrive as exported_namespace and exported_service;
// controller_namespace, controller_class and controller_pod are constant
// labels. An empty ingress and service: the default backend (no Ingress
// matched).
//
// Labels: kubernetes/ingress-nginx
// internal/ingress/metric/collectors/socket.go (requestTags, constLabels).
func IngressNginxRequests(controller Pod, namespace, ingress, service, host string, status int) string {
	return fmt.Sprintf(`nginx_ingress_controller_requests{%s, container="controller", endpoint="metrics", service="ingress-nginx-controller-metrics", controller_namespace=%q, controller_class="k8s.io/ingress-nginx", controller_pod=%q, exported_namespace=%q, ingress=%q, exported_service=%q, host=%q, method="GET", path="/", status="%d", canary=""}`,
		controller.target("ingress-nginx-controller-metrics", "10254"), controller.Namespace, controller.Name, namespace, ingress, service, host, status)
}
