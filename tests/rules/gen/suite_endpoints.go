package main

import "fmt"

// Endpoint alerts: hotpath-profile-metrics' endpoint rows (labels job and
// endpoint, scraped with honor_labels) over the per-route request counters
// (OpenTelemetry's http_route, go-grpc-prometheus' grpc_service and
// grpc_method), 31 clean hours and then, at onset, a route whose code
// regresses, the same hidden by a mix that moved, a mix that moves alone, a
// route with too few requests, the rows that are no endpoint, and an
// allocation regression; and a service of three pods profiled on one, and
// restarts (a counter reset and a warm-up at twice the cost) that no
// endpoint's cost per request may take for the code's. EndpointCostPerRequestRegression judges the present
// against each endpoint's median and ceiling as recorded a day ago.
func endpointsSuite() *suite {
	search, hidden, mix, rare, spill, catalog, items, uploads, pods, restart, restart1 := inShop("search"), inShop("hidden"), inShop("mix"), inShop("rare"), inShop("spill"), inShop("catalog"), inShop("items"), inShop("uploads"), inShop("pods"), inShop("restart"), inShop("restart1")
	launch := inShop("launch")
	const (
		onset = 31 * 60
		total = onset + 3*60
		at    = onset + 60
		// restarts: the minute a pod is down, then 15 minutes of warm-up at
		// twice its cost
		down   = onset + 30
		warmed = down + 16
	)
	g := &group{
		name: "endpoint rows of the profile bridge over per-route request counters: a route that doubles, the same under a mix that hides it, a mix change alone, a rare route, the rows that are no endpoint, gRPC methods, allocations, pods profiled on one of three, restarts",
		comment: `Every service's profile adds up to 0.5 cores (or 1 MiB/s) before onset: /search 4 req/s at 1/16 s, /healthz 4 req/s at 1/256 s, other 0.109375, unlabelled 0.125 cores.
The changes begin at minute ` + fmt.Sprint(onset) + ` (31h) and last to the end.`,
	}
	flat := func(v float64) func(int) float64 { return func(int) float64 { return v } }
	from := func(before, after float64) func(int) float64 {
		return func(t int) float64 {
			if t >= onset {
				return after
			}
			return before
		}
	}
	// A route's counter and its endpoint row (CPU seconds per request cpr).
	type route struct {
		name      string
		rate, cpr func(int) float64
	}
	cpuRow := func(s service, endpoint string, perSecond func(int) float64) {
		g.add("", fmt.Sprintf(`hotpath_profile_endpoint_cpu_seconds_total{endpoint=%q, instance="bridge:9096", job=%q}`, endpoint, s.job), bridgeRow(total, perSecond))
	}
	otel := func(s service, r route) {
		g.add("", s.sel("http_server_request_duration_seconds_count", `instance="i1"`, fmt.Sprintf("http_route=%q", r.name)), bridgeRow(total, r.rate))
	}
	// A service of routes: its own counters (requests, process CPU at 0.5
	// cores plus its routes' change), each route's counter and endpoint row,
	// and the rows other and unlabelled.
	serve := func(s service, comment string, counter func(service, route), routes []route, other, unlabelled func(int) float64) {
		cost := func(t int) float64 {
			c := other(t) + unlabelled(t)
			for _, r := range routes {
				c += r.rate(t) * r.cpr(t)
			}
			return c
		}
		reqs := func(t int) float64 {
			n := 0.0
			for _, r := range routes {
				n += r.rate(t)
			}
			return n
		}
		g.addService(s, comment, timeline{total: total, at: func(t int) rates { return rates{reqs(t), cost(t), 1048576} }})
		for _, r := range routes {
			counter(s, r)
			cpuRow(s, normalised(r.name), func(t int) float64 { return r.rate(t) * r.cpr(t) })
		}
		cpuRow(s, "other", other)
		cpuRow(s, "unlabelled", unlabelled)
	}
	healthz := route{"/healthz", flat(4), flat(1.0 / 256)}

	serve(search, "search: /search's cost per request doubles at the same traffic", otel,
		[]route{{"/search", flat(4), from(1.0/16, 1.0/8)}, healthz}, flat(0.109375), flat(0.125))
	serve(hidden, "hidden: /search doubles as its traffic halves and /healthz takes the rest: the service's CPU per request stays within 2%", otel,
		[]route{{"/search", from(4, 2), from(1.0/16, 1.0/8)}, {"/healthz", from(4, 6), flat(1.0 / 256)}}, flat(0.109375), flat(0.125))
	serve(mix, "mix: /search's traffic doubles, /healthz's halves, every route at its cost per request: the service's CPU per request rises by half", otel,
		[]route{{"/search", from(4, 8), flat(1.0 / 16)}, {"/healthz", from(4, 2), flat(1.0 / 256)}}, flat(0.109375), flat(0.125))
	serve(rare, "rare: /admin, at 0.125 req/s (under the 0.2 floor), doubles from 1 s to 2 s a request: +0.125 cores", otel,
		[]route{{"/search", flat(4), flat(1.0 / 16)}, {"/admin", flat(0.125), from(1, 2)}}, flat(0.109375), flat(0.125))
	serve(spill, "spill: the other and unlabelled rows double; no route moves", otel,
		[]route{{"/search", flat(4), flat(1.0 / 16)}, healthz}, from(0.109375, 0.21875), from(0.125, 0.25))
	serve(launch, "launch: a new route, /export, 2 req/s at 1/8 s a request from onset (no requests before): no reference yet", otel,
		[]route{{"/search", flat(4), flat(1.0 / 16)}, healthz, {"/export", from(0, 2), flat(1.0 / 8)}}, flat(0.109375), flat(0.125))
	grpc := func(s service, r route) {
		g.add("", s.sel("grpc_server_handled_total", `instance="i1"`, `grpc_code="OK"`, `grpc_service="shop.Catalog"`, fmt.Sprintf("grpc_method=%q", r.name[len("/shop.Catalog/"):])), bridgeRow(total, r.rate))
	}
	serve(catalog, "catalog: gRPC, its counter's grpc_service and grpc_method joined into the full method grpc-go labels goroutines with", grpc,
		[]route{{"/shop.Catalog/Get", flat(4), flat(1.0 / 16)}, {"/shop.Catalog/List", flat(4), flat(1.0 / 256)}}, flat(0.109375), flat(0.125))
	serve(items, "items: a route label with a method and a trailing slash, and a 404 without a route", otel,
		[]route{{"GET /items/", flat(4), flat(1.0 / 16)}, healthz}, flat(0.109375), flat(0.125))
	g.add("", items.sel("http_server_request_duration_seconds_count", `instance="i1"`, `http_status_code="404"`), bridgeRow(total, flat(2)))
	serve(uploads, "uploads: /upload's CPU is steady; its bytes allocated per request double", otel,
		[]route{{"/upload", flat(4), flat(1.0 / 16)}, healthz}, flat(0.109375), flat(0.125))
	allocRow := func(endpoint string, perSecond func(int) float64) {
		g.add("", fmt.Sprintf(`hotpath_profile_endpoint_alloc_bytes_total{endpoint=%q, instance="bridge:9096", job=%q}`, endpoint, uploads.job), bridgeRow(total, perSecond))
	}
	// pods: three pods serve /search at 4, 8 and 12 req/s; only i1's profile
	// reaches the bridge, whose instance rows say so.
	g.addService(pods, "pods: /search on pods i1, i2, i3 at 4, 8 and 12 req/s, its profile from i1 only (the bridge's instance rows): 1/16 s a request of i1's", timeline{total: total, at: func(int) rates { return rates{24, 0.5, 1048576} }})
	for i, rate := range []float64{4, 8, 12} {
		g.add("", pods.sel("http_server_request_duration_seconds_count", fmt.Sprintf(`instance="i%d"`, i+1), `http_route="/search"`), bridgeRow(total, flat(rate)))
	}
	cpuRow(pods, "/search", flat(0.25))
	cpuRow(pods, "unlabelled", flat(0.125))
	g.add("", `hotpath_profile_instance_cpu_seconds_total{instance="i1", job="pods"}`, bridgeRow(total, flat(0.375)))
	// restart: pods i1 and i2 serve /search at 4 req/s, 1/16 s a request;
	// i2 is down for a minute and warms up at twice the cost; the bridge's
	// instance rows follow each pod's cost. restart1: one pod does the same,
	// without instance rows.
	warm := func(v float64) func(int) float64 {
		return func(t int) float64 {
			switch {
			case t == down:
				return 0
			case t > down && t < warmed:
				return 2 * v
			}
			return v
		}
	}
	restarted := func(perSecond float64) string {
		return (&seq{}).rate(down, perSecond).gap(1).reset(0).rate(total-down-1, perSecond).String()
	}
	plus := func(a, b func(int) float64) func(int) float64 { return func(t int) float64 { return a(t) + b(t) } }
	g.addService(restart, "restart: /search on pods i1 and i2 at 4 req/s each; at minute "+fmt.Sprint(down)+" i2 restarts (its counter from 0 after a minute down) and costs twice as much for 15 minutes", timeline{total: total, at: func(int) rates { return rates{8, 0.5, 1048576} }})
	g.add("", restart.sel("http_server_request_duration_seconds_count", `instance="i1"`, `http_route="/search"`), bridgeRow(total, flat(4)))
	g.add("", restart.sel("http_server_request_duration_seconds_count", `instance="i2"`, `http_route="/search"`), restarted(4))
	cpuRow(restart, "/search", plus(flat(0.25), warm(0.25)))
	g.add("", `hotpath_profile_instance_cpu_seconds_total{instance="i1", job="restart"}`, bridgeRow(total, flat(0.25)))
	g.add("", `hotpath_profile_instance_cpu_seconds_total{instance="i2", job="restart"}`, bridgeRow(total, warm(0.25)))
	g.addService(restart1, "restart1: /search on one pod at 4 req/s restarts likewise; no instance rows", timeline{total: total, at: func(int) rates { return rates{4, 0.25, 1048576} }})
	g.add("", restart1.sel("http_server_request_duration_seconds_count", `instance="i1"`, `http_route="/search"`), restarted(4))
	cpuRow(restart1, "/search", warm(0.25))
	allocRow("/upload", from(262144, 524288))
	allocRow("/healthz", flat(262144))
	allocRow("other", flat(262144))
	allocRow("unlabelled", flat(262144))

	ep := func(name string, s service, endpoint string, v float64, extra ...string) sample {
		return sample{labelString(name, with(map[string]string{"job": s.job, "endpoint": endpoint}, extra...)), v}
	}
	check := minutes(onset - 1)
	g.expr("each route's request rate by endpoint, with its service's cluster and namespace", `job_endpoint:requests:rate5m{job="search"}`, check,
		sample{labelString("job_endpoint:requests:rate5m", with(search.labels(), "endpoint", "/healthz")), 4},
		sample{labelString("job_endpoint:requests:rate5m", with(search.labels(), "endpoint", "/search")), 4})
	g.expr("route names normalised as the bridge normalises the profile's: the method and the trailing slash dropped; the 404 without a route counted nowhere", `job_endpoint:requests:rate5m{job="items"}`, check,
		sample{labelString("job_endpoint:requests:rate5m", with(items.labels(), "endpoint", "/healthz")), 4},
		sample{labelString("job_endpoint:requests:rate5m", with(items.labels(), "endpoint", "/items")), 4})
	g.expr("gRPC: grpc_service and grpc_method joined into the full method", `job_endpoint:requests:rate5m{job="catalog"}`, check,
		sample{labelString("job_endpoint:requests:rate5m", with(catalog.labels(), "endpoint", "/shop.Catalog/Get")), 4},
		sample{labelString("job_endpoint:requests:rate5m", with(catalog.labels(), "endpoint", "/shop.Catalog/List")), 4})
	g.expr("a route's requests on the profiled pods: i1's 4 of the 24 req/s of pods' three", `job_endpoint:cpu_profiled_requests:rate5m{job="pods"}`, check,
		sample{labelString("job_endpoint:cpu_profiled_requests:rate5m", with(pods.labels(), "endpoint", "/search")), 4})
	g.expr("and its cost per request is i1's cost over i1's requests, 1/16 s (not over all three pods', 1/96)", `job_endpoint:cpu_seconds_per_request:ratio_rate5m{job="pods"}`, check,
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", pods, "/search", 1.0/16))
	g.expr("a service without the bridge's instance rows (profiles without the label) counts all its instances", `job_endpoint:cpu_profiled_requests:rate5m{job="search"}`, check,
		sample{labelString("job_endpoint:cpu_profiled_requests:rate5m", with(search.labels(), "endpoint", "/healthz")), 4},
		sample{labelString("job_endpoint:cpu_profiled_requests:rate5m", with(search.labels(), "endpoint", "/search")), 4})
	g.expr("each route's request rate by instance", `instance_endpoint:requests:rate5m{job="pods"}`, check,
		sample{labelString("instance_endpoint:requests:rate5m", with(pods.labels(), "endpoint", "/search", "instance", "i1")), 4},
		sample{labelString("instance_endpoint:requests:rate5m", with(pods.labels(), "endpoint", "/search", "instance", "i2")), 8},
		sample{labelString("instance_endpoint:requests:rate5m", with(pods.labels(), "endpoint", "/search", "instance", "i3")), 12})
	during := minutes(down + 10)
	g.expr("a restart: the pod whose counter restarted within endpointWarmUp (10m) and the rate window is marked", `instance:route_requests:restarted{job=~"restart.*"}`, during,
		sample{labelString("instance:route_requests:restarted", with(restart.labels(), "instance", "i2")), 1},
		sample{labelString("instance:route_requests:restarted", with(restart1.labels(), "instance", "i1")), 1})
	g.expr("its warm-up would read as /search costing 1.5 times as much a request of the service's two pods (0.75 cores over 8 req/s)",
		`job_endpoint:cpu_seconds:rate5m{job="restart", endpoint="/search"} / on (job, endpoint) job_endpoint:requests:rate5m`, during, ep("", restart, "/search", 0.75/8))
	g.expr("counted on i1 alone, its share of the profile (0.25 of 0.75 cores) over its requests, it stays at 1/16 s", `job_endpoint:cpu_seconds_per_request:ratio_rate5m{job="restart"}`, during,
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", restart, "/search", 1.0/16))
	g.expr("the counted share of restart's profile meanwhile: i1's third", `job:cpu_seconds_counted_share:ratio_rate5m{job="restart"}`, during,
		sample{labelString("job:cpu_seconds_counted_share:ratio_rate5m", map[string]string{"job": "restart"}), 1.0 / 3})
	g.expr("without instance rows, a restarted service has no endpoint cost per request meanwhile (not twice its cost)", `job_endpoint:cpu_seconds_per_request:ratio_rate5m{job="restart1"}`, during)
	g.expr("and has it again once endpointWarmUp and the rate window have passed", `job_endpoint:cpu_seconds_per_request:ratio_rate5m{job=~"restart.*"}`, minutes(warmed+20),
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", restart, "/search", 1.0/16), ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", restart1, "/search", 1.0/16))
	g.expr("each endpoint's cost per second, summed over the bridge's labels", `job_endpoint:cpu_seconds:rate5m{job="search"}`, check,
		ep("job_endpoint:cpu_seconds:rate5m", search, "/healthz", 1.0/64), ep("job_endpoint:cpu_seconds:rate5m", search, "/search", 0.25),
		ep("job_endpoint:cpu_seconds:rate5m", search, "other", 0.109375), ep("job_endpoint:cpu_seconds:rate5m", search, "unlabelled", 0.125))
	g.expr("and per request of its own route; none for other and unlabelled, which have no requests of their own", `job_endpoint:cpu_seconds_per_request:ratio_rate5m{job=~"search|catalog|items"}`, check,
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", catalog, "/shop.Catalog/Get", 1.0/16), ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", catalog, "/shop.Catalog/List", 1.0/256),
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", items, "/healthz", 1.0/256), ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", items, "/items", 1.0/16),
		ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", search, "/healthz", 1.0/256), ep("job_endpoint:cpu_seconds_per_request:ratio_rate5m", search, "/search", 1.0/16))
	g.expr("uploads' /upload requests on the pods with allocation profiles: all of them (no instance rows)", `job_endpoint:alloc_profiled_requests:rate5m{job="uploads", endpoint="/upload"}`, check,
		sample{labelString("job_endpoint:alloc_profiled_requests:rate5m", with(uploads.labels(), "endpoint", "/upload")), 4})
	g.expr("and the whole of its allocation profile counted", `job:alloc_bytes_counted_share:ratio_rate5m{job="uploads"}`, check,
		sample{labelString("job:alloc_bytes_counted_share:ratio_rate5m", map[string]string{"job": "uploads"}), 1})
	g.expr("the allocations per request of a route", `job_endpoint:alloc_bytes_per_request:ratio_rate5m{job="uploads", endpoint="/upload"}`, check,
		ep("job_endpoint:alloc_bytes_per_request:ratio_rate5m", uploads, "/upload", 65536))
	for _, op := range []string{"smoothed", "smoothed_sampled", "baseline_median", "baseline_ceiling", "baseline_reference", "baseline_threshold"} {
		name := "job_endpoint:cpu_seconds_per_request:" + op
		g.expr("a steady endpoint: its smoothed cost, median, ceiling, reference and threshold all at its level (spread 0)", fmt.Sprintf(`last_over_time(%s{job="search", endpoint="/search"}[30m])`, name), check,
			ep(name, search, "/search", 1.0/16))
	}
	for _, op := range []string{"rate5m", "smoothed", "smoothed_sampled", "baseline_median", "baseline_ceiling", "baseline_reference", "baseline_threshold"} {
		name := "job_endpoint:alloc_bytes_per_request:" + op
		want := 65536.0
		if op == "rate5m" {
			name, want = "job_endpoint:alloc_bytes:rate5m", 262144
		}
		g.expr("allocations: the same steps, per second and per request of the route", fmt.Sprintf(`last_over_time(%s{job="uploads", endpoint="/upload"}[30m])`, name), check,
			ep(name, uploads, "/upload", want))
	}
	for _, c := range []struct {
		name string
		want float64
	}{{"job:alloc_bytes_unlabelled_share:ratio_rate5m", 0.25}, {"job:endpoint_alloc_bytes_per_request:ratio_rate5m", 65536}, {"job:endpoint_alloc_bytes_per_request:at_reference", 65536}} {
		g.expr("uploads before onset: a quarter of the allocated bytes unlabelled; the endpoints' bytes per request together, and at their reference, 64 KiB",
			c.name+`{job="uploads"}`, check, sample{labelString(c.name, map[string]string{"job": "uploads"}), c.want})
	}
	g.expr("the unlabelled share: 0.125 of the profile's 0.5 cores carries no endpoint label", `job:cpu_seconds_unlabelled_share:ratio_rate5m{job="search"}`, check,
		sample{labelString("job:cpu_seconds_unlabelled_share:ratio_rate5m", map[string]string{"job": "search"}), 0.25})
	g.expr("and after spill's unlabelled row doubles, 0.25 of 0.734375 cores", `job:cpu_seconds_unlabelled_share:ratio_rate5m{job="spill"}`, minutes(at),
		sample{labelString("job:cpu_seconds_unlabelled_share:ratio_rate5m", map[string]string{"job": "spill"}), 0.25 / 0.734375})
	g.expr("a service without endpoint rows has no unlabelled share (not 0, not NaN)", `job:cpu_seconds_unlabelled_share:ratio_rate5m{job="nobridge"}`, check)

	// The mix: the endpoints' cost per request together, against the same
	// mix at each endpoint's reference cost.
	mixOf := func(name string, s service, v float64) sample {
		return sample{labelString(name, map[string]string{"job": s.job}), v}
	}
	g.expr("mix after onset: the endpoints' cost per request rose from (0.25 + 1/64) / 8 to (0.5 + 1/128) / 10 req/s", `job:endpoint_cpu_seconds_per_request:ratio_rate5m{job="mix"}`, minutes(at),
		mixOf("job:endpoint_cpu_seconds_per_request:ratio_rate5m", mix, (0.5+1.0/128)/10))
	g.expr("and the current mix at the reference costs is the same: every change is the mix's", `job:endpoint_cpu_seconds_per_request:at_reference{job="mix"}`, minutes(at),
		mixOf("job:endpoint_cpu_seconds_per_request:at_reference", mix, (0.5+1.0/128)/10))
	g.expr("hidden after onset: the endpoints' cost per request is (0.25 + 6/256) / 8, the current mix at reference costs (0.125 + 6/256) / 8: the endpoints' own change is their ratio, 1.84",
		`job:endpoint_cpu_seconds_per_request:ratio_rate5m{job="hidden"} / on (job) job:endpoint_cpu_seconds_per_request:at_reference`, minutes(at),
		mixOf("", hidden, (0.25+6.0/256)/(0.125+6.0/256)))
	g.expr("launch before onset: the endpoints' cost per request at their reference costs is (0.25 + 4/256) / 8",
		`job:endpoint_cpu_seconds_per_request:at_reference{job="launch"}`, check,
		mixOf("job:endpoint_cpu_seconds_per_request:at_reference", launch, (0.25+4.0/256)/8))
	for _, name := range []string{"job:endpoint_cpu_seconds_per_request:ratio_rate5m", "job:endpoint_cpu_seconds_per_request:at_reference"} {
		g.expr("after onset its new route counts at its current cost in both: (0.25 + 4/256 + 2/8) / 10, the change all the mix's, none the endpoints' own",
			name+`{job="launch"}`, minutes(at), mixOf(name, launch, (0.25+4.0/256+0.25)/10))
	}
	g.expr("while hidden's CPU per request moved by 1.5% only",
		`job:cpu_seconds_per_request:ratio_rate5m{job="hidden"} / on (job) job:cpu_seconds_per_request:ratio_rate5m{job="hidden"} offset 2h`, minutes(at),
		sample{labelString("", map[string]string{"job": "hidden"}), (0.5 + 6.0/256 - 1.0/64) / 0.5})

	alerts := func(more string) string {
		return fmt.Sprintf(`ALERTS{alertname="EndpointCostPerRequestRegression", alertstate="firing"%s}`, more)
	}
	firingAlerts := alerts("")
	alertSample := func(s service, endpoint, kind string) sample {
		return sample{labelString("ALERTS", with(s.labels(), "endpoint", endpoint, "alertname", "EndpointCostPerRequestRegression", "alertstate", "firing", "profile_type", kind, "severity", "warning")), 1}
	}
	g.expr("nothing fires in the clean hours", fmt.Sprintf("count_over_time(%s[%s])", firingAlerts, minutes(onset-1)), minutes(onset-1))
	g.expr("an hour after onset exactly three endpoints fire, each with its service's cluster and namespace: search's /search, hidden's /search (its service's average hid it), uploads' /upload (allocations); not mix's routes (the mix alone moved), rare's /admin (0.125 req/s, under the floor), spill's other and unlabelled rows, the restarted services' /search, nor any route that kept its cost",
		firingAlerts, minutes(at),
		alertSample(hidden, "/search", "cpu"), alertSample(search, "/search", "cpu"), alertSample(uploads, "/upload", "alloc_space"))
	g.expr("and at no minute up to the end does any other endpoint fire",
		fmt.Sprintf(`count_over_time(%s[%s]) unless on (job, endpoint) %s`, firingAlerts, minutes(total-1-onset), alerts(`, endpoint=~"/search|/upload", job=~"search|hidden|uploads"`)), minutes(total-1))
	g.expr("rare's /admin would be material (+0.125 cores, a fifth of its service) and above its threshold: only its request rate keeps it silent",
		`job_endpoint:cpu_seconds_per_request:smoothed{job="rare", endpoint="/admin"} > on (job, endpoint) last_over_time(job_endpoint:cpu_seconds_per_request:baseline_threshold[30m])`, minutes(at),
		ep("", rare, "/admin", 2))

	epFiring := func(s service, endpoint, kind, value string) firing {
		return firing{
			labels: with(s.labels(), "endpoint", endpoint, "profile_type", kind, "severity", "warning"),
			annotations: map[string]string{
				"summary":          "One endpoint's cost per request of its own route rose beyond its range and by a material share of its service's cost.",
				"description":      fmt.Sprintf("%s of %s costs %s more %s per request of that route than 1d ago, above the highest of its reference day and adding at least 3%% to the whole service. The traffic mix does not move this figure: the route's own code does. Start from the %s diff of that endpoint (its profile label), then its functions.", endpoint, s.job, value, kind, kind),
				"runbook_url":      runbookURL + "endpointcostperrequestregression",
				"dashboard_url":    s.dashboard() + "&var-endpoint=" + endpoint + "&hotpath-endpoint=" + endpoint,
				"version":          "",
				"previous_version": "",
				"rollout_time":     "",
			},
		}
	}
	g.alert("the value is the rise per request of the route over its reference: 1/16 s for /search, 64 KiB for /upload", minutes(at), "EndpointCostPerRequestRegression",
		epFiring(hidden, "/search", "cpu", "62.5m"), epFiring(search, "/search", "cpu", "62.5m"), epFiring(uploads, "/upload", "alloc_space", "65.54k"))
	g.alert("silent before onset", minutes(onset-1), "EndpointCostPerRequestRegression")

	return &suite{
		file:      "endpoints.yaml",
		comment:   "Endpoint rows of hotpath-profile-metrics over per-route request counters: cost per request of the route on the profiled pods that did not restart lately, the unlabelled share, the mix, the lagged noise model, and EndpointCostPerRequestRegression firing on a route whose cost per request doubles (also when a mix change hides it from the service's average, and for allocations), silent on a mix change alone, on a restart's warm-up, on a route with too few requests, on the other and unlabelled rows, and on routes that kept their cost.",
		ruleFiles: shippedRules,
		order:     append(append([]string{}, groupOrder...), "hotpath-endpoints", "hotpath-endpoints-noise", "hotpath-endpoint-alerts"),
		groups:    []*group{g},
	}
}

// normalised is a route name as the rule pack and the bridge write its
// endpoint: the method and the slashes at either end dropped, one `/` first.
func normalised(route string) string {
	for _, m := range []string{"GET ", "POST "} {
		if len(route) > len(m) && route[:len(m)] == m {
			route = route[len(m):]
		}
	}
	for len(route) > 0 && route[len(route)-1] == '/' {
		route = route[:len(route)-1]
	}
	for len(route) > 0 && route[0] == '/' {
		route = route[1:]
	}
	return "/" + route
}
