package main

import "fmt"

// CPU per request relative to upstreams (the println story: the API spent 10x the CPU
// per request of the cache it streams from) and CPUPerRequestAboveUpstream.
func upstreamSuite() *suite {
	return &suite{
		file:      "upstream.yaml",
		comment:   "Upstream edges, ratio_to_upstream and its baseline (hotpath-upstream, hotpath-baseline), CPUPerRequestAboveUpstream. Rules: the shipped config plus a static edge batch -> cache (overlays/upstream.jsonnet).",
		ruleFiles: overlayRules("upstream"),
		groups:    []*group{upstreamEdgesGroup(), upstreamHistoryGroup()},
	}
}

// edge is a service-graph counter from Tempo's metrics generator: Tempo's own
// scrape labels (job, namespace) must not leak into the edges.
func edge(g *group, comment, client, server string, minutes int) {
	g.add(comment, fmt.Sprintf(`traces_service_graph_request_total{job="tempo", namespace="tracing", client=%q, server=%q, connection_type="virtual_node"}`, client, server),
		(&seq{}).rate(minutes, 1).String())
}

// steadyService exports requests and CPU at constant rates.
func steadyService(g *group, s service, comment string, req, cpu float64, total int) {
	g.addService(s, comment, timeline{total: total, at: func(int) rates { return rates{req, cpu, 0} }})
}

func upstreamEdgesGroup() *group {
	const total = 45
	api, cache, report, pdf := inShop("api"), inShop("cache"), inShop("report"), inShop("pdf")
	edgeSvc, origin, batch := inShop("edge"), inShop("origin"), inShop("batch")
	facebox := service{"eu1", "ml", "facebox"}
	blogCache, blogAPI := service{"eu1", "blog", "cache"}, service{"eu1", "blog", "blog-api"}
	stagingAPI := service{"eu1", "staging", "api"}

	g := &group{
		name:    "edges: the println story, a missing upstream, a name in two namespaces, low traffic, a blip",
		comment: "CPU per request = CPU / req/s; the ratios are the client's over the upstream's.",
	}
	steadyService(g, api, "shop/api: 1/51.2 s per request (the println)", 16, 0.3125, total)
	steadyService(g, cache, "shop/cache: 1/512 s per request: api is at 10x", 16, 0.03125, total)
	steadyService(g, facebox, "ml/facebox: 1/64 s per request, in another namespace, its name unique in the cluster", 4, 0.0625, total)
	steadyService(g, blogCache, "blog/cache: the name cache in a second namespace", 8, 0.25, total)
	steadyService(g, blogAPI, "blog/blog-api: 2x blog's cache", 8, 0.5, total)
	steadyService(g, stagingAPI, "staging/api: the name api in a second namespace; no cache in staging, and two elsewhere", 2, 0.125, total)
	steadyService(g, report, "shop/report calls pdf, which serves 0.5 req/s (below the floor)", 16, 1, total)
	steadyService(g, pdf, "", 0.5, 0.25, total)
	g.addService(edgeSvc, "shop/edge: 2x origin, but 8x for 5 minutes (20m-25m)", timeline{total: total, at: func(t int) rates {
		if t >= 20 && t < 25 {
			return rates{16, 0.25, 0}
		}
		return rates{16, 0.0625, 0}
	}})
	steadyService(g, origin, "", 16, 0.03125, total)
	steadyService(g, batch, "shop/batch: calls cache through the static map only; 4x", 4, 0.03125, total)
	edge(g, "the service graph: api calls cache, facebox and postgres (a database: no CPU series)", "api", "cache", total)
	edge(g, "", "api", "facebox", total)
	edge(g, "", "api", "postgres", total)
	edge(g, "", "blog-api", "cache", total)
	edge(g, "", "report", "pdf", total)
	edge(g, "", "edge", "origin", total)

	e := func(client, upstream string) sample {
		return sample{labelString("job_upstream:edges:group", map[string]string{"job": client, "upstream": upstream}), 1}
	}
	at := "30m"
	g.expr("edges carry only the two names; the static map adds batch -> cache", "job_upstream:edges:group", at,
		e("api", "cache"), e("api", "facebox"), e("api", "postgres"), e("blog-api", "cache"), e("report", "pdf"), e("edge", "origin"), e("batch", "cache"))
	c := func(s service, upstream string, v float64) sample {
		return sample{labelString("job_upstream:cpu_seconds_per_request:ratio_rate5m", with(s.labels(), "upstream", upstream)), v}
	}
	g.expr("every namespace of a client gets every upstream of its name (no many-to-many error)",
		"job_upstream:cpu_seconds_per_request:ratio_rate5m", at,
		c(api, "cache", 0.3125/16), c(api, "facebox", 0.3125/16), c(api, "postgres", 0.3125/16),
		c(stagingAPI, "cache", 0.0625), c(stagingAPI, "facebox", 0.0625), c(stagingAPI, "postgres", 0.0625),
		c(blogAPI, "cache", 0.0625), c(report, "pdf", 0.0625), c(edgeSvc, "origin", 0.0625/16), c(batch, "cache", 0.0078125))
	r := func(s service, upstream string, v float64) sample {
		return sample{labelString("job:cpu_seconds_per_request:ratio_to_upstream", with(s.labels(), "upstream", upstream)), v}
	}
	g.expr(`the upstream is looked up in the client's namespace first, else in the cluster where its name is unique;
no ratio to postgres (no CPU), from staging/api to cache (two caches elsewhere), or to pdf (0.5 req/s)`,
		"job:cpu_seconds_per_request:ratio_to_upstream", at,
		r(api, "cache", 10), r(api, "facebox", 1.25), r(stagingAPI, "facebox", 4), r(blogAPI, "cache", 2), r(edgeSvc, "origin", 2), r(batch, "cache", 4))

	g.alert("pending at 15m (for: 15m)", "15m", "CPUPerRequestAboveUpstream")
	g.alert("the println: api spends 10x the CPU per request of its cache (>= 5x, no history needed); edge's 5-minute 8x blip stays silent",
		"40m", "CPUPerRequestAboveUpstream", upstreamFiring(api, "cache", 10))
	return g
}

