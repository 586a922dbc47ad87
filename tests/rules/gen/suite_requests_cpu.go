package main

// The first recording group: requests, CPU and allocations per instance and
// service, and their ratios. Exact values: every input rate is dyadic.
func requestsCPUSuite() *suite {
	api := service{"eu1", "shop", "api"}
	idle := service{"eu1", "shop", "idle"}
	legacy := service{"", "shop", "legacy"} // scraped without a cluster label
	g := &group{
		name:    "requests, CPU and allocations per instance and service",
		comment: "Two instances of api (one with two status codes), an idle service with CPU but no requests, and a service without a cluster label.",
	}
	const m = 30 // minutes of input
	g.add("api/i1 serves 8 req/s with code 200 and 2 req/s with 500: summed to 10", api.sel("http_requests_total", `instance="i1"`, `code="200"`), (&seq{}).rate(m, 8).String())
	g.add("", api.sel("http_requests_total", `instance="i1"`, `code="500"`), (&seq{}).rate(m, 2).String())
	g.add("api/i2 serves 6 req/s", api.sel("http_requests_total", `instance="i2"`, `code="200"`), (&seq{}).rate(m, 6).String())
	g.add("", api.sel("process_cpu_seconds_total", `instance="i1"`), (&seq{}).rate(m, 0.5).String())
	g.add("", api.sel("process_cpu_seconds_total", `instance="i2"`), (&seq{}).rate(m, 0.25).String())
	g.add("", api.sel("go_memstats_alloc_bytes_total", `instance="i1"`), (&seq{}).rate(m, 1048576).String())
	g.add("", api.sel("go_memstats_alloc_bytes_total", `instance="i2"`), (&seq{}).rate(m, 524288).String())
	g.add("idle: CPU but a flat requests counter (0 req/s)", idle.sel("http_requests_total", `instance="i1"`), (&seq{}).hold(m, 42).String())
	g.add("", idle.sel("process_cpu_seconds_total", `instance="i1"`), (&seq{}).rate(m, 0.125).String())
	g.add("", idle.sel("go_memstats_alloc_bytes_total", `instance="i1"`), (&seq{}).rate(m, 4096).String())
	g.add("legacy: no cluster label at all", legacy.sel("http_requests_total", `instance="i1"`), (&seq{}).rate(m, 4).String())
	g.add("", legacy.sel("process_cpu_seconds_total", `instance="i1"`), (&seq{}).rate(m, 0.5).String())

	inst := func(s service, i string) map[string]string { return with(s.labels(), "instance", i) }
	at := "20m"
	g.expr("per instance, every other label summed away; idle's flat counter is a rate of 0",
		"instance:requests:rate5m", at,
		sample{labelString("instance:requests:rate5m", inst(api, "i1")), 10},
		sample{labelString("instance:requests:rate5m", inst(api, "i2")), 6},
		sample{labelString("instance:requests:rate5m", inst(idle, "i1")), 0},
		sample{labelString("instance:requests:rate5m", inst(legacy, "i1")), 4})
	g.expr("per service: cluster and namespace kept, an absent cluster dropped cleanly",
		"job:requests:rate5m", at,
		sample{labelString("job:requests:rate5m", api.labels()), 16},
		sample{labelString("job:requests:rate5m", idle.labels()), 0},
		sample{labelString("job:requests:rate5m", legacy.labels()), 4})
	g.expr("", "instance:cpu_seconds:rate5m", at,
		sample{labelString("instance:cpu_seconds:rate5m", inst(api, "i1")), 0.5},
		sample{labelString("instance:cpu_seconds:rate5m", inst(api, "i2")), 0.25},
		sample{labelString("instance:cpu_seconds:rate5m", inst(idle, "i1")), 0.125},
		sample{labelString("instance:cpu_seconds:rate5m", inst(legacy, "i1")), 0.5})
	g.expr("", "job:cpu_seconds:rate5m", at,
		sample{labelString("job:cpu_seconds:rate5m", api.labels()), 0.75},
		sample{labelString("job:cpu_seconds:rate5m", idle.labels()), 0.125},
		sample{labelString("job:cpu_seconds:rate5m", legacy.labels()), 0.5})
	g.expr("per instance; idle has no sample (0 requests: no NaN, no Inf)",
		"instance:cpu_seconds_per_request:ratio_rate5m", at,
		sample{labelString("instance:cpu_seconds_per_request:ratio_rate5m", inst(api, "i1")), 0.5 / 10},
		sample{labelString("instance:cpu_seconds_per_request:ratio_rate5m", inst(api, "i2")), 0.25 / 6},
		sample{labelString("instance:cpu_seconds_per_request:ratio_rate5m", inst(legacy, "i1")), 0.5 / 4})
	g.expr("the sums divided, not the instances' ratios averaged: 0.75 / 16",
		"job:cpu_seconds_per_request:ratio_rate5m", at,
		sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", api.labels()), 0.75 / 16},
		sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", legacy.labels()), 0.5 / 4})
	g.expr("legacy exports no Go allocation counter", "job:alloc_bytes:rate5m", at,
		sample{labelString("job:alloc_bytes:rate5m", api.labels()), 1572864},
		sample{labelString("job:alloc_bytes:rate5m", idle.labels()), 4096})
	g.expr("", "job:alloc_bytes_per_request:ratio_rate5m", at,
		sample{labelString("job:alloc_bytes_per_request:ratio_rate5m", api.labels()), 1572864.0 / 16})

	return &suite{
		file:      "requests-cpu.yaml",
		comment:   "Recording rules of the hotpath-requests-cpu group.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}

var shippedRules = []string{"../../rules/hotpath-rules.yaml", "../../rules/hotpath-alerts.yaml"}
