package main

// The playground's constraint: with only `for:` shortened (to 2m here, by
// overlays/short-for.jsonnet), every incident's alert fires within 10 minutes
// of its start. Each incident starts at 6h30m, after the 6h of history the
// self baseline needs.
func onsetSuite() *suite {
	const onset = 6*60 + 30
	const total = onset + 15
	svc := func(job string) service { return service{"eu1", "demo", job} }
	regressed, gzip, api, cache, busy, outlier := svc("regressed"), svc("gzip"), svc("api"), svc("cache"), svc("busy"), svc("outlier")
	throttled := container{"eu1", "demo", "ci-operator-1", "app"}

	g := &group{
		name:    "every incident's alert within 10 minutes of its start",
		comment: "Flat traffic, so the self baseline is the plain median (the cost model's line needs a day of traffic to fit).",
	}
	after := func(before, incident rates) func(int) rates { return switchAt(onset, before, incident) }
	g.addService(regressed, "each request costs twice the CPU", timeline{total: total, at: after(rates{8, 0.5, 1048576}, rates{8, 1, 1048576})})
	g.addService(gzip, "the gzip story: 10x the allocations", timeline{total: total, at: after(rates{8, 0.5, 1048576}, rates{8, 0.5, 10485760})})
	g.addService(api, "the println story: the println ships; api goes from its cache's CPU per request to 10x", timeline{total: total, at: after(rates{16, 0.03125, 0}, rates{16, 0.3125, 0})})
	g.addService(cache, "", timeline{total: total, at: func(int) rates { return rates{16, 0.03125, 0} }})
	edge(g, "", "api", "cache", total)
	g.addService(busy, "the epoll story: the busy loop under swinging traffic; first scraped an hour before (the fit needs two 30m windows, and no self baseline judges it)",
		timeline{from: onset - 60, total: total, at: func(t int) rates { return busyRates(t, onset) }})
	for _, i := range []string{"i1", "i2", "i3"} {
		tl := timeline{total: total, at: func(int) rates { return rates{16, 0.25, 0} }}
		if i == "i3" {
			tl.at = after(rates{16, 0.25, 0}, rates{16, 0.5, 0})
		}
		req, cpu, _ := tl.counters()
		g.add("one instance of three at twice the CPU", outlier.sel("http_requests_total", `instance="`+i+`"`), req.String())
		g.add("", outlier.sel("process_cpu_seconds_total", `instance="`+i+`"`), cpu.String())
	}
	cfs := func(before, incident float64) string {
		return (&seq{}).rate(onset, before).rate(total-onset, incident).String()
	}
	g.add("the cfs story: the container starts being throttled", throttled.sel("container_cpu_cfs_periods_total"), (&seq{}).rate(total, 10).String())
	g.add("", throttled.sel("container_cpu_cfs_throttled_periods_total"), cfs(0, 5))
	g.add("", throttled.sel("container_cpu_cfs_throttled_seconds_total"), cfs(0, 0.5))

	for _, name := range []string{"CPUPerRequestRegression", "AllocationsPerRequestRegression", "CPUPerRequestAboveUpstream", "CPUNotTrackingLoad", "CPUThrottlingSustained", "CPUPerRequestOutlier"} {
		g.alert("", minutes(onset), name)
	}
	at := minutes(onset + 10)
	g.alert("10 minutes in, each incident's alert fires (the println also against api's own history)", at, "CPUPerRequestRegression",
		regressionFiring(regressed, 2), regressionFiring(api, 10))
	g.alert("", at, "AllocationsPerRequestRegression", allocFiring(gzip, 10))
	g.alert("", at, "CPUPerRequestAboveUpstream", upstreamFiring(api, "cache", 10))
	g.alert("", at, "CPUNotTrackingLoad", notTrackingFiring(busy, busyShare(onset, onset+10)))
	g.alert("", at, "CPUThrottlingSustained", throttlingFiring(throttled, 0.5))
	g.alert("", at, "CPUPerRequestOutlier", outlierFiring(outlier, "i3", 2))
	return &suite{
		file:      "onset.yaml",
		comment:   "Time to fire with only for: shortened (overlays/short-for.jsonnet): the playground's demo test relies on it.",
		ruleFiles: overlayRules("short-for"),
		groups:    []*group{g},
	}
}
