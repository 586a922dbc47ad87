package main

import "fmt"

// noisyHoldGroup: the catch-and-hold checks on services with 14% noise a
// minute (standard deviation; uniform within +-25%), where the smoothed
// residual of a change near the floors (+30% CPU against 25%, +50%
// allocations against 40%) sits a few percent above its threshold and the
// noise dips its 20m median under it, now and then for longer than
// keep_firing_for: without the hold level, the CPU alert here resolves and
// fires again while the change lasts (the allocations one, on this noise,
// holds either way). The same noise with no change stays silent, and a
// change that ends resolves within the hour, as recovered.
func noisyHoldGroup() *group {
	svc := func(job string) service { return service{"eu1", "hold-noisy", job} }
	cpu, allocs, clean, ended := svc("cpu"), svc("allocs"), svc("clean"), svc("ended")
	const (
		// t=0 is 10:00, so the third morning's 06:00 is this minute
		onset   = 2*day + 20*60
		endedAt = onset + 4*60 // 10:00: the fix
		held    = 8 * 60
		total   = onset + held + 1
		check   = 20
		noise   = 16 // wobble's k: uniform within +-16/64 a minute
	)
	g := &group{
		name: "three clean days with 14% noise a minute, then +30% CPU and +50% allocations per request from the morning rise, held 8 hours",
		comment: `CPU = 0.25 + req/s / 32 cores; allocations = 1 MiB/s + 64 KiB per request; traffic 8-80 req/s; CPU and allocations each times 1 + a uniform noise within +-25% a minute (14% standard deviation), independent.
Clock: t=0 is 10:00; the third morning's 06:00 is 68h.`,
	}
	base := func(seed string) func(int) rates { return noisy("hold-noisy/"+seed, 4, noise, 1) }
	g.addService(cpu, "cpu: 30% more CPU per request from 06:00 on the third morning, to the end",
		timeline{total: total, at: scaled(base("cpu"), onset, 1.3, 1)})
	g.addService(allocs, "allocs: 50% more allocations per request from 06:00 on the third morning, to the end",
		timeline{total: total, at: scaled(base("allocs"), onset, 1, 1.5)})
	g.addService(clean, "clean: the same noise, no change",
		timeline{total: total, at: base("clean")})
	g.addService(ended, "ended: 30% more CPU per request from 06:00 to 10:00 on the third morning, then the fix",
		timeline{total: total, at: scaledBetween(base("ended"), onset, endedAt, 1.3, 1)})

	firing := func(alert string, s service) string {
		return fmt.Sprintf(`count(ALERTS{alertname=%q, alertstate="firing", job=%q})`, alert, s.job)
	}
	everyCheck := func(comment, alert string, s service) {
		for t := onset + 60; t <= onset+held; t += check {
			if t > onset+60 {
				comment = ""
			}
			g.expr(comment, firing(alert, s), minutes(t), sample{"{}", 1})
		}
		g.expr("and at every minute in between: one episode, never resolved",
			fmt.Sprintf("min_over_time((%s or vector(0))[%s:1m])", firing(alert, s), minutes(held-60)), minutes(onset+held), sample{"{}", 1})
	}
	never := func(comment, alert, jobs string, from, to int) {
		g.expr(comment, fmt.Sprintf(`count_over_time(ALERTS{alertname=~%q, alertstate="firing", job=~%q}[%s])`, alert, jobs, minutes(to-from)), minutes(to))
	}
	regressions := "CPUPerRequestRegression|AllocationsPerRequestRegression"

	never("nothing fires before the onset", regressions, ".*", 0, onset)
	everyCheck("+30% CPU per request on a noisy service: firing within the hour and at every check every 20 minutes for 8 hours",
		"CPUPerRequestRegression", cpu)
	everyCheck("+50% allocations per request on a noisy service: likewise", "AllocationsPerRequestRegression", allocs)
	g.expr("the noise does dip cpu's smoothed residual under its threshold while it is held: the hold level, not the threshold, keeps it firing",
		fmt.Sprintf("count(min_over_time((%s - on (cluster, namespace, job) %s)[%s:1m]) < 0)",
			cpu.sel("job:cpu_seconds:baseline_residual_smoothed"), cpu.sel("job:cpu_seconds:baseline_residual_threshold"), minutes(held-60)),
		minutes(onset+held), sample{"{}", 1})
	g.expr("and never under its hold level",
		fmt.Sprintf("count(min_over_time((%s - on (cluster, namespace, job) %s)[%s:1m]) >= 0)",
			cpu.sel("job:cpu_seconds:baseline_residual_smoothed"), cpu.sel("job:cpu_seconds:baseline_residual_hold"), minutes(held-60)),
		minutes(onset+held), sample{"{}", 1})
	g.expr("allocs' hold level sits halfway from its typical residual (the band's median of a day before, as its threshold reads it) to its threshold",
		fmt.Sprintf("count(abs(%s - on (cluster, namespace, job) (%s + on (cluster, namespace, job) last_over_time(%s[30m] offset 1d)) / 2) < 1e-9)",
			allocs.sel("job:alloc_bytes:baseline_residual_hold"), allocs.sel("job:alloc_bytes:baseline_residual_threshold"), allocs.sel("job:alloc_bytes:baseline_residual_median")),
		minutes(onset+held), sample{"{}", 1})
	never("the same noise without a change is silent", regressions, "clean", 0, total-1)
	never("", "AllocationsPerRequestRegression", "cpu|ended", 0, total-1)
	never("", "CPUPerRequestRegression", "allocs", 0, total-1)

	g.expr("ended fires while its regression lasts ...", firing("CPUPerRequestRegression", ended), minutes(endedAt-1), sample{"{}", 1})
	never("... and resolves within an hour of the fix, for good", regressions, "ended", endedAt+60, total-1)
	cpuOutcome := catalogueOutcome("CPUPerRequestRegression")
	g.expr("as recovered: the cost per request an hour after the fix is under the ratio the alert fired on, against the model of its start (the receiver's queries)",
		fmt.Sprintf("count(%s)", cpuOutcome.verdict(ended, onset+60, false)), minutes(endedAt+60), sample{"{}", 1})
	return g
}
