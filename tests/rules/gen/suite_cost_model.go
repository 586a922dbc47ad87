package main

import (
	"fmt"

	"github.com/hotpath/hotpath/promkit/synth"
)

// The self baseline: a day of diurnal traffic (10x lower at night) through
// services with a real fixed cost, CPU = 0.25 + req/s / 32 cores and
// allocations = 1 MiB/s + 64 KiB per request; then a second morning with the
// incidents. The clock starts at 10:00, so the 24h mark is 10:00 again and the
// incidents hit the daily peak with a full day of history behind them.

// The typical cost line and the diurnal day of every synthetic service
// (promkit/synth).
var (
	fixedCPU      = synth.Typical.FixedCPU
	marginalCPU   = synth.Typical.CPUPerRequest
	fixedAlloc    = synth.Typical.FixedAlloc
	marginalAlloc = synth.Typical.AllocPerRequest
)

const day = 24 * 60

func hourOfDay(t int) int { return (10 + t/60) % 24 }

// healthy is the cost model at the traffic of minute t, times `traffic`.
func healthy(t int, traffic float64) rates {
	r := synth.Diurnal[hourOfDay(t)] * traffic
	return rates{r, fixedCPU + marginalCPU*r, fixedAlloc + marginalAlloc*r}
}

// costlier is the healthy service whose marginal CPU and allocation costs are
// multiplied by cpu and alloc during minutes [from, to).
func costlier(cpu, alloc float64, from, to int) func(int) rates {
	return func(t int) rates {
		r := healthy(t, 1)
		if t >= from && t < to {
			r.cpu = fixedCPU + cpu*marginalCPU*r.req
			r.alloc = fixedAlloc + alloc*marginalAlloc*r.req
		}
		return r
	}
}

