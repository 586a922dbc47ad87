package main

import "fmt"

// Catch and hold: lasting regressions that begin at the hours where a model
// refitted over a window that includes them learns them fastest (the trough,
// the morning rise), judged every 20 minutes for 8 hours; an improvement; a
// regression that ends; a traffic doubling that the costs follow. Three clean
// days first: the alerts judge the present against the cost model and noise
// band recorded regressionAcceptAfter (1d) ago, which a service has once it
// had a whole day of history a day ago, and a noise band sampled for 6h
// before that.
func holdSuite() *suite {
	svc := func(job string) service { return service{"eu1", "hold", job} }
	trough, rise, allocs, improved, ended, doubled := svc("trough"), svc("rise"), svc("allocs"), svc("improved"), svc("ended"), svc("doubled")
	const (
		// t=0 is 10:00, so the third night's 00:30 and 06:00 are these minutes
		troughOnset = 2*day + 14*60 + 30 // 00:30
		riseOnset   = 2*day + 20*60      // 06:00: 4, 8, 12, 16, 20 req/s hour by hour
		endedAt     = troughOnset + 4*60 // 04:30: the cost back to normal
		held        = 8 * 60
		total       = riseOnset + held + 1
		doubleFrom  = riseOnset + 2*60 // 08:00-10:00, twice the traffic
		check       = 20
	)

	g := &group{
		name: "three clean noisy days, then lasting regressions from the trough and from the morning rise, held 8 hours",
		comment: `CPU = 0.25 + req/s / 32 cores; allocations = 1 MiB/s + 64 KiB per request; traffic 8-80 req/s, +-5% noise a minute on CPU and allocations.
Clock: t=0 is 10:00; the third night's 00:30 is 62h30m, its 06:00 is 68h.`,
	}
	base := func(seed string) func(int) rates { return noisy(seed, 4, 3, 1) }
	g.addService(trough, "trough: 30% more CPU per request from 00:30 on the third night, to the end",
		timeline{total: total, at: scaled(base("trough"), troughOnset, 1.3, 1)})
	g.addService(rise, "rise: 30% more CPU per request from 06:00 on the third morning (the rise from 4 to 20 req/s), to the end",
		timeline{total: total, at: scaled(base("rise"), riseOnset, 1.3, 1)})
	g.addService(allocs, "allocs: 50% more allocations per request from 06:00 on the third morning, to the end",
		timeline{total: total, at: scaled(base("allocs"), riseOnset, 1, 1.5)})
	g.addService(improved, "improved: 40% less CPU and allocations per request from 00:30 on the third night (an optimisation ships)",
		timeline{total: total, at: scaled(base("improved"), troughOnset, 0.6, 0.6)})
	g.addService(ended, "ended: 30% more CPU per request from 00:30 to 04:30 on the third night, then the fix",
		timeline{total: total, at: scaledBetween(base("ended"), troughOnset, endedAt, 1.3, 1)})
	doubledRates := base("doubled")
	g.addService(doubled, "doubled: twice the traffic from 08:00 to 10:00 on the third morning (above anything the model was fitted on), CPU and allocations following; a deploy at 07:00 (a missed scrape, 8 minutes of warm-up at 1.5x)",
		timeline{total: total, restarts: map[int]restart{riseOnset + 60: {gap: 1, startCPU: 20, bytes: 268435456}},
			at: func(t int) rates {
				r := doubledRates(t)
				if t >= doubleFrom && t < doubleFrom+120 {
					r = healthy(t, 8)
					r.cpu *= 1 + wobble("doubled/2x", 3, 1)(t)
					r.alloc *= 1 + wobble("doubled/2x/alloc", 3, 1)(t)
				}
				if t > riseOnset+60 && t <= riseOnset+68 {
					r.cpu *= 1.5
					r.alloc *= 1.5
				}
				return r
			}})

	firing := func(alert string, s service) string {
		return fmt.Sprintf(`count(ALERTS{alertname=%q, alertstate="firing", job=%q})`, alert, s.job)
	}
	everyCheck := func(comment, alert string, s service, onset, until int) {
		for t := onset + 60; t <= until; t += check {
			if t > onset+60 {
				comment = ""
			}
			g.expr(comment, firing(alert, s), minutes(t), sample{"{}", 1})
		}
		g.expr("and at every minute in between: one episode, never resolved",
			fmt.Sprintf("min_over_time((%s or vector(0))[%s:1m])", firing(alert, s), minutes(until-onset-60)), minutes(until), sample{"{}", 1})
	}
	never := func(comment, alert, jobs string, from, to int) {
		g.expr(comment, fmt.Sprintf(`count_over_time(ALERTS{alertname=~%q, alertstate="firing", job=~%q}[%s])`, alert, jobs, minutes(to-from)), minutes(to))
	}
	regressions := "CPUPerRequestRegression|AllocationsPerRequestRegression"

	never("nothing fires before the first onset", regressions, ".*", 0, troughOnset)
	everyCheck("+30% CPU per request from the trough (00:30): firing within the hour and at every check every 20 minutes for 8 hours",
		"CPUPerRequestRegression", trough, troughOnset, troughOnset+held)
	everyCheck("+30% CPU per request from the morning rise (06:00): likewise", "CPUPerRequestRegression", rise, riseOnset, riseOnset+held)
	everyCheck("+50% allocations per request from the morning rise: likewise", "AllocationsPerRequestRegression", allocs, riseOnset, riseOnset+held)
	g.expr("trough is judged against the model fitted before its onset: its residual (CPU over the prediction) stays near 1.3 at the end",
		fmt.Sprintf("count(%s >= 1.2 <= 1.4)", trough.sel("job:cpu_seconds:baseline_residual_smoothed")), minutes(total-1), sample{"{}", 1})
	g.expr("and its band is the one of the day before the onset: under the regressed residual",
		fmt.Sprintf("count(%s <= 1.3)", trough.sel("job:cpu_seconds:baseline_residual_threshold")), minutes(total-1), sample{"{}", 1})
	never("the costs that did not change stay silent: rise's and trough's allocations, allocs' CPU", "AllocationsPerRequestRegression", "trough|rise", 0, total-1)
	never("", "CPUPerRequestRegression", "allocs", 0, total-1)

	g.expr("ended fires while its regression lasts ...", firing("CPUPerRequestRegression", ended), minutes(endedAt-1), sample{"{}", 1})
	never("... and resolves within an hour of the fix, for good (recovered: its cost is back on the reference model)",
		regressions, "ended", endedAt+60, total-1)
	g.expr("its residual against the reference model is back under its band", fmt.Sprintf("count(%s < on (cluster, namespace, job) %s)",
		ended.sel("job:cpu_seconds:baseline_residual_smoothed"), ended.sel("job:cpu_seconds:baseline_residual_threshold")), minutes(endedAt+60), sample{"{}", 1})

	cpuOutcome := catalogueOutcome("CPUPerRequestRegression")
	g.expr("the resolve says recovered: the cost per request an hour after the fix is under the ratio the alert fired on, against the model of its start (the receiver's queries)",
		fmt.Sprintf("count(%s)", cpuOutcome.verdict(ended, troughOnset+60, false)), minutes(endedAt+60), sample{"{}", 1})
	g.expr("while trough, still regressed, is not recovered by the same queries", fmt.Sprintf("count(%s)", cpuOutcome.verdict(trough, troughOnset+60, true)), minutes(endedAt+60), sample{"{}", 1})

	never("an improvement of 40% is silent", regressions, "improved", 0, total-1)
	g.expr("though the reference model has not learnt it: its residual sits near 0.6", fmt.Sprintf("count(%s >= 0.5 <= 0.7)", improved.sel("job:cpu_seconds:baseline_residual_smoothed")), minutes(total-1), sample{"{}", 1})
	never("twice the traffic for two hours, the costs following, and a deploy's warm-up: silent", regressions, "doubled", 0, total-1)

	return &suite{
		file:      "hold.yaml",
		comment:   "Catch and hold: CPUPerRequestRegression and AllocationsPerRequestRegression fire within the hour of a lasting regression whatever its hour, stay firing while it lasts, resolve within the hour of its end; an improvement, a traffic doubling and a deploy's warm-up stay silent.",
		ruleFiles: shippedRules,
		groups:    []*group{g, noisyHoldGroup()},
	}
}
