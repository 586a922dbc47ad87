package synth

import (
	"fmt"
	"strings"
	"time"
)

// The label shapes of real fleets that the scripted test services lacked, for
// every real-Prometheus test (tests/dashboards, tests/realrules): pods serving
// two jobs, jobs scraped outside Kubernetes (no pod or namespace label), the
// pause container (container="POD") and the pod-level cgroup
// (container=""), a cluster label on some series only, request counters with
// extra labels, a job with no traffic, kube-prometheus-stack's dropped
// cAdvisor series, and services counting their work in other counters than
// http_requests_total: a mesh's, OpenTelemetry's, Micrometer's, gRPC's and an
// ingress controller's (sources.go), most of them without process metrics.
// Every series grows at a constant rate from a start time, so a scraped page
// at any moment reads back exact rates, and the expected recorded values are
// plain numbers (Expected*).

// Series is one input series: a counter growing Rate per second, or a gauge
// at Value when Rate is 0 and Gauge is set.
type Series struct {
	Name, Labels string
	Rate         float64
	Gauge        bool
	Value        float64
}

// SeriesSet is a set of series and the moment their counters started.
type SeriesSet struct {
	Start  time.Time
	Series []Series
}

// At is every series' value at t (see Model): counters on their line from
// CounterBase at Start.
func (f *SeriesSet) At(t time.Time) map[string]float64 {
	out := make(map[string]float64, len(f.Series))
	for _, s := range f.Series {
		v := s.Value
		if !s.Gauge {
			v = CounterAt(f.Start, t, s.Rate)
		}
		out[s.Name+"{"+strings.ReplaceAll(s.Labels, ", ", ",")+"}"] = v
	}
	return out
}

const (
	cluster = `cluster="eu1"`
	kubelet = `job="kubelet", instance="node-1", ` + cluster
	ksm     = `job="kube-state-metrics", instance="10.0.9.1:8080", node="node-1", ` + cluster
)

// A Kubernetes pod's labels on a series its own job scrapes.
func podTarget(ns, pod, job, instance string) string {
	return fmt.Sprintf(`%s, namespace=%q, pod=%q, job=%q, instance=%q`, cluster, ns, pod, job, instance)
}

func cadvisor(ns, pod, container string) string {
	return fmt.Sprintf(`%s, namespace=%q, pod=%q, container=%q, id="/kubepods/%s/%s"`, kubelet, ns, pod, container, pod, container)
}

