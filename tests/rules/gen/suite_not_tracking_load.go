package main

import "fmt"

// CPUNotTrackingLoad (the epoll story, the epoll busy loop) and the recent fit.
// Traffic swings as a square wave, 4 and 48 req/s, 5 minutes each; the busy
// service uses 1/128 + req/s / 512 cores (0.016-0.1) until a loop adds 1 core.

const busyOnset = 60 // minutes

// square is the demo-like traffic: 4 req/s, then 48, 5 minutes each.
func square(t int) float64 {
	if (t/5)%2 == 0 {
		return 4
	}
	return 48
}

// busyRates is the busy service at minute t; the loop starts at `onset`.
func busyRates(t, onset int) rates {
	r := square(t)
	c := 1.0/128 + r/512
	if t >= onset {
		c += 1
	}
	return rates{r, c, 1048576}
}

// busyShare replays the fit: the share CPUNotTrackingLoad prints at minute at.
func busyShare(onset, at int) string {
	n := at + 1
	cpu, req := make([]float64, n), make([]float64, n)
	for t := 0; t < n; t++ {
		r := busyRates(t, onset)
		cpu[t], req[t] = r.cpu, r.req
	}
	f := &recentFit{window: 30, cpu: rate5m(cpu), req: rate5m(req)}
	return humanizePercentage(f.share(at))
}

func notTrackingLoadSuite() *suite {
	svc := func(job string) service { return service{"eu1", "stream", job} }
	busy, proportional, jvm := svc("busy"), svc("proportional"), svc("jvm")
	flatspin, small, trickle, restarted, fresh := svc("flatspin"), svc("small"), svc("trickle"), svc("restarted"), svc("fresh")
	const total = 100

	g := &group{
		name:    "a busy loop under swinging traffic, and services that must stay silent",
		comment: "Traffic: a square wave of 4 and 48 req/s, 5 minutes each (the playground's load swings like this).",
	}
	g.addService(busy, fmt.Sprintf("busy: 0.016-0.1 cores following its traffic, until a busy loop adds 1 core at %dm", busyOnset),
		timeline{total: total, at: func(t int) rates { return busyRates(t, busyOnset) }})
	g.addService(proportional, "proportional: 0.08-0.77 cores, almost all of it per request", timeline{total: total, at: func(t int) rates {
		r := square(t)
		return rates{r, 1.0/64 + r/64, 1048576}
	}})
	g.addService(jvm, "jvm: a real fixed cost (0.5 cores of GC and JIT) plus 1/128 s per request: 70% fixed, under the 80% threshold", timeline{total: total, at: func(t int) rates {
		r := square(t)
		return rates{r, 0.5 + r/128, 1048576}
	}})
	g.addService(flatspin, "flatspin: a busy loop under flat traffic (16 req/s): nothing to fit against", timeline{total: total, at: func(t int) rates {
		c := 0.0625
		if t >= busyOnset {
			c += 1
		}
		return rates{16, c, 1048576}
	}})
	g.addService(small, "small: flat 0.125 cores whatever the traffic, but too little CPU to matter", timeline{total: total, at: func(t int) rates {
		return rates{square(t), 0.125, 1048576}
	}})
	g.addService(trickle, "trickle: a busy loop at 0.25-0.75 req/s (below the 1 req/s floor)", timeline{total: total, at: func(t int) rates {
		r := 0.25
		if (t/5)%2 == 1 {
			r = 0.75
		}
		c := 0.0625
		if t >= busyOnset {
			c += 1
		}
		return rates{r, c, 1048576}
	}})
	g.addService(restarted, "restarted: proportional, restarting at 70m with 60 CPU seconds of start-up work", timeline{
		total: total, at: func(t int) rates {
			r := square(t)
			return rates{r, 1.0/64 + r/64, 1048576}
		}, restarts: map[int]restart{70: {gap: 1, startCPU: 60}},
	})

	g.addService(fresh, "fresh: first scraped at 70m, busy from the start: judged only once it has a 30m window of history", timeline{
		from: 70, total: total, at: func(t int) rates { return busyRates(t, 0) },
	})

	// ---- the recent fit, before the loop --------------------------------------
	at := "55m"
	g.expr("the products behind the fit, at 55m (4 req/s)", busy.sel("job:cpu_seconds_times_requests:rate5m"), at,
		sample{labelString("job:cpu_seconds_times_requests:rate5m", busy.labels()), (1.0/128 + 4.0/512) * 4})
	g.expr("", busy.sel("job:requests_squared:rate5m"), at, sample{labelString("job:requests_squared:rate5m", busy.labels()), 16})
	within := func(comment, series string, lo, hi float64) {
		g.expr(comment, fmt.Sprintf("count by (__name__, cluster, namespace, job) (%s >= %s <= %s)", busy.sel(series), num(lo), num(hi)), at,
			sample{labelString(series, busy.labels()), 1})
	}
	within("the traffic swung: a coefficient of variation of about 0.5 (rate5m smooths the square wave)", "job:requests:recent_cv", 0.4, 0.7)
	within("the slope is the marginal cost, 1/512 s per request", "job:cpu_seconds_per_request:recent_slope", 0.00195312, 0.00195313)
	within("", "job:cpu_seconds_per_request:recent_marginal", 0.00195312, 0.00195313)
	within("the fixed part is 1/128 cores", "job:cpu_seconds:recent_fixed", 0.0078124, 0.0078126)
	within("a small share of the CPU", "job:cpu_seconds:recent_fixed_share", 0.1, 0.2)
	g.expr("no fit without swinging traffic", flatspin.sel("job:cpu_seconds_per_request:recent_slope")+" or "+flatspin.sel("job:cpu_seconds:recent_fixed_share"), at)

	// ---- the alert --------------------------------------------------------------
	g.alert("pending, not firing, 10 minutes after the onset (for: 15m)", minutes(busyOnset+10), "CPUNotTrackingLoad")
	fireAt := busyOnset + 25
	g.alert(`fires for the busy loop; silent for proportional (CPU follows load), jvm (a real fixed cost under the threshold),
flatspin (flat traffic), small (too little CPU), trickle (too little traffic), restarted (a start-up spike)
and fresh (15 minutes of history)`,
		minutes(fireAt), "CPUNotTrackingLoad", notTrackingFiring(busy, busyShare(busyOnset, fireAt)))
	g.expr("no fit for fresh before it has a window of history", fresh.sel("job:cpu_seconds_per_request:recent_slope"), "99m")
	g.alert("still firing once the loop fills the whole window; fresh, busy since its start 29 minutes ago, not judged yet", minutes(total-1), "CPUNotTrackingLoad",
		notTrackingFiring(busy, busyShare(busyOnset, total-1)))

	return &suite{
		file:      "not-tracking-load.yaml",
		comment:   "The recent least-squares fit (hotpath-load-fit) and CPUNotTrackingLoad.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
