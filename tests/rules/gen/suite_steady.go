package main

import "fmt"

// No flapping: every incident runs steadily on traffic that swings 10x with
// hours-long ramps (peaks and troughs 3h apart, no minute-scale bursts), and
// a walk over every minute from the incident's start to its fix asserts that
// its alert fired once and never resolved in between, then resolved within
// an hour of the fix. With the shipped rules (for: 15m).

// slow is the traffic: a triangle from 2 to 20 req/s and back every 6h, in
// 10-minute stairs of 1 req/s.
func slow(t int) float64 {
	k := (t / 10) % 36 // 36 stairs of 10 minutes per 6h
	if k > 18 {
		k = 36 - k
	}
	return float64(2 + k)
}

// during is `incident` in minutes [from, to) and `normal` otherwise.
func during(from, to int, normal, incident func(int) rates) func(int) rates {
	return func(t int) rates {
		if t >= from && t < to {
			return incident(t)
		}
		return normal(t)
	}
}

// walk asserts, at minute `to`, that alert fired exactly once for sel over
// [from, to] and never resolved: the firing state, read at every minute (a
// 1m subquery of the evaluation at that minute), changed exactly once, and is
// firing at `to`.
func walk(g *group, comment, alert, sel string, from, to int) {
	firing := fmt.Sprintf(`count(count_over_time(ALERTS{alertname=%q, alertstate="firing", %s}[1m]))`, alert, sel)
	g.expr(comment, fmt.Sprintf("changes((%s or vector(0))[%s:1m]) + %s", firing, minutes(to-from), firing), minutes(to),
		sample{"{}", 2})
}

// resolved asserts the alert is not firing for sel at minute at.
func resolved(g *group, comment, alert, sel string, at int) {
	g.expr(comment, fmt.Sprintf(`ALERTS{alertname=%q, alertstate="firing", %s}`, alert, sel), minutes(at))
}