// RealShapes is those series. What each service should show:
//   - shop/api: two pods; requests split by code, method and route; api-1's
//     app container throttled 0.5 s/s on a full cAdvisor install; an
//     istio-proxy sidecar, the pause container and the pod-level cgroup too.
//   - shop/web and shop/web-exporter: one pod (multi-1) serving both jobs,
//     throttled in 4 of its 10 periods a second on kube-prometheus-stack's
//     default drops (no throttled seconds, no container_spec_*; the limit from
//     kube-state-metrics): 0.4 s/s as throttled periods x 100ms.
//   - shop/cart and shop/cart-exporter: the same on a full install, 0.25 s/s.
//   - blackbox, pushgateway, billing-vm: scraped outside Kubernetes, with no
//     cluster, namespace or pod label.
//   - shop/idle-worker: a request counter that does not move.
func RealShapes(start time.Time) *SeriesSet {
	f := &SeriesSet{Start: start}
	add := func(name, labels string, rate float64) {
		f.Series = append(f.Series, Series{Name: name, Labels: labels, Rate: rate})
	}
	gauge := func(name, labels string, v float64) {
		f.Series = append(f.Series, Series{Name: name, Labels: labels, Gauge: true, Value: v})
	}
	service := func(target string, req, cpu float64) {
		add("http_requests_total", target+`, code="200", method="GET", route="/items"`, req*0.75)
		add("http_requests_total", target+`, code="200", method="POST", route="/cart"`, req*0.125)
		add("http_requests_total", target+`, code="500", method="GET", route="/items"`, req*0.125)
		add("process_cpu_seconds_total", target, cpu)
		add("go_memstats_alloc_bytes_total", target, 65536*req)
		gauge("go_sched_gomaxprocs_threads", target, 4) // a Go service, in a pod or not
	}

	// shop/api, two pods.
	for i, pod := range []string{"api-7d9f8b6c5-aaaaa", "api-7d9f8b6c5-bbbbb"} {
		service(podTarget("shop", pod, "api", fmt.Sprintf("10.0.0.%d:8080", i+1)), 8, 0.25)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "app"), 0.25)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "istio-proxy"), 0.0625)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "POD"), 0.0625) // far above a real pause container, so counting it shows
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, ""), 0.3135)
		throttled, seconds := 0.0, 0.0
		if i == 0 {
			throttled, seconds = 5, ExpectedThrottled["api"]
		}
		for _, c := range []string{"app", ""} { // the pod-level cgroup has a quota too
			add("container_cpu_cfs_periods_total", cadvisor("shop", pod, c), 10)
			add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", pod, c), throttled)
			add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", pod, c), seconds)
		}
		gauge("container_spec_cpu_quota", cadvisor("shop", pod, "app"), 50000)
		gauge("container_spec_cpu_period", cadvisor("shop", pod, "app"), 100000)
		// The pause container under dockershim/cri-dockerd: CFS series of its own.
		add("container_cpu_cfs_periods_total", cadvisor("shop", pod, "POD"), 10)
		add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", pod, "POD"), 10)
		add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", pod, "POD"), 1)
	}

	// One pod, two jobs: the app and a sidecar exporter with its own job.
	service(podTarget("shop", "multi-1", "web", "10.0.0.9:8080"), 4, 0.375)
	service(podTarget("shop", "multi-1", "web-exporter", "10.0.0.9:9113"), 1, 0.0625)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-1", "app"), 0.375)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-1", "exporter"), 0.0625)
	// kube-prometheus-stack's defaults: periods only, the limit from kube-state-metrics.
	add("container_cpu_cfs_periods_total", cadvisor("shop", "multi-1", "app"), 10)
	add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", "multi-1", "app"), 4)
	gauge("kube_pod_container_resource_limits", fmt.Sprintf(`%s, namespace="shop", pod="multi-1", container="app", uid="u1", resource="cpu", unit="core"`, ksm), 0.5)
	gauge("kube_pod_container_resource_limits", fmt.Sprintf(`%s, namespace="shop", pod="multi-1", container="app", uid="u1", resource="memory", unit="byte"`, ksm), 268435456)

	// The same on a full cAdvisor install: throttled 0.25 s/s.
	service(podTarget("shop", "multi-2", "cart", "10.0.0.10:8080"), 4, 0.375)
	service(podTarget("shop", "multi-2", "cart-exporter", "10.0.0.10:9113"), 1, 0.0625)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-2", "app"), 0.375)
	add("container_cpu_cfs_periods_total", cadvisor("shop", "multi-2", "app"), 10)
	add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", "multi-2", "app"), 5)
	add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", "multi-2", "app"), ExpectedThrottled["cart"])

	// Outside Kubernetes: no cluster, namespace or pod.
	service(`job="blackbox", instance="probe-1:9115"`, 2, 0.03125)
	service(`job="pushgateway", instance="pgw:9091"`, 1, 0.015625)
	service(`job="billing-vm", instance="vm-7:8080"`, 6, 0.5)

	// A job with no traffic.
	add("http_requests_total", podTarget("shop", "idle-0", "idle-worker", "10.0.0.20:8080")+`, code="200", method="GET", route="/"`, 0)
	add("process_cpu_seconds_total", podTarget("shop", "idle-0", "idle-worker", "10.0.0.20:8080"), 0.125)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "idle-0", "app"), 0.125)

	sourceShapes(add)
	return f
}

