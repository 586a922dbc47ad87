package main

import "github.com/hotpath/hotpath/promkit/synth"

// Every request source hotpath knows, on the label shapes each tool really
// exports and a real scrape of it adds (promkit/synth/sources.go, which says
// where each came from; overlays/request-sources.jsonnet turns them all on):
// each service gets its request rate, its pod and its CPU from the counter it
// exports, whatever that counter's extra labels; a service two sources see is
// counted once, from the first in the order requestsFrom documents; the
// series a source must not count (a mesh's outbound reports, an ingress's
// default backend, fluentd's stdout output) count for no one.
func requestSourcesSuite() *suite {
	const total = 20
	g := &group{
		name:    "a mixed fleet: its own counters, OpenTelemetry, Micrometer, gRPC, Istio, Linkerd, ingress-nginx and fluentd",
		comment: "CPU: process_cpu_seconds_total where a service exports it (web, api, ledger), its pods' containers (cAdvisor) otherwise.",
	}
	counter := func(comment, labels string, perSecond float64) {
		g.add(comment, labels, (&seq{}).rate(total, perSecond).String())
	}
	cadvisor := func(p synth.Pod, container string, cores float64) {
		counter("", `container_cpu_usage_seconds_total{cluster="eu1", job="kubelet", instance="node-1", namespace="`+p.Namespace+`", pod="`+p.Name+`", container="`+container+`"}`, cores)
	}
	process := func(p synth.Pod, job, port string, cores float64) {
		counter("", `process_cpu_seconds_total{cluster="eu1", namespace="`+p.Namespace+`", pod="`+p.Name+`", job="`+job+`", instance="`+p.IP+`:`+port+`"}`, cores)
	}
	web, api := inShop("web"), inShop("api")
	webPod, apiPod := synth.Pod{Namespace: "shop", Name: "web-1", IP: "10.0.0.1"}, synth.Pod{Namespace: "shop", Name: "api-1", IP: "10.0.0.2"}
	counter("web: http_requests_total, split by code", web.sel("http_requests_total", `instance="10.0.0.1:8080"`, `pod="web-1"`, `code="200"`), 6)
	counter("", web.sel("http_requests_total", `instance="10.0.0.1:8080"`, `pod="web-1"`, `code="500"`), 2)
	process(webPod, "web", "8080", 0.5)
	cadvisor(webPod, "web", 0.75)
	counter("api: its own counter and Micrometer's for the same 8 requests, and its sidecar's: counted once, from http_requests_total",
		api.sel("http_requests_total", `instance="10.0.0.2:8080"`, `pod="api-1"`, `code="200"`), 8)
	counter("", synth.MicrometerRequests(apiPod, "api", "/", 200), 8)
	counter("", synth.IstioRequests(apiPod, "destination", "api", "api", "v1", "web", "shop", 200), 8)
	process(apiPod, "api", "8080", 0.25)

	reviews1 := synth.Pod{Namespace: "shop", Name: "reviews-v1-1", IP: "10.0.3.1"}
	reviews2 := synth.Pod{Namespace: "shop", Name: "reviews-v2-1", IP: "10.0.3.2"}
	counter("reviews (Istio): two versions, one canonical service; no process metrics", synth.IstioRequests(reviews1, "destination", "reviews", "reviews-v1", "v1", "productpage", "shop", 200), 6)
	counter("", synth.IstioRequests(reviews2, "destination", "reviews", "reviews-v2", "v2", "productpage", "shop", 200), 2)
	counter("the client's sidecar reports the same calls as reporter=source: no one's requests",
		synth.IstioRequests(webPod, "source", "web", "web", "v1", "reviews", "shop", 200), 8)
	cadvisor(reviews1, "reviews", 0.25)
	cadvisor(reviews1, "istio-proxy", 0.0625)
	cadvisor(reviews2, "reviews", 0.125)

	payments := synth.Pod{Namespace: "shop", Name: "payments-1", IP: "10.0.4.1"}
	kv := synth.Pod{Namespace: "shop", Name: "kv-0", IP: "10.0.4.2"}
	counter("payments (Linkerd, a deployment): inbound counts, its outbound calls do not", synth.LinkerdRequests(payments, "deployment", "payments", "inbound", "web"), 4)
	counter("", synth.LinkerdRequests(payments, "deployment", "payments", "outbound", "kv"), 4)
	counter("kv (Linkerd, a statefulset)", synth.LinkerdRequests(kv, "statefulset", "kv", "inbound", "payments"), 4)
	cadvisor(payments, "payments", 0.5)
	cadvisor(kv, "kv", 0.25)

	collector := synth.Pod{Namespace: "observability", Name: "otel-collector-1", IP: "10.0.9.5"}
	checkout := synth.Pod{Namespace: "shop", Name: "checkout-1", IP: "10.0.5.1"}
	search := synth.Pod{Namespace: "shop", Name: "search-1", IP: "10.0.5.2"}
	counter("checkout (OpenTelemetry through a Collector, resource attributes as labels): its own pod and instance, not the Collector's",
		synth.OtelViaCollectorResource(collector, synth.OtelHTTP, "checkout", checkout, "uid-checkout-1"), 4)
	counter("orders (OpenTelemetry through a Collector, no resource attributes): the service from exported_job, no pod",
		synth.OtelViaCollector(collector, synth.OtelRPC, "orders", "uid-orders-1"), 2)
	counter("search (OpenTelemetry's older HTTP histogram, served by its own pod)", synth.OtelDirect(search, synth.OtelHTTPOld, "search"), 2)
	cadvisor(collector, "otel-collector", 1)
	cadvisor(checkout, "checkout", 0.5)
	cadvisor(search, "search", 0.125)

	ledger := synth.Pod{Namespace: "shop", Name: "ledger-1", IP: "10.0.6.2"}
	counter("ledger (gRPC): its process's CPU, never added to its container's", synth.GRPCHandled(ledger, "ledger", "ledger.v1.Ledger", "Post", "OK", "unary"), 16)
	process(ledger, "ledger", "9090", 1)
	cadvisor(ledger, "ledger", 1.5)

	controller := synth.Pod{Namespace: "ingress-nginx", Name: "ingress-nginx-controller-1", IP: "10.0.9.9"}
	counter("storefront (ingress-nginx only): requests, but no pod of its own known, so no CPU",
		synth.IngressNginxRequests(controller, "shop", "storefront", "storefront", "shop.example.com", 200), 8)
	counter("web's requests from outside: web is counted from its own counter", synth.IngressNginxRequests(controller, "shop", "web", "web", "web.example.com", 200), 4)
	counter("the default backend (no Ingress matched): no one's", synth.IngressNginxRequests(controller, "", "", "", "", 404), 1)
	cadvisor(controller, "controller", 0.5)

	logs := inShop("fluentd")
	counter("fluentd: records emitted to Elasticsearch; its stdout output is left out by the selector",
		logs.sel("fluentd_output_status_emit_records", `instance="i1"`, `plugin_id="es"`, `type="elasticsearch"`), 1024)
	counter("", logs.sel("fluentd_output_status_emit_records", `instance="i1"`, `plugin_id="debug"`, `type="stdout"`), 1024)
	counter("", logs.sel("process_cpu_seconds_total", `instance="i1"`), 0.75)

	at := "10m"
	orders := service{"eu1", "observability", "orders"}
	storefront := inShop("storefront")
	rs, ck, kvs, pay, srch, led := inShop("reviews"), inShop("checkout"), inShop("kv"), inShop("payments"), inShop("search"), inShop("ledger")
	r := func(s service, v float64) sample { return sample{labelString("job:requests:rate5m", s.labels()), v} }
	g.expr("every service's work from its own counter, each once", "job:requests:rate5m", at,
		r(web, 8), r(api, 8), r(rs, 8), r(pay, 4), r(kvs, 4), r(ck, 4), r(orders, 2), r(srch, 2), r(led, 16), r(storefront, 8), r(logs, 1024))
	pod := func(s service, instance, podName string, v float64) sample {
		m := with(s.labels(), "instance", instance)
		if podName != "" {
			m["pod"] = podName
		}
		return sample{labelString("pod:requests:rate5m", m), v}
	}
	g.expr("and the pod each was served in: the source's own (checkout's from k8s_pod_name, not the Collector's), none where it is not known (orders, storefront)",
		`pod:requests:rate5m{job!="fluentd"}`, at,
		pod(web, "10.0.0.1:8080", "web-1", 8), pod(api, "10.0.0.2:8080", "api-1", 8),
		pod(rs, "10.0.3.1:15020", "reviews-v1-1", 6), pod(rs, "10.0.3.2:15020", "reviews-v2-1", 2),
		pod(pay, "10.0.4.1:4191", "payments-1", 4), pod(kvs, "10.0.4.2:4191", "kv-0", 4),
		pod(ck, "uid-checkout-1", "checkout-1", 4), pod(orders, "uid-orders-1", "", 2), pod(srch, "10.0.5.2:9464", "search-1", 2),
		pod(led, "10.0.6.2:9090", "ledger-1", 16), pod(storefront, "10.0.9.9:10254", "", 8))
	c := func(s service, v float64) sample { return sample{labelString("job:cpu_seconds:rate5m", s.labels()), v} }
	g.expr("CPU: the process's where there is one (web, api, ledger: not their containers'), the pods' containers otherwise, sidecars included; the Collector's and the controller's CPU is no one's",
		"job:cpu_seconds:rate5m", at,
		c(web, 0.5), c(api, 0.25), c(rs, 0.4375), c(pay, 0.5), c(kvs, 0.25), c(ck, 0.5), c(srch, 0.125), c(led, 1), c(logs, 0.75))
	q := func(s service, v float64) sample {
		return sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", s.labels()), v}
	}
	g.expr("so CPU per unit of work for each that has both", "job:cpu_seconds_per_request:ratio_rate5m", at,
		q(web, 0.0625), q(api, 0.03125), q(rs, 0.4375/8), q(pay, 0.125), q(kvs, 0.0625), q(ck, 0.125), q(srch, 0.0625), q(led, 0.0625), q(logs, 0.75/1024))
	return &suite{
		file:      "request-sources.yaml",
		comment:   "The requests-cpu group with every request source on (overlays/request-sources.jsonnet).",
		ruleFiles: overlayRules("request-sources"),
		groups:    []*group{g},
	}
}