func costModelSuite() *suite {
	steady, regressed, gzip, follows := inShop("steady"), inShop("regressed"), inShop("gzip"), inShop("follows")
	restarted, blip, young, flat, quiet, idle := inShop("restarted"), inShop("blip"), inShop("young"), inShop("flat"), inShop("quiet"), inShop("idle")
	tiny := inShop("tiny")
	const total = day + 7*60 + 30 // to 17:30 on the second day
	const onset = day             // 10:00 on the second day
	night := 18 * 60              // 04:00, the low: 2 req/s

	g := &group{
		name: "a day of diurnal traffic with a fixed cost, then a second morning's incidents",
		comment: `CPU = 0.25 + req/s / 32 cores; allocations = 1 MiB/s + 64 KiB per request.
Clock: t=0 is 10:00; 18h is 04:00 (2 req/s, the nightly low); 24h is 10:00 again (20 req/s).`,
	}
	plain := func(t int) rates { return healthy(t, 1) }
	g.addService(steady, "steady: the healthy diurnal service", timeline{total: total, at: plain})
	g.addService(regressed, "regressed: from 24h each request costs twice the CPU (1/16 s)", timeline{total: total, at: costlier(2, 1, onset, total)})
	g.addService(gzip, "gzip (the gzip story): from 24h each request allocates 10x (640 KiB)", timeline{total: total, at: costlier(1, 10, onset, total)})
	g.addService(follows, "follows: from 24h twice the traffic (beyond anything in its history), CPU following its cost model", timeline{total: total, at: func(t int) rates {
		if t >= onset {
			return healthy(t, 2)
		}
		return healthy(t, 1)
	}})
	g.addService(restarted, "restarted: the process restarts at 04:00, missing a scrape, with 60 CPU seconds and 512 MiB of start-up work", timeline{
		total: total, at: plain, restarts: map[int]restart{night: {gap: 1, startCPU: 60, bytes: 536870912}},
	})
	g.addService(blip, "blip: twice the CPU and 10x the allocations per request for 5 minutes at 12:00 on the second day",
		timeline{total: total, at: costlier(2, 10, onset+2*60, onset+2*60+5)})
	g.addService(young, "young: first scraped at 09:00 on the second day (1h of history), 3x the CPU per request from 24h",
		timeline{from: onset - 60, total: total, at: costlier(3, 1, onset, total)})
	g.addService(flat, "flat: 8 req/s day and night, 0.5 cores; twice the CPU from 24h",
		timeline{total: total, at: switchAt(onset, rates{8, 0.5, 1048576}, rates{8, 1, 1048576})})
	g.addService(tiny, "tiny: flat's traffic at 0.004 cores (a sidecar's); twice the CPU from 24h: 0.004 cores more, under the 0.01-core floor",
		timeline{total: total, at: switchAt(onset, rates{8, 0.004, 1048576}, rates{8, 0.008, 1048576})})
	g.addService(quiet, "quiet: 0.5 req/s (below the 1 req/s floor); twice the CPU and allocations from 24h",
		timeline{total: total, at: switchAt(onset, rates{0.5, 0.125, 1048576}, rates{0.5, 0.25, 2097152})})
	g.addService(idle, "idle: no requests at all; twice the CPU from 24h",
		timeline{total: total, at: switchAt(onset, rates{0, 0.5, 1048576}, rates{0, 1, 1048576})})

	// ---- the nightly low: the trap and the model ------------------------------
	at := minutes(night - 30)
	g.expr("the trap: at 03:30 (2 req/s) a plain 'CPU/request vs its median' alert would fire for the healthy service",
		fmt.Sprintf(`count(%s / on (cluster, namespace, job) quantile_over_time(0.5, %s[1d]) >= 1.5)`, steady.sel("job:cpu_seconds_per_request:ratio_rate5m"), steady.sel("job:cpu_seconds_per_request:ratio_rate5m")), at,
		sample{"{}", 1})
	g.expr("while its cost model predicts the night exactly: 0.25 + 2/32 cores",
		steady.sel("job:cpu_seconds:baseline_predicted"), at,
		sample{labelString("job:cpu_seconds:baseline_predicted", steady.labels()), fixedCPU + 2*marginalCPU})
	g.alert("silent at the nightly low: CPU follows the traffic down, the fixed cost stays", at, "CPUPerRequestRegression")
	g.alert("", at, "AllocationsPerRequestRegression")
	g.alert("silent through a restart at 04:00 (a counter reset and a 4-minute start-up spike in CPU and allocations)",
		minutes(night+10), "CPUPerRequestRegression")
	g.alert("", minutes(night+10), "AllocationsPerRequestRegression")

	// ---- the fitted model, exact: every point lies on the cost line -----------
	at = minutes(onset)
	for _, s := range []service{steady, restarted} {
		g.expr("the fit finds the fixed cost: 0.25 cores (through a counter reset, too)", s.sel("job:cpu_seconds:baseline_fixed"), at,
			sample{labelString("job:cpu_seconds:baseline_fixed", s.labels()), fixedCPU})
		g.expr("and the marginal cost: 1/32 CPU seconds per request", s.sel("job:cpu_seconds_per_request:baseline_marginal"), at,
			sample{labelString("job:cpu_seconds_per_request:baseline_marginal", s.labels()), marginalCPU})
		g.expr("", s.sel("job:alloc_bytes:baseline_fixed"), at,
			sample{labelString("job:alloc_bytes:baseline_fixed", s.labels()), fixedAlloc})
		g.expr("", s.sel("job:alloc_bytes_per_request:baseline_marginal"), at,
			sample{labelString("job:alloc_bytes_per_request:baseline_marginal", s.labels()), marginalAlloc})
	}
	onLine := func(series, cost string, fixed, marginal float64) string {
		return fmt.Sprintf(`%s - on (cluster, namespace, job, half) (%s * %s + %s)`,
			steady.sel(series), num(marginal), steady.sel("job:requests:baseline_half_quantile"), num(fixed))
	}
	h := func(half string) map[string]string { return with(steady.labels(), "half", half) }
	g.expr("the two points of the line (a low quantile of each traffic half) lie on the cost line: CPU",
		onLine("job:cpu_seconds:baseline_half_quantile", "cpu", fixedCPU, marginalCPU), at,
		sample{labelString("", h("lower")), 0}, sample{labelString("", h("upper")), 0})
	g.expr("and allocations", onLine("job:alloc_bytes:baseline_half_quantile", "alloc", fixedAlloc, marginalAlloc), at,
		sample{labelString("", h("lower")), 0}, sample{labelString("", h("upper")), 0})
	// Values that depend on every sample of the day: their exact labels here,
	// their meaning in the tests above and below.
	labelsOnly := func(series string, ls ...map[string]string) {
		var want []sample
		for _, l := range ls {
			want = append(want, sample{labelString(series, l), 1})
		}
		g.expr("", fmt.Sprintf("count by (__name__, %s) (%s)", joinKeys(ls[0]), steady.sel(series)), at, want...)
	}
	labelsOnly("job:requests:baseline_half_quantile", h("lower"), h("upper"))
	labelsOnly("job:cpu_seconds:baseline_half_quantile", h("lower"), h("upper"))
	labelsOnly("job:alloc_bytes:baseline_half_quantile", h("lower"), h("upper"))
	g.expr("the median req/s of the day: half the day is at or below the 10 req/s of 20:00",
		steady.sel("job:requests:baseline_median"), at,
		sample{labelString("job:requests:baseline_median", steady.labels()), 10})
	at = minutes(onset + 10)
	g.expr("at 10:10 (20 req/s) the current point is recorded into the upper half, with its value",
		steady.sel("job:requests:rate5m_by_half"), at, sample{labelString("job:requests:rate5m_by_half", h("upper")), 20})
	g.expr("", steady.sel("job:cpu_seconds:rate5m_by_half"), at, sample{labelString("job:cpu_seconds:rate5m_by_half", h("upper")), fixedCPU + 20*marginalCPU})
	g.expr("", steady.sel("job:alloc_bytes:rate5m_by_half"), at, sample{labelString("job:alloc_bytes:rate5m_by_half", h("upper")), fixedAlloc + 20*marginalAlloc})
	g.expr("the baseline group's own copy of the request rate, for the day-long median", steady.sel("job:requests:rate5m_sampled"), at,
		sample{labelString("job:requests:rate5m_sampled", steady.labels()), 20})
	g.expr("at 04:00 (2 req/s) into the lower half", steady.sel("job:requests:rate5m_by_half"), minutes(night),
		sample{labelString("job:requests:rate5m_by_half", h("lower")), 2})
	at = minutes(onset)
	g.expr("a day of history, counted in steps of 30m", steady.sel("job:requests:baseline_history_seconds"), at,
		sample{labelString("job:requests:baseline_history_seconds", steady.labels()), 86400})
	g.expr("young has 1h20m: no model, no fallback, no prediction",
		fmt.Sprintf(`%s or %s or %s or %s`, young.sel("job:cpu_seconds_per_request:baseline_marginal"), young.sel("job:cpu_seconds_per_request:baseline_ratio"),
			young.sel("job:cpu_seconds:baseline_predicted"), young.sel("job:alloc_bytes:baseline_predicted")), minutes(onset+20))
	g.expr("", young.sel("job:requests:baseline_history_seconds"), minutes(onset),
		sample{labelString("job:requests:baseline_history_seconds", young.labels()), 2 * 1800})
	g.expr("flat traffic: no model (the halves barely differ) ...",
		flat.sel("job:cpu_seconds_per_request:baseline_marginal")+" or "+flat.sel("job:cpu_seconds:baseline_fixed"), at)
	g.expr("... so the plain CPU per request of its points is the fallback", flat.sel("job:cpu_seconds_per_request:baseline_ratio"), at,
		sample{labelString("job:cpu_seconds_per_request:baseline_ratio", flat.labels()), 0.0625})
	g.expr("", flat.sel("job:alloc_bytes_per_request:baseline_ratio"), at,
		sample{labelString("job:alloc_bytes_per_request:baseline_ratio", flat.labels()), 131072})
	labelsOnly("job:cpu_seconds_per_request:baseline_ratio", steady.labels())
	labelsOnly("job:alloc_bytes_per_request:baseline_ratio", steady.labels())

	// ---- the second morning ---------------------------------------------------
	pred := func(s service, series string, v float64) sample { return sample{labelString(series, s.labels()), v} }
	at = minutes(onset + 20)
	g.expr("predictions at 10:20: the model at 20 req/s; follows' 40 req/s extrapolated on the same line; flat's fallback; none for idle (no requests, no ratio)",
		`job:cpu_seconds:baseline_predicted{job=~"steady|follows|flat|quiet|idle"}`, at,
		pred(steady, "job:cpu_seconds:baseline_predicted", fixedCPU+20*marginalCPU),
		pred(follows, "job:cpu_seconds:baseline_predicted", fixedCPU+40*marginalCPU),
		pred(flat, "job:cpu_seconds:baseline_predicted", 0.5),
		pred(quiet, "job:cpu_seconds:baseline_predicted", 0.125))
	g.expr("per request: the baseline band of the dashboards", `job:cpu_seconds_per_request:baseline_predicted{job=~"steady|flat"}`, at,
		pred(steady, "job:cpu_seconds_per_request:baseline_predicted", (fixedCPU+20*marginalCPU)/20),
		pred(flat, "job:cpu_seconds_per_request:baseline_predicted", 0.0625))
	g.expr("", `job:alloc_bytes:baseline_predicted{job=~"steady|gzip"}`, at,
		pred(steady, "job:alloc_bytes:baseline_predicted", fixedAlloc+20*marginalAlloc),
		pred(gzip, "job:alloc_bytes:baseline_predicted", fixedAlloc+20*marginalAlloc))
	g.expr("", `job:alloc_bytes_per_request:baseline_predicted{job="steady"}`, at,
		pred(steady, "job:alloc_bytes_per_request:baseline_predicted", (fixedAlloc+20*marginalAlloc)/20))

	regressedValue := (fixedCPU + 20*2*marginalCPU) / (fixedCPU + 20*marginalCPU) // 1.71
	g.alert("not yet at 10:14: the regression's condition holds from about 10:03, for: 15m", minutes(onset+14), "CPUPerRequestRegression")
	g.alert(`fires at 10:20 for the regression and for flat (through its fallback);
silent for follows (traffic it follows), young (too little history), quiet (below 1 req/s), idle (no traffic)
and tiny (2x its prediction, but 0.004 cores more: under cpuRegressionMinCores)`,
		minutes(onset+20), "CPUPerRequestRegression", regressionFiring(regressed, regressedValue), regressionFiring(flat, 2))
	g.alert("gzip's allocations: 6x the prediction", minutes(onset+20), "AllocationsPerRequestRegression",
		allocFiring(gzip, (fixedAlloc+200*marginalAlloc)/(fixedAlloc+20*marginalAlloc)))
	g.alert("the 5-minute blip at 12:00 never lasts 15m; the incidents, 2h in, are still judged against a clean model",
		minutes(onset+2*60+12), "CPUPerRequestRegression", regressionFiring(regressed, regressedValue), regressionFiring(flat, 2))
	g.alert("", minutes(onset+2*60+12), "AllocationsPerRequestRegression", allocFiring(gzip, 6))
	g.alert("4h into the incident the baseline has not absorbed it (it covers the top of the upper half only)",
		minutes(onset+4*60+25), "CPUPerRequestRegression", regressionFiring(regressed, regressedValue), regressionFiring(flat, 2))
	g.alert("", minutes(onset+4*60+25), "AllocationsPerRequestRegression", allocFiring(gzip, 6))
	g.alert(`7h in, the incident covers most of the daily peak, more than half the upper traffic half: a median would now
be drawn into it (baselineHalfQuantile: 0.5 fails here); the low quantile still sees the healthy points`,
		minutes(onset+7*60+25), "CPUPerRequestRegression", regressionFiring(regressed, regressedValue), regressionFiring(flat, 2))
	g.alert("", minutes(onset+7*60+25), "AllocationsPerRequestRegression", allocFiring(gzip, 6))
	pricedChanges(g, onset, regressed, gzip)

	return &suite{
		file:      "cost-model.yaml",
		comment:   "The cost-model baseline (hotpath-baseline, hotpath-load-fit) and the alerts judged against it: CPUPerRequestRegression, AllocationsPerRequestRegression.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}

func joinKeys(m map[string]string) string {
	s := ""
	for i, k := range sortedKeys(m) {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}
