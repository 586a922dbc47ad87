package main

import (
	"fmt"
	"math"
)

// The noise model: small lasting regressions caught against each service's
// own noise, and everything benign silent. Two days of diurnal traffic (the
// typical cost line, with noise minute to minute: the first to fit the cost
// model on a whole day, the second to sample its residual), then a third
// morning.
// The noise is dyadic (k/64), so the counters stay exact, and deterministic
// (a hash of the service and the minute), so every run sees the same minutes.

// wobble is a deterministic noise in [-k/64, k/64], one value per `block`
// minutes (1: a new value every minute).
func wobble(seed string, k, block int) func(t int) float64 {
	return func(t int) float64 {
		h := uint64(14695981039346656037)
		for _, c := range seed {
			h = (h ^ uint64(c)) * 1099511628211
		}
		x := h ^ uint64(t/block)*0x9E3779B97F4A7C15
		x ^= x >> 30
		x *= 0xBF58476D1CE4E5B9
		x ^= x >> 27
		x *= 0x94D049BB133111EB
		x ^= x >> 31
		return float64(int(x%uint64(2*k+1))-k) / 64
	}
}

// noisy is the healthy diurnal service at `traffic` times the daily curve,
// its CPU and allocations each multiplied by 1 + noise (independent noises).
func noisy(seed string, traffic float64, k, block int) func(int) rates {
	cpuNoise, allocNoise := wobble(seed+"/cpu", k, block), wobble(seed+"/alloc", k, block)
	return func(t int) rates {
		r := healthy(t, traffic)
		r.cpu *= 1 + cpuNoise(t)
		r.alloc *= 1 + allocNoise(t)
		return r
	}
}

// scaled multiplies the CPU and allocations of `base` by cpu and alloc from
// minute `from` on: the same traffic, costing more per request.
func scaled(base func(int) rates, from int, cpu, alloc float64) func(int) rates {
	return scaledBetween(base, from, math.MaxInt, cpu, alloc)
}

// scaledBetween is base with CPU and allocations per minute multiplied over
// minutes [from, to): a change that ends, the fix at `to`.
func scaledBetween(base func(int) rates, from, to int, cpu, alloc float64) func(int) rates {
	return func(t int) rates {
		r := base(t)
		if t >= from && t < to {
			r.cpu *= cpu
			r.alloc *= alloc
		}
		return r
	}
}