// sourceShapes adds the services that count their requests in another tool's
// counter (sources.go), every one but ledger without process metrics: their
// CPU is their pods' containers. What each should show:
//   - shop/reviews (Istio): two pods of two versions, one canonical service;
//     productpage's sidecar reports its calls to reviews as reporter
//     "source", which count for neither;
//   - shop/productpage (Istio);
//   - shop/payments (Linkerd, a deployment), whose calls to ledger are
//     outbound; shop/kv (Linkerd, a statefulset);
//   - shop/checkout (OpenTelemetry through a Collector with resource
//     attributes: its own pod, not the Collector's);
//   - observability/orders (OpenTelemetry through a Collector without them:
//     the service and the Collector's namespace, no pod, so no CPU);
//   - shop/search (OpenTelemetry's older HTTP histogram, served by the pod);
//   - shop/invoices (Micrometer, a JVM);
//   - shop/ledger (gRPC) with process metrics too: its process's CPU, never
//     added to its container's;
//   - shop/storefront (ingress-nginx only: no pod, so no CPU); ingress-nginx
//     also counts web's requests from outside, and Istio cart's: both stay
//     counted from their own counters; its default backend's 404s count for
//     no one;
//   - the Collector's and the ingress controller's pods burn CPU that is no
//     service's.
func sourceShapes(add func(name, labels string, rate float64)) {
	series := func(nameLabels string, rate float64) {
		i := strings.IndexByte(nameLabels, '{')
		add(nameLabels[:i], strings.TrimSuffix(nameLabels[i+1:], "}"), rate)
	}
	cpu := func(p Pod, container string, cores float64) {
		add("container_cpu_usage_seconds_total", cadvisor(p.Namespace, p.Name, container), cores)
	}
	reviews1 := Pod{"shop", "reviews-v1-5b7f9c8d4-h2k9x", "10.0.3.1"}
	reviews2 := Pod{"shop", "reviews-v2-7d8c6b5f9-p4m7q", "10.0.3.2"}
	productpage := Pod{"shop", "productpage-v1-6c9f7d8b5-z8n2w", "10.0.3.3"}
	series(IstioRequests(reviews1, "destination", "reviews", "reviews-v1", "v1", "productpage", "shop", 200), 5.5)
	series(IstioRequests(reviews1, "destination", "reviews", "reviews-v1", "v1", "productpage", "shop", 503), 0.5)
	series(IstioRequests(reviews2, "destination", "reviews", "reviews-v2", "v2", "productpage", "shop", 200), 2)
	series(IstioRequests(productpage, "destination", "productpage", "productpage-v1", "v1", "istio-ingressgateway", "istio-system", 200), 4)
	series(IstioRequests(productpage, "source", "productpage", "productpage-v1", "v1", "reviews", "shop", 200), 8)
	cpu(reviews1, "reviews", 0.25)
	cpu(reviews1, "istio-proxy", 0.0625)
	cpu(reviews2, "reviews", 0.125)
	cpu(reviews2, "istio-proxy", 0.03125)
	cpu(productpage, "productpage", 0.125)
	cpu(productpage, "istio-proxy", 0.0625)
	// cart's pod (multi-2) is in the mesh too: its own counter wins
	series(IstioRequests(Pod{"shop", "multi-2", "10.0.0.10"}, "destination", "cart", "cart", "v1", "web", "shop", 200), 5)

	payments := Pod{"shop", "payments-84d6c9b7f5-q9w2e", "10.0.4.1"}
	kv := Pod{"shop", "kv-0", "10.0.4.2"}
	series(LinkerdRequests(payments, "deployment", "payments", "inbound", "web"), 3)
	series(LinkerdRequests(payments, "deployment", "payments", "outbound", "ledger"), 3)
	series(LinkerdRequests(kv, "statefulset", "kv", "inbound", "payments"), 5)
	cpu(payments, "payments", 0.25)
	cpu(payments, "linkerd-proxy", 0.03125)
	cpu(kv, "kv", 0.375)
	cpu(kv, "linkerd-proxy", 0.03125)

	collector := Pod{"observability", "otel-collector-7f9d8c6b5-k2j4h", "10.0.9.5"}
	checkout := Pod{"shop", "checkout-6d5c4b3a2-x7y8z", "10.0.5.1"}
	search := Pod{"shop", "search-5f4e3d2c1-a1b2c", "10.0.5.2"}
	series(OtelViaCollectorResource(collector, OtelHTTP, "checkout", checkout, "0b6f1c2e-checkout-1"), 4)
	series(OtelViaCollector(collector, OtelHTTP, "orders", "9a8b7c6d-orders-1"), 2)
	series(OtelDirect(search, OtelHTTPOld, "search"), 2)
	cpu(collector, "otel-collector", 0.875)
	cpu(checkout, "checkout", 0.5)
	cpu(search, "search", 0.25)

	invoices := Pod{"shop", "invoices-7c6b5a4d3-m3n4p", "10.0.6.1"}
	series(MicrometerRequests(invoices, "invoices", "/api/invoices", 200), 1.5)
	series(MicrometerRequests(invoices, "invoices", "/api/invoices/{id}", 500), 0.5)
	cpu(invoices, "invoices", 0.75)

	ledger := Pod{"shop", "ledger-9e8d7c6b5-r5s6t", "10.0.6.2"}
	series(GRPCHandled(ledger, "ledger", "ledger.v1.Ledger", "Post", "OK", "unary"), 7)
	series(GRPCHandled(ledger, "ledger", "ledger.v1.Ledger", "Post", "Unavailable", "unary"), 1)
	add("process_cpu_seconds_total", ledger.target("ledger", "9090"), 0.5)
	cpu(ledger, "ledger", 0.75)

	controller := Pod{"ingress-nginx", "ingress-nginx-controller-6b8d9f7c5-w9v8u", "10.0.9.9"}
	series(IngressNginxRequests(controller, "shop", "storefront", "storefront", "shop.example.com", 200), 10)
	series(IngressNginxRequests(controller, "shop", "web", "web", "web.example.com", 200), 3)
	series(IngressNginxRequests(controller, "", "", "", "", 404), 1)
	cpu(controller, "controller", 0.6875)
}