func upstreamHistoryGroup() *group {
	const total = 7*60 + 40
	const jump = 7 * 60
	gateway, youngGW, auth, proxy, backend := inShop("gateway"), inShop("young-gw"), inShop("auth"), inShop("proxy"), inShop("backend")

	g := &group{
		name:    "a relative jump after 7h of history",
		comment: "gateway and young-gw run at 2x auth's CPU per request, then at 4x from 7h (below the 5x absolute threshold).",
	}
	jumpAt := func(before, after rates) func(int) rates { return switchAt(jump, before, after) }
	g.addService(gateway, "gateway: 7h of history at 2x, then 4x", timeline{total: total, at: jumpAt(rates{16, 0.0625, 0}, rates{16, 0.125, 0})})
	g.addService(youngGW, "young-gw: the same jump with 2h of history", timeline{from: jump - 2*60, total: total, at: jumpAt(rates{16, 0.0625, 0}, rates{16, 0.125, 0})})
	steadyService(g, auth, "auth: 1/512 s per request", 16, 0.03125, total)
	g.addService(proxy, "proxy and backend: twice the traffic from 7h, each request costing what it did: the ratio stays 2", timeline{total: total, at: jumpAt(rates{16, 0.0625, 0}, rates{32, 0.125, 0})})
	g.addService(backend, "", timeline{total: total, at: jumpAt(rates{16, 0.03125, 0}, rates{32, 0.0625, 0})})
	edge(g, "", "gateway", "auth", total)
	edge(g, "", "young-gw", "auth", total)
	edge(g, "", "proxy", "backend", total)

	m := func(s service, upstream string, v float64) sample {
		return sample{labelString("job:cpu_seconds_per_request:ratio_to_upstream_baseline_median", with(s.labels(), "upstream", upstream)), v}
	}
	g.expr("the median over the window, once an edge has 6h of history (young-gw has none yet)",
		"job:cpu_seconds_per_request:ratio_to_upstream_baseline_median", minutes(jump),
		m(gateway, "auth", 2), m(proxy, "backend", 2))
	g.expr("the baseline group's own copy of the ratio, for the day-long median",
		`job:cpu_seconds_per_request:ratio_to_upstream_sampled{job="gateway"}`, minutes(jump),
		sample{labelString("job:cpu_seconds_per_request:ratio_to_upstream_sampled", with(gateway.labels(), "upstream", "auth")), 2})
	g.alert("gateway at 2x its own median; young-gw's jump is the same but it has no baseline yet; proxy's traffic doubled with its backend's",
		minutes(jump+25), "CPUPerRequestAboveUpstream", upstreamFiring(gateway, "auth", 4))
	pricedUpstreamChange(g, minutes(jump+25), gateway, proxy)
	return g
}

func overlayRules(name string) []string {
	dir := "../../.cache/rules-test/" + name + "/rules/"
	return []string{dir + "hotpath-rules.yaml", dir + "hotpath-alerts.yaml"}
}
