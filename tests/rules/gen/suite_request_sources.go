package main

// Several work-unit counters at once (overlays/request-sources.jsonnet): every
// service gets its request rate from the counter it exports, whatever its
// extra labels; a service exporting two of them is counted once, from the
// first source in the list.
func requestSourcesSuite() *suite {
	web, checkout, billing, ledger, logs, api := inShop("web"), inShop("checkout"), inShop("billing"), inShop("ledger"), inShop("fluentd"), inShop("api")
	const total = 20
	g := &group{
		name:    "a mixed fleet: HTTP, OpenTelemetry, Micrometer, gRPC and fluentd counters",
		comment: "Each service also exports process_cpu_seconds_total under its job.",
	}
	counter := func(comment, labels string, perSecond float64) {
		g.add(comment, labels, (&seq{}).rate(total, perSecond).String())
	}
	cpu := func(s service, cores float64) {
		counter("", s.sel("process_cpu_seconds_total", `instance="i1"`), cores)
	}
	counter("web: http_requests_total, split by code and method", web.sel("http_requests_total", `instance="i1"`, `code="200"`, `method="GET"`), 6)
	counter("", web.sel("http_requests_total", `instance="i1"`, `code="500"`, `method="POST"`), 2)
	cpu(web, 0.5)
	counter("checkout: OpenTelemetry through a collector, the service in service_name (job is the collector's)",
		`http_server_request_duration_seconds_count{cluster="eu1", namespace="shop", job="otel-collector", instance="i1", service_name="checkout", http_request_method="GET", http_response_status_code="200"}`, 4)
	cpu(checkout, 0.25)
	counter("billing: Spring Boot / Micrometer", billing.sel("http_server_requests_seconds_count", `instance="i1"`, `uri="/invoices"`, `status="200"`, `method="GET"`), 2)
	cpu(billing, 0.125)
	counter("ledger: gRPC (go-grpc-prometheus)", ledger.sel("grpc_server_handled_total", `instance="i1"`, `grpc_service="ledger.v1.Ledger"`, `grpc_method="Post"`, `grpc_code="OK"`, `grpc_type="unary"`), 16)
	cpu(ledger, 1)
	counter("fluentd: records emitted to Elasticsearch; its stdout output is left out by the selector",
		logs.sel("fluentd_output_status_emit_records", `instance="i1"`, `plugin_id="es"`, `type="elasticsearch"`), 1024)
	counter("", logs.sel("fluentd_output_status_emit_records", `instance="i1"`, `plugin_id="debug"`, `type="stdout"`), 1024)
	cpu(logs, 0.75)
	counter("api: exports both http_requests_total and Micrometer's counter for the same 8 requests: counted once",
		api.sel("http_requests_total", `instance="i1"`, `code="200"`), 8)
	counter("", api.sel("http_server_requests_seconds_count", `instance="i1"`, `uri="/"`, `status="200"`), 8)
	cpu(api, 0.25)

	at := "10m"
	r := func(s service, v float64) sample { return sample{labelString("job:requests:rate5m", s.labels()), v} }
	g.expr("every service's work from its own counter, api once", "job:requests:rate5m", at,
		r(web, 8), r(checkout, 4), r(billing, 2), r(ledger, 16), r(logs, 1024), r(api, 8))
	c := func(s service, v float64) sample {
		return sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", s.labels()), v}
	}
	g.expr("so CPU per unit of work for each", "job:cpu_seconds_per_request:ratio_rate5m", at,
		c(web, 0.0625), c(checkout, 0.0625), c(billing, 0.0625), c(ledger, 0.0625), c(logs, 0.75/1024), c(api, 0.25/8))
	return &suite{
		file:      "request-sources.yaml",
		comment:   "The requests-cpu group with several work-unit counters (overlays/request-sources.jsonnet).",
		ruleFiles: overlayRules("request-sources"),
		groups:    []*group{g},
	}
}