// ExpectedThrottled is the throttled seconds per second each service's row
// shows in the joined panels ("Throttled seconds by service", the throttling
// column of "Services by CPU"): its pods' containers, the pause container and
// the pod-level cgroup left out; no row for a service without throttling.
var ExpectedThrottled = map[string]float64{
	"api":           0.5,
	"web":           0.4,
	"web-exporter":  0.4,
	"cart":          0.25,
	"cart-exporter": 0.25,
}

// Jobs are the services of RealShapes, with the identity labels their
// recorded series carry (with every request source on).
var Jobs = map[string]map[string]string{
	"reviews":       shop("reviews"),
	"productpage":   shop("productpage"),
	"payments":      shop("payments"),
	"kv":            shop("kv"),
	"checkout":      shop("checkout"),
	"orders":        {"cluster": "eu1", "namespace": "observability", "job": "orders"},
	"search":        shop("search"),
	"invoices":      shop("invoices"),
	"ledger":        shop("ledger"),
	"storefront":    shop("storefront"),
	"api":           {"cluster": "eu1", "namespace": "shop", "job": "api"},
	"web":           {"cluster": "eu1", "namespace": "shop", "job": "web"},
	"web-exporter":  {"cluster": "eu1", "namespace": "shop", "job": "web-exporter"},
	"cart":          {"cluster": "eu1", "namespace": "shop", "job": "cart"},
	"cart-exporter": {"cluster": "eu1", "namespace": "shop", "job": "cart-exporter"},
	"blackbox":      {"job": "blackbox"},
	"pushgateway":   {"job": "pushgateway"},
	"billing-vm":    {"job": "billing-vm"},
	"idle-worker":   {"cluster": "eu1", "namespace": "shop", "job": "idle-worker"},
}

func shop(job string) map[string]string {
	return map[string]string{"cluster": "eu1", "namespace": "shop", "job": job}
}

// ExpectedRequests is each service's job:requests:rate5m (req/s), with every
// request source on: web and cart from their own counters only.
var ExpectedRequests = map[string]float64{
	"api": 16, "web": 4, "web-exporter": 1, "cart": 4, "cart-exporter": 1, "blackbox": 2, "pushgateway": 1, "billing-vm": 6, "idle-worker": 0,
	"reviews": 8, "productpage": 4, "payments": 3, "kv": 5, "checkout": 4, "orders": 2, "search": 2, "invoices": 2, "ledger": 8, "storefront": 10,
}

// ExpectedAutoCPU is each service's job:cpu_seconds:rate5m with the default
// cpuSource, auto: its process's CPU where it exports one (ledger's, not its
// container's), its pods' containers otherwise; none for orders and
// storefront, counted where no pod of theirs is known.
var ExpectedAutoCPU = map[string]float64{
	"api": 0.5, "web": 0.375, "web-exporter": 0.0625, "cart": 0.375, "cart-exporter": 0.0625,
	"blackbox": 0.03125, "pushgateway": 0.015625, "billing-vm": 0.5, "idle-worker": 0.125,
	"reviews": 0.46875, "productpage": 0.1875, "payments": 0.28125, "kv": 0.40625,
	"checkout": 0.5, "search": 0.25, "invoices": 0.75, "ledger": 0.5,
}

// ExpectedCadvisorCPU is each service's job:cpu_seconds:rate5m with
// cpuSource: cadvisor: its pods' containers (the pause container and the
// pod-level cgroup left out), a two-job pod's CPU for each of its jobs; none
// for the jobs outside Kubernetes, nor for those counted where no pod of
// theirs is known (orders, storefront).
var ExpectedCadvisorCPU = map[string]float64{
	"api": 0.625, "web": 0.4375, "web-exporter": 0.4375, "cart": 0.375, "cart-exporter": 0.375, "idle-worker": 0.125,
	"reviews": 0.46875, "productpage": 0.1875, "payments": 0.28125, "kv": 0.40625,
	"checkout": 0.5, "search": 0.25, "invoices": 0.75, "ledger": 0.75,
}