func noiseSuite() *suite {
	svc := func(job string) service { return service{"eu1", "noise", job} }
	steady, regressed, allocs, benign := svc("steady"), svc("regressed"), svc("allocs"), svc("benign")
	quiet, jittery, wobbly, young := svc("quiet"), svc("jittery"), svc("wobbly"), svc("young")
	const (
		onset  = 2 * day // 10:00 on the third day
		total  = onset + 3*60
		deploy = onset + 30 // 10:30: the benign deploy, then its warm-up
		warmUp = 8
	)
	night := onset - 6*60 // 04:00

	g := &group{
		name: "two noisy diurnal days, then small lasting regressions and benign events on the third morning",
		comment: `CPU = 0.25 + req/s / 32 cores; allocations = 1 MiB/s + 64 KiB per request; traffic 2-20 req/s (times 4 for the busy ones).
Clock: t=0 is 10:00; 24h and 48h are 10:00 again. Noise: each minute's CPU and allocations times 1 + k/64 (k uniform), per service.`,
	}
	g.addService(steady, "steady: the healthy diurnal service, no noise (its residual is exactly 1)", timeline{total: total, at: func(t int) rates { return healthy(t, 1) }})
	g.addService(regressed, "regressed: 8-80 req/s, +-9% noise a minute; from 48h each request costs 30% more CPU (today's 1.5x misses it)",
		timeline{total: total, at: scaled(noisy("regressed", 4, 6, 1), onset, 1.3, 1)})
	g.addService(allocs, "allocs: 8-80 req/s, +-9% noise a minute; from 48h each request allocates 50% more (today's 2x misses it)",
		timeline{total: total, at: scaled(noisy("allocs", 4, 6, 1), onset, 1, 1.5)})
	benignRates := noisy("benign", 4, 3, 1)
	g.addService(benign, `benign: 8-80 req/s, +-5% noise a minute; deploys at 04:00 and at 10:30 on the third day (a missed scrape, counters reset,
then 8 minutes of warm-up at 1.5x the CPU and allocations); twice the traffic from 11:00 to 13:00, CPU and allocations following`,
		timeline{total: total, restarts: map[int]restart{night: {gap: 1, startCPU: 20, bytes: 268435456}, deploy: {gap: 1, startCPU: 20, bytes: 268435456}},
			at: func(t int) rates {
				r := benignRates(t)
				if t >= onset+60 && t < onset+180 {
					r = healthy(t, 8)
					r.cpu *= 1 + wobble("benign/2x", 3, 1)(t)
				}
				for _, d := range []int{night, deploy} {
					if t > d && t <= d+warmUp {
						r.cpu *= 1.5
						r.alloc *= 1.5
					}
				}
				return r
			}})
	g.addService(quiet, "quiet: 0.5 req/s (below the 1 req/s floor), +-30% noise a minute; 30% more CPU from 48h",
		timeline{total: total, at: scaled(func(t int) rates {
			n := wobble("quiet", 19, 1)(t)
			return rates{0.5, 0.125 * (1 + n), 1048576 * (1 + n)}
		}, onset, 1.3, 1.3)})
	g.addService(jittery, "jittery: 2 req/s, +-30% noise a minute, flat traffic",
		timeline{total: total, at: func(t int) rates {
			n := wobble("jittery", 19, 1)(t)
			return rates{2, 0.25 * (1 + n), 2097152 * (1 + wobble("jittery/alloc", 19, 1)(t))}
		}})
	g.addService(wobbly, "wobbly: 2-20 req/s, +-20% noise that holds for 20 minutes at a time (a batchy service: its spread, not the floor, sets its band)",
		timeline{total: total, at: noisy("wobbly", 1, 13, 20)})
	g.addService(young, "young: first scraped at 02:00 before the third morning (8h of history), +-5% noise; 30% more CPU from 48h",
		timeline{from: onset - 8*60, total: total, at: scaled(noisy("young", 4, 3, 1), onset, 1.3, 1)})

	// ---- the noise model's series, exact on the noiseless service --------------
	at := minutes(onset)
	exact := func(comment, series string, v float64) {
		g.expr(comment, steady.sel(series), at, sample{labelString(series, steady.labels()), v})
	}
	exact("steady's residual (CPU / prediction) is exactly 1: every point lies on its cost line", "job:cpu_seconds:baseline_residual", 1)
	exact("", "job:alloc_bytes:baseline_residual", 1)
	exact("and so is its median over 20m", "job:cpu_seconds:baseline_residual_smoothed", 1)
	exact("", "job:alloc_bytes:baseline_residual_smoothed", 1)
	exact("the noise group's copy of it", "job:cpu_seconds:baseline_residual_sampled", 1)
	exact("", "job:alloc_bytes:baseline_residual_sampled", 1)
	exact("its median over the day", "job:cpu_seconds:baseline_residual_median", 1)
	exact("", "job:alloc_bytes:baseline_residual_median", 1)
	exact("no spread at all", "job:cpu_seconds:baseline_residual_spread", 0)
	exact("", "job:alloc_bytes:baseline_residual_spread", 0)
	exact("so the materiality floors set the thresholds: 25% above the median for CPU ...", "job:cpu_seconds:baseline_residual_threshold", 1.25)
	exact("... and 40% for allocations", "job:alloc_bytes:baseline_residual_threshold", 1.4)

	above := func(comment, series string, s service, lo, hi float64) {
		g.expr(comment, fmt.Sprintf("count by (__name__, cluster, namespace, job) (%s >= %s <= %s)", s.sel(series), num(lo), num(hi)), at,
			sample{labelString(series, s.labels()), 1})
	}
	above("regressed's noise: the model's line runs through a low quantile, so its median residual sits a little above 1", "job:cpu_seconds:baseline_residual_median", regressed, 1, 1.05)
	above("and its spread is small: 3 spreads (< 0.24) stay under the floor's 25% of the median", "job:cpu_seconds:baseline_residual_spread", regressed, 0.005, 0.08)
	g.expr("wobbly's noise lasts, so its spread sets its band: k * spread above the floor's 25% of the median",
		fmt.Sprintf(`count(%s > on (cluster, namespace, job) 1.25 * %s)`, wobbly.sel("job:cpu_seconds:baseline_residual_threshold"), wobbly.sel("job:cpu_seconds:baseline_residual_median")), at,
		sample{"{}", 1})
	g.expr("young has had a residual for 2h only: no noise threshold yet (the fixed 1.5x and 2x alone judge it on its first day)",
		young.sel("job:cpu_seconds:baseline_residual_threshold")+" or "+young.sel("job:alloc_bytes:baseline_residual_threshold"), at)
	g.expr("though its residual is recorded", fmt.Sprintf("count(%s)", young.sel("job:cpu_seconds:baseline_residual")), at, sample{"{}", 1})
	g.expr("nor is it sampled: the noise model samples a residual only once the cost model is fitted on a whole day",
		young.sel("job:cpu_seconds:baseline_residual_sampled")+" or "+young.sel("job:alloc_bytes:baseline_residual_sampled"), at)
	g.expr(`regressed's residual was not sampled on its first day, while its model grew into its window (that model's
residuals sit at another level than a whole day's model's), and was on its second`,
		fmt.Sprintf("count_over_time(%s[23h] offset 1d1m) or count_over_time(%s[23h] offset 1d1m)", regressed.sel("job:cpu_seconds:baseline_residual_sampled"), regressed.sel("job:alloc_bytes:baseline_residual_sampled")), at)
	g.expr("", fmt.Sprintf("count_over_time(count(%s)[23h:1h])", regressed.sel("job:cpu_seconds:baseline_residual_sampled")), at, sample{"{}", 23})

	// ---- small lasting regressions --------------------------------------------
	firingAt := func(alert string, s service) string {
		return fmt.Sprintf(`count(ALERTS{alertname=%q, alertstate="firing", job=%q})`, alert, s.job)
	}
	held := func(comment, alert string, s service, from int) {
		g.expr(comment, firingAt(alert, s), minutes(from), sample{"{}", 1})
		g.expr("", fmt.Sprintf("min_over_time((%s or vector(0))[%s:1m])", firingAt(alert, s), minutes(total-1-from)), minutes(total-1), sample{"{}", 1})
	}
	held("+30% CPU per request on a noisy diurnal service fires within 60 minutes, and holds to the end (2h later)",
		"CPUPerRequestRegression", regressed, onset+60)
	held("+50% allocations per request fires within 60 minutes, and holds", "AllocationsPerRequestRegression", allocs, onset+60)
	g.expr("neither fired before the onset", fmt.Sprintf(`count_over_time(ALERTS{alertstate="firing", job=~"regressed|allocs"}[%s])`, minutes(onset)), minutes(onset))
	g.expr("regressed allocates as before, allocs burns as much CPU as before",
		fmt.Sprintf(`count_over_time(ALERTS{alertname="AllocationsPerRequestRegression", alertstate="firing", job="regressed"}[%s]) or count_over_time(ALERTS{alertname="CPUPerRequestRegression", alertstate="firing", job="allocs"}[%s])`, minutes(total-1), minutes(total-1)),
		minutes(total-1))

	// ---- silent at every check --------------------------------------------------
	g.expr(`never firing at any minute of the three days: the benign day (deploys with warm-up, 2x traffic for two hours, noise),
the quiet and jittery services (+-30% a minute), wobbly (lasting +-20%), young on its first day, the noiseless service`,
		fmt.Sprintf(`count_over_time(ALERTS{alertname=~"CPUPerRequestRegression|AllocationsPerRequestRegression", alertstate="firing", job=~"benign|quiet|jittery|wobbly|young|steady"}[%s])`, minutes(total-1)),
		minutes(total-1))

	return &suite{
		file:      "noise.yaml",
		comment:   "The noise model (hotpath-noise): CPUPerRequestRegression and AllocationsPerRequestRegression against each service's own noise, at +30% and +50%, and silent on benign events.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