func steadySuite() *suite {
	svc := func(job string) service { return service{"eu1", "live", job} }
	busy, rising, healthy, bigfixed, doubled := svc("busy"), svc("rising"), svc("healthy"), svc("bigfixed"), svc("doubled")
	regressed, gzip, api, cache, outlier := svc("regressed"), svc("gzip"), svc("api"), svc("cache"), svc("outlier")
	throttled := container{"eu1", "live", "worker-1", "app"}

	const (
		loopOn, loopOff   = 4 * 60, 17 * 60 // the busy loop: 13 hours
		onset, fix        = 6*60 + 30, 9*60 + 30
		total             = 18 * 60
		detectLoop        = 12 * 60 // fires within 12h of its onset
		resolveWithin     = 60
		marginal, fixed   = 1.0 / 64, 0.0625
		loop              = 0.875
		fixedShareBenign  = 0.375 // 0.375 + req/s / 64: 69% fixed at the mean traffic, under 80%
		incidentAfterHist = "the self baseline has 6h30m of history (baselineMinHistory: 6h)"
	)
	cost := func(t int) rates { r := slow(t); return rates{r, fixed + marginal*r, 1048576 + 65536*r} }

	g := &group{
		name: "steady incidents on traffic with hours-long swings: no alert flaps",
		comment: `Traffic: 2 -> 20 -> 2 req/s every 6h in 10-minute stairs. CPU = 1/16 + req/s / 64 cores.
Walks read the firing state at every minute from the incident's start to its fix.`,
	}
	g.addService(busy, "busy (the epoll story): a busy loop adds 0.875 cores from 4h to 17h", timeline{total: total, at: during(loopOn, loopOff, cost, func(t int) rates {
		r := cost(t)
		r.cpu += loop
		return r
	})})
	g.addService(rising, "rising: the same loop from 6h30m to 17h, starting on rising traffic (which the long fit reads as slope for a while)",
		timeline{total: total, at: during(onset, loopOff, cost, func(t int) rates {
			r := cost(t)
			r.cpu += loop
			return r
		})})
	g.addService(healthy, "healthy: CPU follows the slow swings", timeline{total: total, at: cost})
	g.addService(bigfixed, "bigfixed: a real fixed cost, 0.375 cores + req/s / 64 (69% fixed at the mean traffic)", timeline{total: total, at: func(t int) rates {
		r := slow(t)
		return rates{r, fixedShareBenign + marginal*r, 1048576}
	}})
	g.addService(doubled, "doubled: twice the traffic from 8h, CPU following", timeline{total: total, at: func(t int) rates {
		r := slow(t)
		if t >= 8*60 {
			r *= 2
		}
		return rates{r, 0.25 + r/32, 1048576}
	}})
	g.addService(regressed, "regressed : each request costs 3x the CPU from 6h30m to 9h30m", timeline{total: total, at: during(onset, fix, cost, func(t int) rates {
		r := cost(t)
		r.cpu = fixed + 3*marginal*r.req
		return r
	})})
	g.addService(gzip, "gzip (the gzip story): 10x the allocations per request from 6h30m to 9h30m", timeline{total: total, at: during(onset, fix, cost, func(t int) rates {
		r := cost(t)
		r.alloc = 1048576 + 10*65536*r.req
		return r
	})})
	g.addService(cache, "cache: cheap per request", timeline{total: total, at: func(t int) rates { return rates{slow(t), slow(t) / 512, 0} }})
	g.addService(api, "api (the println story): 10x its cache's CPU per request from 6h30m to 9h30m, as cheap before", timeline{total: total, at: during(onset, fix,
		func(t int) rates { return rates{slow(t), slow(t) / 512, 0} },
		func(t int) rates { return rates{slow(t), 10 * slow(t) / 512, 0} })})
	edge(g, "", "api", "cache", total)
	for _, i := range []string{"i1", "i2", "i3"} {
		tl := timeline{total: total, at: cost}
		if i == "i3" {
			tl.at = during(onset, fix, cost, func(t int) rates { r := cost(t); r.cpu *= 2; return r })
		}
		req, cpu, _ := tl.counters()
		g.add("outlier: one instance of three at twice the CPU from 6h30m to 9h30m", outlier.sel("http_requests_total", `instance="`+i+`"`), req.String())
		g.add("", outlier.sel("process_cpu_seconds_total", `instance="`+i+`"`), cpu.String())
	}
	g.add("worker (the cfs story): throttled from 6h30m to 9h30m, 0.25-1.25 s/s following the traffic",
		throttled.sel("container_cpu_cfs_periods_total"), (&seq{}).rate(total, 10).String())
	thr, secs := &seq{}, &seq{}
	thr.rate(onset, 0)
	secs.rate(onset, 0)
	for t := onset; t < fix; t += 10 {
		thr.rate(10, 5)
		secs.rate(10, 0.25+(slow(t)-2)/18)
	}
	thr.rate(total-fix, 0)
	secs.rate(total-fix, 0)
	g.add("", throttled.sel("container_cpu_cfs_throttled_periods_total"), thr.String())
	g.add("", throttled.sel("container_cpu_cfs_throttled_seconds_total"), secs.String())

	// The slow path's series, where the fits are exact: healthy's marginal cost
	// is 1/64 s per request; busy's fixed part during the loop is 1/16 + 0.875.
	within := func(comment string, s service, series, at string, lo, hi float64) {
		g.expr(comment, fmt.Sprintf("count by (__name__, cluster, namespace, job) (%s >= %s <= %s)", s.sel(series), num(lo), num(hi)), at,
			sample{labelString(series, s.labels()), 1})
	}
	within("the slope of a 3h window in which traffic swung: 1/64", healthy, "job:cpu_seconds_per_request:long_slope", "6h", 0.0155, 0.0158)
	within("the median of the day's slopes", healthy, "job:cpu_seconds_per_request:long_marginal", "6h", 0.0155, 0.0158)
	within("the mean req/s so far (the triangle's mean is 11)", healthy, "job:requests:baseline_mean", "12h", 10, 12)
	within("busy's fixed part during the loop: 1/16 + 0.875 cores, whatever the traffic", busy, "job:cpu_seconds:long_fixed", "10h", 0.93, 0.945)
	within("its share of busy's CPU at the mean traffic", busy, "job:cpu_seconds:long_fixed_share", "10h", 0.8, 1)

	job := func(s service) string { return fmt.Sprintf(`job=%q`, s.job) }
	walk(g, "busy: fires within 12h of the loop's onset, then never resolves while the loop burns",
		"CPUNotTrackingLoad", job(busy), loopOn, loopOn+detectLoop)
	walk(g, "", "CPUNotTrackingLoad", job(busy), loopOn, loopOff)
	resolved(g, "and resolves within an hour of the fix", "CPUNotTrackingLoad", job(busy), loopOff+resolveWithin)
	walk(g, "rising: the same, within 12h of an onset on rising traffic", "CPUNotTrackingLoad", job(rising), onset, loopOff)
	resolved(g, "", "CPUNotTrackingLoad", job(rising), loopOff+resolveWithin)
	g.expr("the benign services never fire CPUNotTrackingLoad: CPU following the swings, a real fixed cost, doubled traffic",
		`count_over_time(ALERTS{alertname="CPUNotTrackingLoad", alertstate="firing", job=~"healthy|bigfixed|doubled"}[18h])`, minutes(total-1))

	for _, c := range []struct {
		alert, sel, comment string
	}{
		{"CPUPerRequestRegression", job(regressed), incidentAfterHist},
		{"AllocationsPerRequestRegression", job(gzip), ""},
		{"CPUPerRequestAboveUpstream", job(api) + `, upstream="cache"`, ""},
		{"CPUPerRequestOutlier", job(outlier) + `, instance="i3"`, ""},
		{"CPUThrottlingSustained", `pod="worker-1"`, ""},
	} {
		walk(g, c.alert+": fires once and never resolves before the fix; "+c.comment, c.alert, c.sel, onset, fix)
		resolved(g, "", c.alert, c.sel, fix+resolveWithin)
	}

	return &suite{
		file:      "steady.yaml",
		comment:   "No flapping: every incident's alert, walked minute by minute from the incident's start to its fix (shipped rules).",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
