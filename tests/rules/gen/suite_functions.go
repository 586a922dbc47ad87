package main

import (
	"fmt"
	"math"
)

// Function alerts: hotpath-profile-metrics' rows (labels job and function,
// scraped with honor_labels: no cluster or namespace, the bridge's instance)
// against the services' request rates, 31 clean hours and then, at onset,
// changes in single functions. FunctionCostPerRequestRegression judges the
// present against each function's median and spread as recorded a day ago,
// which a function has once it was sampled 6h before that: 31h of history.
func functionsSuite() *suite {
	api, busy, spill, noisy, allocs, shipped := inShop("api"), inShop("busy"), inShop("spill"), inShop("noisy"), inShop("allocs"), inShop("shipped")
	lean, surge, gcwork := inShop("lean"), inShop("surge"), inShop("gcwork")
	fresh, moved, newcomer, early := inShop("fresh"), inShop("moved"), inShop("newcomer"), inShop("early")
	const (
		onset = 31 * 60
		total = onset + 3*60
		at    = onset + 60
	)
	g := &group{
		name: "function rows of the profile bridge: doublings of 10% and 1% of a service, traffic doublings, the other row, improvements, a noisy function",
		comment: `Every service serves 8 req/s (busy and surge 16 from onset) and its rows add up to 0.625 cores (or 1 MiB/s of allocations).
The changes begin at minute ` + fmt.Sprint(onset) + ` (31h) and last to the end.`,
	}
	row := func(metric string, s service, fn string, perSecond func(int) float64) {
		g.add("", fmt.Sprintf(`%s{function=%q, instance="bridge:9096", job=%q}`, metric, fn, s.job), bridgeRow(total, perSecond))
	}
	cpuRow := func(s service, fn string, f func(int) float64) { row("hotpath_profile_cpu_seconds_total", s, fn, f) }
	flat := func(v float64) func(int) float64 { return func(int) float64 { return v } }
	times := func(v, factor float64) func(int) float64 {
		return func(t int) float64 {
			if t >= onset {
				return v * factor
			}
			return v
		}
	}
	requests := func(s service, comment string, perSecond func(int) float64) {
		g.addService(s, comment, timeline{total: total, at: func(t int) rates { return rates{perSecond(t), 0.5, 1048576} }})
	}

	requests(api, "api: hot (10% of the service) and tiny (1%) double, better (20%) halves, at the same traffic", flat(8))
	cpuRow(api, "hot", times(0.0625, 2))
	cpuRow(api, "tiny", times(0.00625, 2))
	cpuRow(api, "better", times(0.125, 0.5))
	cpuRow(api, "rest", flat(0.125))
	cpuRow(api, "other", flat(0.30625))

	requests(busy, "busy: twice the traffic from onset, every row following it", times(8, 2))
	cpuRow(busy, "hot", times(0.0625, 2))
	cpuRow(busy, "other", times(0.5625, 2))

	// The same doubling as api's hot in rows that are not the service's own
	// code (the bridge labels them with their origin): nothing to name.
	requests(gcwork, "gcwork: the runtime's own work and the profiler's (10% of the service each, labelled with their origin) double at the same traffic", flat(8))
	for _, r := range [][2]string{{"runtime.gcBgMarkWorker", "runtime"}, {"internal/profile.(*profileMerger).mapSample", "profiler"}} {
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function=%q, instance="bridge:9096", job=%q, origin=%q}`, r[0], gcwork.job, r[1]), bridgeRow(total, times(0.0625, 2)))
	}
	cpuRow(gcwork, "serve", flat(0.1875))
	cpuRow(gcwork, "other", flat(0.3125))

	requests(spill, "spill: the other row doubles (+50% of the service); its named row is unchanged", flat(8))
	cpuRow(spill, "steady", flat(0.3125))
	cpuRow(spill, "other", times(0.3125, 2))

	// steady's share of its service rises from 10% to 12.5% as big halves,
	// above its day's range; its cost per request does not move.
	requests(lean, "lean: big (40% of the service) halves; steady's share rises, its cost per request stays", flat(8))
	cpuRow(lean, "big", times(0.25, 0.5))
	cpuRow(lean, "steady", flat(0.0625))
	cpuRow(lean, "other", flat(0.3125))

	// serve's share of its service rises from 40% to 57% as the traffic
	// doubles beside a fixed gc; its cost per request does not move.
	requests(surge, "surge: twice the traffic from onset; serve follows it, gc and other are fixed", times(8, 2))
	cpuRow(surge, "serve", times(0.25, 2))
	cpuRow(surge, "gc", flat(0.25))
	cpuRow(surge, "other", flat(0.125))

	// wavy's cost per request swings +-20% on a two-hour period: +-10% of
	// the service, far above the floor, inside its own noise (median + 3
	// spreads is about +42%).
	requests(noisy, "noisy: wavy (half the service) swings +-20% around its level every two hours", flat(8))
	cpuRow(noisy, "wavy", func(t int) float64 {
		return 0.3125 * (1 + 0.2*math.Round(64*math.Sin(2*math.Pi*float64(t)/120))/64)
	})
	cpuRow(noisy, "other", flat(0.3125))

	requests(allocs, "allocs: buf (10% of the service's allocations) doubles its bytes per request; its CPU is unchanged", flat(8))
	row("hotpath_profile_alloc_bytes_total", allocs, "buf", times(131072, 2))
	row("hotpath_profile_alloc_bytes_total", allocs, "other", flat(917504))
	cpuRow(allocs, "buf", flat(0.0625))
	cpuRow(allocs, "other", flat(0.5625))

	// shipped: the doubling of hot comes with a new image, 1.7 replacing 1.6
	// in place in its pod ten minutes before onset (kube-state-metrics, the
	// shipped rules' version source, joined through the pod of its requests).
	const rollout = onset - 10
	req, cpu, alloc := timeline{total: total, at: func(int) rates { return rates{8, 0.5, 1048576} }}.counters()
	g.add("shipped: hot (10% of the service) doubles at onset, ten minutes after its pod's image went from 1.6 to 1.7",
		shipped.sel("http_requests_total", `instance="i1"`, `pod="shipped-0"`), req.String())
	g.add("", shipped.sel("process_cpu_seconds_total", `instance="i1"`, `pod="shipped-0"`), cpu.String())
	g.add("", shipped.sel("go_memstats_alloc_bytes_total", `instance="i1"`, `pod="shipped-0"`), alloc.String())
	image := func(tag string) string {
		return fmt.Sprintf(`kube_pod_container_info{cluster="eu1", namespace="shop", job="kube-state-metrics", pod="shipped-0", container="shipped", image="registry.example.com/shop/shipped:%s"}`, tag)
	}
	g.add("", image("1.6"), (&seq{}).hold(rollout+1, 1).String()+" stale")
	g.add("", image("1.7"), (&seq{}).gap(rollout).hold(total-rollout, 1).String())
	cpuRow(shipped, "hot", times(0.0625, 2))
	cpuRow(shipped, "other", flat(0.5625))

	// A row the bridge starts exporting at minute `from`: a function it
	// admitted then (or a service it reads from then), its counter from 0.
	rowFrom := func(from int, s service, fn string, perSecond float64) {
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function=%q, instance="bridge:9096", job=%q}`, fn, s.job), (&seq{}).gap(from).rate(total-from, perSecond).String())
	}
	fromOnset := func(s service, fn string, perSecond float64) { rowFrom(onset, s, fn, perSecond) }
	requests(fresh, "fresh: a new function, marshal, adds 10% of the service at onset: no row before, none of its cost in other", flat(8))
	cpuRow(fresh, "steady", flat(0.3125))
	cpuRow(fresh, "other", flat(0.3125))
	fromOnset(fresh, "marshal", 0.0625)

	// mid was 3.75% of its service inside other; from onset the bridge
	// exports it as a row of its own, and other falls by as much.
	requests(moved, "moved: mid (3.75% of the service) moves from other into a row of its own at onset, at the same cost", flat(8))
	cpuRow(moved, "steady", flat(0.3125))
	cpuRow(moved, "other", times(0.3125, 0.925))
	fromOnset(moved, "mid", 0.0234375)

	requests(newcomer, "newcomer: the bridge reads it from onset on, its first function at 10% of it", flat(8))
	fromOnset(newcomer, "marshal", 0.0625)
	fromOnset(newcomer, "other", 0.5625)

	requests(early, "early: the bridge reads it from 12h before onset; marshal, new, adds 10% of it at onset", flat(8))
	rowFrom(onset-12*60, early, "steady", 0.3125)
	rowFrom(onset-12*60, early, "other", 0.3125)
	fromOnset(early, "marshal", 0.0625)

	fnLabels := func(s service, fn string, extra ...string) map[string]string {
		return with(map[string]string{"job": s.job, "function": fn}, extra...)
	}
	one := func(name string, s service, fn string, v float64) sample {
		return sample{labelString(name, fnLabels(s, fn)), v}
	}
	check := minutes(onset - 1)
	g.expr("before onset: each row's cost per second, summed over the bridge's labels", `job_function:cpu_seconds:rate5m{job="api", function="hot"}`, check,
		one("job_function:cpu_seconds:rate5m", api, "hot", 0.0625))
	g.expr("and per request of its service: cluster and namespace of the request rate summed away, as the bridge names a service by job", `job_function:cpu_seconds_per_request:ratio_rate5m{job="api", function="hot"}`, check,
		one("job_function:cpu_seconds_per_request:ratio_rate5m", api, "hot", 0.0625/8))
	g.expr("", `job_function:alloc_bytes:rate5m{job="allocs", function="buf"}`, check, one("job_function:alloc_bytes:rate5m", allocs, "buf", 131072))
	g.expr("", `job_function:alloc_bytes_per_request:ratio_rate5m{job="allocs", function="buf"}`, check,
		one("job_function:alloc_bytes_per_request:ratio_rate5m", allocs, "buf", 16384))
	for _, k := range []struct {
		kind, job string
		value     float64
	}{{"cpu_seconds", "api", 0.0625 / 8}, {"alloc_bytes", "allocs", 16384}} {
		fn := map[string]string{"api": "hot", "allocs": "buf"}[k.job]
		s := map[string]service{"api": api, "allocs": allocs}[k.job]
		for _, op := range []string{"smoothed", "smoothed_sampled", "baseline_median", "baseline_reference", "baseline_threshold"} {
			name := fmt.Sprintf("job_function:%s_per_request:%s", k.kind, op)
			g.expr("a steady row: its smoothed cost, median, reference and threshold all at its level (spread 0)", fmt.Sprintf("last_over_time(%s{job=%q, function=%q}[30m])", name, k.job, fn), check,
				sample{labelString(name, fnLabels(s, fn)), k.value})
		}
		name := fmt.Sprintf("job_function:%s_per_request:baseline_spread", k.kind)
		g.expr("", fmt.Sprintf("last_over_time(%s{job=%q, function=%q}[30m])", name, k.job, fn), check, sample{labelString(name, fnLabels(s, fn)), 0})
	}
	g.expr("the function's share of its service's profile: hot is 10% of api's rows, other included", `job_function:cpu_seconds_share:ratio_rate5m{job="api", function="hot"}`, check,
		one("job_function:cpu_seconds_share:ratio_rate5m", api, "hot", 0.1))
	for _, op := range []string{"smoothed", "smoothed_sampled", "baseline_ceiling", "baseline_threshold"} {
		name := "job_function:cpu_seconds_share:" + op
		g.expr("a steady share: smoothed, sampled, its day's upper end and the lagged threshold all at it (spread 0)", fmt.Sprintf(`last_over_time(%s{job="api", function="hot"}[30m])`, name), check,
			one(name, api, "hot", 0.1))
	}
	for _, op := range []string{"ratio_rate5m", "smoothed", "smoothed_sampled", "baseline_ceiling", "baseline_threshold"} {
		name := "job_function:alloc_bytes_share:" + op
		g.expr("allocs' buf: a steady share of the allocated bytes, every step at it", fmt.Sprintf(`last_over_time(%s{job="allocs", function="buf"}[30m])`, name), check,
			one(name, allocs, "buf", 0.125))
	}
	g.expr("gcwork's two rows meet every other condition as api's hot does: each one's cost per request doubled (from 1/128 s), its share is above its day's range",
		`job_function:cpu_seconds_per_request:smoothed{job="gcwork", function!~"serve|other"} >= on (job, function) last_over_time(job_function:cpu_seconds_per_request:baseline_threshold[30m]) * 2 and on (job, function) job_function:cpu_seconds_share:smoothed > on (job, function) last_over_time(job_function:cpu_seconds_share:baseline_threshold[30m])`, minutes(at),
		one("", gcwork, "internal/profile.(*profileMerger).mapSample", 0.125/8), one("", gcwork, "runtime.gcBgMarkWorker", 0.125/8))
	g.expr("after onset api's and shipped's hot shares are above their thresholds (0.125 of 0.63125 and of 0.6875 cores), and so are lean's steady (big halved) and surge's serve (the traffic doubled), whose costs per request did not move",
		`job_function:cpu_seconds_share:smoothed{function=~"hot|steady|serve"} > on (job, function) last_over_time(job_function:cpu_seconds_share:baseline_threshold[30m])`, minutes(at),
		one("", api, "hot", 0.125/0.63125), one("", shipped, "hot", 0.125/0.6875), one("", lean, "steady", 0.125), one("", surge, "serve", 0.5/0.875))
	g.expr("wavy's spread is about 14% of its level (the median minus the lower quartile of a sine of amplitude 20%), its threshold about +40%",
		`count(last_over_time(job_function:cpu_seconds_per_request:baseline_spread{job="noisy"}[30m]) / last_over_time(job_function:cpu_seconds_per_request:baseline_median{job="noisy"}[30m]) > 0.1 < 0.2)`,
		minutes(at), sample{"{}", 1})

	g.expr("a function new to a service read for long has the reference 0: it had no row of its own", `last_over_time(job_function:cpu_seconds_per_request:baseline_reference{function=~"marshal|mid"}[30m])`, minutes(at),
		one("job_function:cpu_seconds_per_request:baseline_reference", fresh, "marshal", 0), one("job_function:cpu_seconds_per_request:baseline_reference", moved, "mid", 0),
		one("job_function:cpu_seconds_per_request:baseline_reference", early, "marshal", 0))
	g.expr("marshal's share (0.0625 of 0.6875 cores) is above the entry share + the floor (0.04), mid's (0.0375) under it", `job_function:cpu_seconds_share:smoothed{function=~"marshal|mid", job=~"fresh|moved"}`, minutes(at),
		one("job_function:cpu_seconds_share:smoothed", fresh, "marshal", 0.0625/0.6875), one("job_function:cpu_seconds_share:smoothed", moved, "mid", 0.0375))

	alerts := func(more string) string {
		return fmt.Sprintf(`ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing"%s}`, more)
	}
	firingAlerts := alerts("")
	g.expr("nothing fires in the clean hours", fmt.Sprintf("count_over_time(%s[%s])", firingAlerts, minutes(onset-1)), minutes(onset-1))
	g.expr("an hour after onset exactly five rows fire, each with its function and profile type, and its service's cluster and namespace from the request rate: api's and shipped's hot (CPU), allocs' buf (allocations) and the new marshal of fresh and of early (a service read for 12h); not moved's mid (a row of its own at the same cost), newcomer's marshal (a service read for an hour has no reference), tiny (+1% of its service, under the 3% floor), better (cheaper), busy (its rows follow the traffic), gcwork's runtime.gcBgMarkWorker and mapSample (the runtime's and the profiler's own work, though each doubles as hot does), spill's other row, noisy's wave, allocs' unchanged CPU, lean's steady (a larger share after an improvement elsewhere) nor surge's serve and gc (a traffic doubling: a larger share, a lower cost per request)",
		firingAlerts, minutes(at),
		sample{labelString("ALERTS", with(allocs.labels(), "function", "buf", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "alloc_space", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(api.labels(), "function", "hot", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(early.labels(), "function", "marshal", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(fresh.labels(), "function", "marshal", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(shipped.labels(), "function", "hot", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1})
	g.expr("and at no minute up to the end does any other row fire",
		fmt.Sprintf(`count_over_time(%s[%s]) unless on (job, function) %s`, firingAlerts, minutes(total-1-onset), alerts(`, function=~"hot|buf|marshal", job=~"api|allocs|shipped|fresh|early"`)), minutes(total-1))
	g.expr("marshal stays firing to the end", fmt.Sprintf(`min_over_time((count(%s) or vector(0))[%s:1m])`, alerts(`, function="marshal", job="fresh"`), minutes(total-1-at)), minutes(total-1), sample{"{}", 1})
	g.expr("hot stays firing to the end", fmt.Sprintf(`min_over_time((count(%s) or vector(0))[%s:1m])`, alerts(`, function="hot", job="api"`), minutes(total-1-at)), minutes(total-1), sample{"{}", 1})

	fnFiring := func(s service, fn, kind, value string) firing {
		unit := map[string]string{"cpu": "cpu", "alloc_space": "alloc_space"}[kind]
		return firing{
			labels: with(s.labels(), "function", fn, "profile_type", kind, "severity", "warning"),
			annotations: map[string]string{
				"summary":       "One function's cost per request rose beyond its noise and by a material share of its service's cost.",
				"description":   fmt.Sprintf("%s in %s costs %s more %s per request than 1d ago, beyond its own noise and at least 3%% of the whole service per request. Start from that function in the %s diff: its callers tell who calls it more, its callees what it now does.", fn, s.job, value, unit, unit),
				"runbook_url":   runbookURL + "functioncostperrequestregression",
				"dashboard_url": s.dashboard() + "&var-function=" + fn,
				// versionSources is on by default: empty where the service
				// has no version series.
				"version":          "",
				"previous_version": "",
				"rollout_time":     "",
			},
		}
	}
	deployed := func(f firing, version, previous string, at int) firing {
		f.annotations = with(f.annotations, "version", version, "previous_version", previous, "rollout_time", fmt.Sprint(at*60))
		return f
	}
	g.alert("the value is the rise per request over the reference: 1/128 s for hot and for the new marshal (over 0), 16 KiB for buf; shipped's hot carries the version it runs and the deploy it followed (an hour and ten minutes ago, inside deployWindow), the others empty version annotations", minutes(at), "FunctionCostPerRequestRegression",
		fnFiring(allocs, "buf", "alloc_space", "16.38k"), fnFiring(api, "hot", "cpu", "7.812m"), fnFiring(early, "marshal", "cpu", "7.812m"), fnFiring(fresh, "marshal", "cpu", "7.812m"),
		deployed(fnFiring(shipped, "hot", "cpu", "7.812m"), "1.7", "1.6", rollout))
	g.alert("silent before onset", minutes(onset-1), "FunctionCostPerRequestRegression")
	g.expr("shipped's deploy: 1.6 to 1.7, dated when 1.7 first ran", shipped.sel("job:version:rollout_timestamp"), minutes(at),
		sample{labelString("job:version:rollout_timestamp", with(shipped.labels(), "version", "1.7", "previous_version", "1.6")), float64(rollout * 60)})

	return &suite{
		file:      "functions.yaml",
		comment:   "Function rows of hotpath-profile-metrics: cost per request of the service, the lagged noise model, and FunctionCostPerRequestRegression firing on a function that adds 10% to its service (with the version and the deploy it followed, after a rollout) and on a new function that does (in a service read for 12h too), silent on the runtime's and the profiler's own work (rows labelled with their origin), on a function that only got a row of its own, on a service read for an hour, silent at 1%, on a traffic change the function follows, on the other row, on an improvement, on a larger share after an improvement elsewhere or a traffic doubling, inside a function's own noise, and through the nights of a service whose fixed cost is spread over fewer requests.",
		ruleFiles: shippedRules,
		order:     append(append([]string{}, groupOrder...), "hotpath-functions", "hotpath-functions-noise", "hotpath-function-alerts"),
		groups:    []*group{g, nightlyGroup()},
	}
}

// A service with a large fixed cost through its nights, over two days and
// eight hours: 8 req/s by day, 4 at the shoulders (hours 0-2 and 6-8 of each
// day), 2 at night (hours 2-6). Its gc costs 0.125 cores whatever the
// traffic; its other work, 0.125 cores fixed plus 1/32 s a request, is
// spread over hot (1/8) and other (7/8), as a profile spreads a fixed cost
// over the functions that spend it. At night gc's cost per request is four
// times its day's and hot's twice: both far above their day's median +
// 3 spreads and the floor, which alone paged every night. Their shares stay
// inside the reference day's range (gc's highest at night, hot's by day).
func nightlyGroup() *group {
	nightly := inShop("nightly")
	const total = 56 * 60
	g := &group{
		name:    "a service whose fixed cost is spread over fewer requests at night, with a day of history before the judged night",
		comment: "nightly: 8 req/s by day, 4 at hours 0-2 and 6-8, 2 at hours 2-6 of each day; 0.5 cores by day, of which 0.25 fixed.",
	}
	traffic := func(t int) float64 {
		switch h := t / 60 % 24; {
		case h >= 2 && h < 6:
			return 2
		case h < 8:
			return 4
		default:
			return 8
		}
	}
	work := func(t int) float64 { return 0.125 + traffic(t)/32 }
	g.addService(nightly, "nightly's requests and its own counters", timeline{total: total, at: func(t int) rates {
		return rates{traffic(t), 0.125 + work(t), 1048576}
	}})
	row := func(fn string, perSecond func(int) float64) {
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function=%q, instance="bridge:9096", job=%q}`, fn, nightly.job), bridgeRow(total, perSecond))
	}
	row("gc", func(int) float64 { return 0.125 })
	row("hot", func(t int) float64 { return work(t) / 8 })
	row("other", func(t int) float64 { return work(t) * 7 / 8 })

	night := minutes(53 * 60)
	fnSample := func(name, fn string, v float64) sample {
		return sample{labelString(name, map[string]string{"job": nightly.job, "function": fn}), v}
	}
	g.expr("in the second night, gc's and hot's costs per request (4 and 2 times their day's) are at or above their noise thresholds: the per-request condition alone holds",
		`job_function:cpu_seconds_per_request:smoothed{job="nightly", function!="other"} >= on (job, function) last_over_time(job_function:cpu_seconds_per_request:baseline_threshold[30m])`, night,
		fnSample("", "gc", 0.0625), fnSample("", "hot", 0.1875/16))
	g.expr("gc's share at night (0.4) is its reference day's highest, not above it",
		`last_over_time(job_function:cpu_seconds_share:baseline_threshold{job="nightly", function="gc"}[30m]) - on (job, function) job_function:cpu_seconds_share:smoothed`, night,
		fnSample("", "gc", 0))
	g.expr("hot's share at night (0.075) is under its day's (0.09375), so under its threshold",
		`job_function:cpu_seconds_share:smoothed{job="nightly", function="hot"} < 0.09375 and on (job, function) last_over_time(job_function:cpu_seconds_share:baseline_threshold[30m]) >= 0.09375`, night,
		fnSample("job_function:cpu_seconds_share:smoothed", "hot", 0.075))
	g.alert("silent in the second night", night, "FunctionCostPerRequestRegression")
	g.expr("and at no minute of the two days and eight hours does any function of nightly fire",
		fmt.Sprintf(`count_over_time(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="nightly"}[%s])`, minutes(total-1)), minutes(total-1))
	return g
}

// bridgeRow is a bridge counter over `total` minutes that grows perSecond(t)
// at minute t, one series step per run of equal rates.
func bridgeRow(total int, perSecond func(int) float64) string {
	q := &seq{}
	for t := 0; t < total; {
		v := perSecond(t)
		end := t + 1
		for end < total && perSecond(end) == v {
			end++
		}
		q.rate(end-t, v)
		t = end
	}
	return q.String()
}
