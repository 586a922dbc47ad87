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
	fresh, moved, newcomer, early, speck := inShop("fresh"), inShop("moved"), inShop("newcomer"), inShop("early"), inShop("speck")
	crumb := inShop("crumb")
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

	// A profile of 1/128 core holds about 230 samples in 5 minutes: too
	// few to judge a function by its share alone.
	requests(speck, "speck: a profile of 1/128 core; marshal, new, adds a quarter of it at onset", flat(8))
	cpuRow(speck, "steady", flat(1.0/256))
	cpuRow(speck, "other", flat(1.0/256))
	fromOnset(speck, "marshal", 1.0/512)

	// api's doubling of hot in a profile of 1/1024 core: about 190 of its
	// samples in the 25 minutes its median reads, +-14 of chance, so its
	// excess (8.2%, far above its floor) is under 4 times the counting noise
	// of its share (13%).
	requests(crumb, "crumb: a profile of 1/1024 core; hot (10% of it) doubles at onset", flat(8))
	cpuRow(crumb, "hot", times(1.0/10240, 2))
	cpuRow(crumb, "other", flat(9.0/10240))

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
		kind, halves, job string
		value             float64
	}{{"cpu_seconds", "cpu", "api", 0.0625 / 8}, {"alloc_bytes", "alloc", "allocs", 16384}} {
		fn := map[string]string{"api": "hot", "allocs": "buf"}[k.job]
		s := map[string]service{"api": api, "allocs": allocs}[k.job]
		last := func(name string) string {
			return fmt.Sprintf("last_over_time(%s{job=%q, function=%q}[30m])", name, k.job, fn)
		}
		smoothed := fmt.Sprintf("job_function:%s_per_request:smoothed", k.kind)
		g.expr("a steady row: its smoothed cost per request at its level", last(smoothed), check, sample{labelString(smoothed, fnLabels(s, fn)), k.value})
		marginal := fmt.Sprintf("job_function:%s_per_request:reference_marginal", k.kind)
		g.expr("its reference model under flat traffic: the plain cost per request of its points, nothing fixed", last(marginal), check, sample{labelString(marginal, fnLabels(s, fn)), k.value})
		fixed := fmt.Sprintf("job_function:%s:reference_fixed", k.kind)
		g.expr("", last(fixed), check, sample{labelString(fixed, fnLabels(s, fn)), 0})
		predicted := fmt.Sprintf("job_function:%s:reference_predicted", k.kind)
		g.expr("the cost it predicts at the current traffic (8 req/s): its row's", predicted+fmt.Sprintf("{job=%q, function=%q}", k.job, fn), check,
			sample{labelString(predicted, fnLabels(s, fn)), k.value * 8})
		sums := fmt.Sprintf("job_function:%s:halves_sum", k.kind)
		g.expr("the fit's sums over the halves it shares with its service: under flat traffic the upper half alone, its cost there", last(sums), check,
			sample{labelString(sums, fnLabels(s, fn)), k.value * 8})
		sums = fmt.Sprintf("job_function:requests:%s_halves_sum", k.halves)
		g.expr("and its service's request rate there", last(sums), check, sample{labelString(sums, fnLabels(s, fn)), 8})
		reqs, upper := "job:requests:function_half_quantile", s.labels()
		upper["half"] = "upper"
		g.expr("its service's req/s at the same quantile of each half, the x of its points: the upper half alone", fmt.Sprintf("last_over_time(%s[30m])", s.sel(reqs)), check,
			sample{labelString(reqs, upper), 8})
		current := fmt.Sprintf("job_function:%s_per_request:baseline_marginal", k.kind)
		g.expr("the model of its current day, the same", last(current), check, sample{labelString(current, fnLabels(s, fn)), k.value})
		current = fmt.Sprintf("job_function:%s:baseline_fixed", k.kind)
		g.expr("", last(current), check, sample{labelString(current, fnLabels(s, fn)), 0})
		for _, points := range []string{"by_half", "half_quantile"} {
			name := fmt.Sprintf("job_function:%s:%s", k.kind, points)
			g.expr("its points: under flat traffic every one in the upper half (the request rate at its median)", last(name), check,
				sample{labelString(name, fnLabels(s, fn, "half", "upper")), k.value * 8})
		}
		ratio := fmt.Sprintf("job_function:%s_excess_share:ratio_rate5m", k.kind)
		g.expr("its excess over the model, each 5m", ratio+fmt.Sprintf("{job=%q, function=%q}", k.job, fn), check, sample{labelString(ratio, fnLabels(s, fn)), 0})
		for _, op := range []string{"smoothed", "smoothed_sampled", "baseline_median", "baseline_spread"} {
			name := fmt.Sprintf("job_function:%s_excess_share:%s", k.kind, op)
			g.expr("no excess over its model: smoothed, sampled, its median and its spread all 0", last(name), check, sample{labelString(name, fnLabels(s, fn)), 0})
		}
		threshold := fmt.Sprintf("job_function:%s_excess_share:baseline_threshold", k.kind)
		g.expr("its threshold: the median (0) plus the materiality floor, 3% of the service (the spread is 0)", last(threshold), check, sample{labelString(threshold, fnLabels(s, fn)), 0.03})
		hold := fmt.Sprintf("job_function:%s_excess_share:baseline_hold", k.kind)
		g.expr("its hold level: half way from the median to the threshold", last(hold), check, sample{labelString(hold, fnLabels(s, fn)), 0.015})
	}
	excess := "job_function:cpu_seconds_excess_share:smoothed"
	g.expr("after onset api's and shipped's hot cost 1/128 s more per request than their models predict: their shares of the profile (0.125 of their services' 0.63125 and 0.6875 cores) above their predicted shares (0.0625 of the 0.625 predicted), less than their extra 0.0625 cores' shares (the service grew with them); lean's steady (big halved: its share rose, its cost did not) and surge's serve (the traffic doubled, its cost followed) none, surge's fixed gc less than predicted (its model, under flat traffic, took it per request)",
		fmt.Sprintf(`%s{function=~"hot|steady|serve|gc", job=~"api|shipped|lean|surge"}`, excess), minutes(at),
		one(excess, api, "hot", shareAbove(0.125/0.63125, 0.0625/0.625)), one(excess, shipped, "hot", shareAbove(0.125/0.6875, 0.0625/0.625)), one(excess, lean, "steady", 0), one(excess, surge, "serve", 0), one(excess, surge, "gc", -0.25/0.875))
	g.expr("gcwork's two rows exceed their thresholds as api's hot does (each doubled, 0.125 of 0.75 cores against 0.0625 of 0.625): only their origin keeps them from being named",
		`job_function:cpu_seconds_excess_share:smoothed{job="gcwork", function!~"serve|other"} >= on (job, function) last_over_time(job_function:cpu_seconds_excess_share:baseline_threshold[30m])`, minutes(at),
		one("", gcwork, "internal/profile.(*profileMerger).mapSample", shareAbove(0.125/0.75, 0.0625/0.625)), one("", gcwork, "runtime.gcBgMarkWorker", shareAbove(0.125/0.75, 0.0625/0.625)))
	g.expr("wavy's excess swings with its wave (+-10% of its service), under a threshold of its own noise, far above the floor",
		`count(last_over_time(job_function:cpu_seconds_excess_share:baseline_threshold{job="noisy"}[30m]) > 0.15)`, minutes(at), sample{"{}", 1})

	lately := "job_function:cpu_seconds:admitted_lately"
	g.expr("the functions the bridge admitted lately, as the model's last round recorded them: the new marshal of fresh, early (a service read for 12h) and speck, and moved's mid (it got a row of its own)",
		fmt.Sprintf(`last_over_time(%s[30m]) == 1`, lately), minutes(at),
		one(lately, fresh, "marshal", 1), one(lately, moved, "mid", 1), one(lately, early, "marshal", 1), one(lately, speck, "marshal", 1))
	g.expr("not a row of a service read for long (api's hot), of a service read for an hour (newcomer's marshal: no other row before it to say it was not read), nor one read for 13h (early's steady)",
		fmt.Sprintf(`last_over_time(%s{job=~"api|newcomer|early", function=~"hot|marshal|steady"}[30m]) == 0`, lately), minutes(at),
		one(lately, api, "hot", 0), one(lately, newcomer, "marshal", 0), one(lately, early, "steady", 0))
	g.expr("nor an allocation row of a service read for long",
		`last_over_time(job_function:alloc_bytes:admitted_lately{job="allocs", function="buf"}[30m])`, minutes(at),
		one("job_function:alloc_bytes:admitted_lately", allocs, "buf", 0))
	g.expr("a function new to a service read for long has a reference of 0 (it had no row of its own): its excess is its share of the profile",
		`last_over_time(job_function:cpu_seconds_per_request:reference_marginal{function=~"marshal|mid"}[30m]) + on (job, function) last_over_time(job_function:cpu_seconds:reference_fixed[30m])`, minutes(at),
		one("", fresh, "marshal", 0), one("", moved, "mid", 0), one("", early, "marshal", 0), one("", speck, "marshal", 0))
	g.expr("marshal's (0.0625 of 0.6875 cores) is above the entry share + the floor (0.04), mid's (0.0375) under it", fmt.Sprintf(`%s{function=~"marshal|mid", job=~"fresh|moved"}`, excess), minutes(at),
		one(excess, fresh, "marshal", 0.0625/0.6875), one(excess, moved, "mid", 0.0375))
	g.expr("speck's new marshal takes 20% of its profile, far above the entry share + the floor, in a profile of 5/512 core, under functionNewMinCores (0.02)", fmt.Sprintf(`%s{job="speck", function="marshal"}`, excess), minutes(at),
		one(excess, speck, "marshal", (1.0/512)/(5.0/512)))

	g.expr("crumb's hot exceeds its model as api's does, but its share rests on some 190 samples: 4 times their counting noise is more than its excess",
		fmt.Sprintf(`%s{job="crumb"} < on (job, function) 4 * sqrt(job_function:cpu_seconds:rate5m * 0.01 / 1500) / on (job) group_left () sum by (job) (job_function:cpu_seconds:rate5m)`, excess), minutes(at),
		one("", crumb, "hot", shareAbove(0.2/1.1, 0.1)))

	busyNode(g, onset+60, total)
	step(g, onset+90, total)

	alerts := func(more string) string {
		return fmt.Sprintf(`ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing"%s}`, more)
	}
	firingAlerts := alerts("")
	g.expr("nothing fires in the clean hours", fmt.Sprintf("count_over_time(%s[%s])", firingAlerts, minutes(onset-1)), minutes(onset-1))
	g.expr("an hour after onset exactly five rows fire, each with its function and profile type, and its service's cluster and namespace from the request rate: api's and shipped's hot (CPU), allocs' buf (allocations) and the new marshal of fresh and of early (a service read for 12h); not moved's mid (a row of its own at the same cost), newcomer's marshal (a service read for an hour has no reference), speck's marshal (a new function in a profile too small to judge one by its share), crumb's hot (a doubling inside the counting noise of its few samples), tiny (+1% of its service, under the 3% floor), better (cheaper), busy (its rows follow the traffic), gcwork's runtime.gcBgMarkWorker and mapSample (the runtime's and the profiler's own work, though each doubles as hot does), spill's other row, noisy's wave, allocs' unchanged CPU, lean's steady (a larger share after an improvement elsewhere) nor surge's serve and gc (a traffic doubling: a larger share, a lower cost per request)",
		firingAlerts, minutes(at),
		sample{labelString("ALERTS", with(allocs.labels(), "function", "buf", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "alloc_space", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(api.labels(), "function", "hot", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(early.labels(), "function", "marshal", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(fresh.labels(), "function", "marshal", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1},
		sample{labelString("ALERTS", with(shipped.labels(), "function", "hot", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1})
	g.expr("and at no minute up to the end does any other row fire",
		fmt.Sprintf(`count_over_time(%s[%s]) unless on (job, function) count_over_time(%s[%[2]s])`, firingAlerts, minutes(total-1-onset), alerts(`, function=~"hot|buf|marshal|internal/poll.\\(\\*FD\\).Write|render|serve", job=~"api|allocs|shipped|fresh|early|lone|leap|churn"`)), minutes(total-1))
	g.expr("marshal stays firing to the end", fmt.Sprintf(`min_over_time((count(%s) or vector(0))[%s:1m])`, alerts(`, function="marshal", job="fresh"`), minutes(total-1-at)), minutes(total-1), sample{"{}", 1})
	g.expr("hot stays firing to the end", fmt.Sprintf(`min_over_time((count(%s) or vector(0))[%s:1m])`, alerts(`, function="hot", job="api"`), minutes(total-1-at)), minutes(total-1), sample{"{}", 1})

	fnFiring := func(s service, fn, kind, value string) firing {
		unit := map[string]string{"cpu": "cpu", "alloc_space": "alloc_space"}[kind]
		return firing{
			labels: with(s.labels(), "function", fn, "profile_type", kind, "severity", "warning"),
			annotations: map[string]string{
				"summary":       "One function costs more than its own cost model predicts at the current traffic, beyond its noise and by a material share of its service.",
				"description":   fmt.Sprintf("%s in %s takes %s more of its service's %s profile than its own cost model (fixed + marginal per request, fitted on 1d of its history up to 1d ago) predicts at the current traffic: beyond its own noise and at least 3%% of the service. Start from that function in the %s diff: its callers tell who calls it more, its callees what it now does.", fn, s.job, value, unit, unit),
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
	g.alert("the value is the excess as a share of the service's profile: for api's and shipped's hot their shares (0.125 of 0.63125 and of 0.6875 cores) above the predicted 10%, for buf 256 KiB of 1.125 MiB/s above the predicted 12.5%, for the new marshal its share (0.0625 of 0.6875: it predicts 0); shipped's hot carries the version it runs and the deploy it followed (an hour and ten minutes ago, inside deployWindow), the others empty version annotations", minutes(at), "FunctionCostPerRequestRegression",
		fnFiring(allocs, "buf", "alloc_space", humanizePercentage(shareAbove(0.25/1.125, 0.125/1.0))), fnFiring(api, "hot", "cpu", humanizePercentage(shareAbove(0.125/0.63125, 0.0625/0.625))), fnFiring(early, "marshal", "cpu", humanizePercentage(0.0625/0.6875)), fnFiring(fresh, "marshal", "cpu", humanizePercentage(0.0625/0.6875)),
		deployed(fnFiring(shipped, "hot", "cpu", humanizePercentage(shareAbove(0.125/0.6875, 0.0625/0.625))), "1.7", "1.6", rollout))
	g.alert("silent before onset", minutes(onset-1), "FunctionCostPerRequestRegression")
	g.expr("shipped's deploy: 1.6 to 1.7, dated when 1.7 first ran", shipped.sel("job:version:rollout_timestamp"), minutes(at),
		sample{labelString("job:version:rollout_timestamp", with(shipped.labels(), "version", "1.7", "previous_version", "1.6")), float64(rollout * 60)})

	return &suite{
		file:      "functions.yaml",
		comment:   "Function rows of hotpath-profile-metrics: cost per request of the service, the lagged noise model, and FunctionCostPerRequestRegression firing on a function that adds 10% to its service (a `for:` after a fivefold step, without waiting for the median; never on a 5-minute one) (with the version and the deploy it followed, after a rollout) and on a new function that does (in a service read for 12h too), silent on the runtime's and the profiler's own work (rows labelled with their origin), on a function that only got a row of its own, on a service read for an hour, silent at 1%, on a traffic change the function follows, on the other row, on an improvement, on a larger share after an improvement elsewhere or a traffic doubling, inside a function's own noise, and through the nights of a service whose fixed cost is spread over fewer requests.",
		ruleFiles: shippedRules,
		order:     append(append([]string{}, groupOrder...), "hotpath-functions", "hotpath-functions-model", "hotpath-functions-noise", "hotpath-function-alerts"),
		groups:    []*group{g, nightlyGroup()},
	}
}

// nightTraffic is the nightly services' day: 8 req/s by day, 4 at the
// shoulders (hours 0-2 and 6-8 of each day), 2 at night (hours 2-6).
func nightTraffic(t int) float64 {
	switch h := t / 60 % 24; {
	case h >= 2 && h < 6:
		return 2
	case h < 8:
		return 4
	default:
		return 8
	}
}

// A service with a large fixed cost through its nights, over two days and
// eight hours (nightTraffic). Its gc costs 0.125 cores whatever the traffic;
// its other work, 0.125 cores fixed plus 1/32 s a request, is spread over
// hot (1/8) and other (7/8), as a profile spreads a fixed cost over the
// functions that spend it. At night gc's cost per request is four times its
// day's and hot's twice, which alone paged every night; each function's
// cost model (fixed + marginal per request, fitted on its own day) predicts
// both at any traffic, so neither has an excess.
func nightlyGroup() *group {
	nightly := inShop("nightly")
	const total = 56 * 60
	g := &group{
		name:    "a service whose fixed cost is spread over fewer requests at night, with a day of history before the judged night",
		comment: "nightly: 8 req/s by day, 4 at hours 0-2 and 6-8, 2 at hours 2-6 of each day; 0.5 cores by day, of which 0.25 fixed.",
	}
	work := func(t int) float64 { return 0.125 + nightTraffic(t)/32 }
	g.addService(nightly, "nightly's requests and its own counters", timeline{total: total, at: func(t int) rates {
		return rates{nightTraffic(t), 0.125 + work(t), 1048576}
	}})
	row := func(fn string, perSecond func(int) float64) {
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function=%q, instance="bridge:9096", job=%q}`, fn, nightly.job), bridgeRow(total, perSecond))
	}
	row("gc", func(int) float64 { return 0.125 })
	row("hot", func(t int) float64 { return work(t) / 8 })
	row("other", func(t int) float64 { return work(t) * 7 / 8 })

	nightOnset(g, quietNight(g)...)

	night := minutes(53 * 60)
	fnSample := func(name, fn string, v float64) sample {
		return sample{labelString(name, map[string]string{"job": nightly.job, "function": fn}), v}
	}
	g.expr("in the second night, gc's and hot's costs per request are 4 and 2 times their day's",
		`job_function:cpu_seconds_per_request:smoothed{job="nightly", function!="other"}`, night,
		fnSample("job_function:cpu_seconds_per_request:smoothed", "gc", 0.0625), fnSample("job_function:cpu_seconds_per_request:smoothed", "hot", 0.1875/16))
	g.expr("their models, fitted on the day before: gc all fixed (0.125 cores), hot 1/64 core fixed and 1/256 s a request",
		`last_over_time(job_function:cpu_seconds:reference_fixed{job="nightly", function!="other"}[30m])`, night,
		fnSample("job_function:cpu_seconds:reference_fixed", "gc", 0.125), fnSample("job_function:cpu_seconds:reference_fixed", "hot", 1.0/64))
	g.expr("", `last_over_time(job_function:cpu_seconds_per_request:reference_marginal{job="nightly", function!="other"}[30m])`, night,
		fnSample("job_function:cpu_seconds_per_request:reference_marginal", "gc", 0), fnSample("job_function:cpu_seconds_per_request:reference_marginal", "hot", 1.0/256))
	g.expr("so at night neither has an excess over its model",
		`job_function:cpu_seconds_excess_share:smoothed{job="nightly", function!="other"}`, night,
		fnSample("job_function:cpu_seconds_excess_share:smoothed", "gc", 0), fnSample("job_function:cpu_seconds_excess_share:smoothed", "hot", 0))
	g.expr("and at no minute of the two days and eight hours does any function of nightly fire",
		fmt.Sprintf(`count_over_time(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="nightly"}[%s])`, minutes(total-1)), minutes(total-1))
	return g
}

// A regression that starts in the nightly trough: serve, all of its cost
// per request (1/32 s), costs 50% more per request from hour 51 (3 a.m. of
// the third day, 2 req/s). Beside a fixed gc of 0.25 cores serve holds 20%
// of the profile at night and 36% by day, and still 27% after it
// regressed: under the day's highest share, the condition before the cost
// model waited for the morning. Against its own model the regression is an
// excess of 7% of the service at once. In nightly's group (the same day).
func nightOnset(g *group, also ...firing) {
	const (
		onset = 51 * 60
		total = 56 * 60
	)
	shift := addServeRegression(g, "nightshift", nightTraffic, 0.25, onset, 1.5, total)
	fnSample := func(name, fn string, v float64) sample {
		return sample{labelString(name, map[string]string{"job": shift.job, "function": fn}), v}
	}
	g.expr("40 minutes after the onset serve's excess is its share of the profile (0.09375 of 0.4375 cores) above the share its model predicts at 2 req/s (0.0625 of the 0.40625 its rows' models predict): less than its extra 1/32 core's share of the service (the profile grew with it)",
		`job_function:cpu_seconds_excess_share:smoothed{job="nightshift", function="serve"}`, minutes(onset+40),
		fnSample("job_function:cpu_seconds_excess_share:smoothed", "serve", shareAbove(0.09375/0.4375, 0.0625/0.40625)))
	g.expr("while its share of the profile (27%) is under the day's (36%)",
		`job_function:cpu_seconds:rate5m{job="nightshift", function="serve"} / on (job) group_left () sum by (job) (job_function:cpu_seconds:rate5m) < 0.3`, minutes(onset+40),
		fnSample("", "serve", 0.09375/0.4375))
	g.alert("serve fires within the hour of its night onset, its value the excess (beside quietshift's and quietstart's serve, in their quiet night)", minutes(onset+40), "FunctionCostPerRequestRegression",
		append([]firing{serveFiring(shift, shareAbove(0.09375/0.4375, 0.0625/0.40625))}, also...)...)
	g.expr("and no function of nightshift fires before the onset, through the first night",
		fmt.Sprintf(`count_over_time(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="nightshift"}[%s])`, minutes(onset-1)), minutes(onset-1))
	g.expr("serve stays firing to the end, into the day",
		fmt.Sprintf(`min_over_time((count(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="nightshift", function="serve"}) or vector(0))[%s:1m])`, minutes(total-1-onset-40)), minutes(total-1), sample{"{}", 1})
}

// quietTraffic is nightTraffic with a night under minRequestRate: 0.5 req/s
// at hours 2-6.
func quietTraffic(t int) float64 {
	if h := t / 60 % 24; h >= 2 && h < 6 {
		return 0.5
	}
	return nightTraffic(t)
}

// Regressions in a night quieter than minRequestRate. In quietshift, serve
// (1/32 s a request, beside a fixed gc of 0.125 cores) costs twice as much
// from 00:30 of the third day (4 req/s): it is named within the hour, and at
// 0.5 req/s from 2 a.m. to 6 a.m. it still costs twice its model, an excess
// above its hold level: the page holds through the night instead of
// resolving at 2 a.m. and paging again at 6. In quietstart the same change
// begins at 3 a.m., inside the quiet night: the function alert judges
// shares of the profile, not a ratio to the request count, so it names it
// within the hour, at 0.5 req/s, not in the morning. In nightly's group
// (the same days); returns both pages at 3:40 a.m. (nightshift's assertion
// lists every page).
func quietNight(g *group) []firing {
	const total = 56 * 60
	regressed := func(name string, onset int) service {
		return addServeRegression(g, name, quietTraffic, 0.125, onset, 2, total)
	}
	firingServe := func(job string) string {
		return fmt.Sprintf(`(count(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job=%q, function="serve"}) or vector(0))`, job)
	}
	const holdOnset = 48*60 + 30
	regressed("quietshift", holdOnset)
	g.expr("at 0.5 req/s serve's excess is its share of the profile (1/32 of 0.2265625 cores) above the share its model predicts (1/64 of the 0.2109375 its rows' models predict): above its hold level",
		`job_function:cpu_seconds_excess_share:smoothed{job="quietshift", function="serve"}`, minutes(52*60),
		sample{labelString("job_function:cpu_seconds_excess_share:smoothed", map[string]string{"job": "quietshift", "function": "serve"}), shareAbove(0.03125/0.2265625, 0.015625/0.2109375)})
	g.expr("quietshift's serve is named within the hour of its onset and stays firing through the quiet night to the end",
		fmt.Sprintf(`min_over_time(%s[%s:1m])`, firingServe("quietshift"), minutes(total-1-holdOnset-45)), minutes(total-1), sample{"{}", 1})
	const quietOnset = 51 * 60
	regressed("quietstart", quietOnset)
	g.expr("quietstart's serve is named within 40 minutes of its onset at 0.5 req/s, and stays firing to the end",
		fmt.Sprintf(`min_over_time(%s[%s:1m])`, firingServe("quietstart"), minutes(total-1-quietOnset-40)), minutes(total-1), sample{"{}", 1})
	g.expr("and not before its onset",
		fmt.Sprintf(`max_over_time(%s[%s:1m])`, firingServe("quietstart"), minutes(quietOnset-1)), minutes(quietOnset-1), sample{"{}", 0})
	excess := shareAbove(0.03125/0.2265625, 0.015625/0.2109375)
	return []firing{serveFiring(inShop("quietshift"), excess), serveFiring(inShop("quietstart"), excess)}
}

// addServeRegression adds a service of the night groups: at traffic(t)
// req/s, a fixed gc of gc cores, serve at 1/32 s a request (times factor
// from onset) and other at 1/16 core plus 1/64 s a request, as its own
// counters and the bridge's three rows.
func addServeRegression(g *group, job string, traffic func(int) float64, gc float64, onset int, factor float64, total int) service {
	s := inShop(job)
	serve := func(t int) float64 {
		v := traffic(t) / 32
		if t >= onset {
			v *= factor
		}
		return v
	}
	other := func(t int) float64 { return 0.0625 + traffic(t)/64 }
	g.addService(s, job+"'s requests and its own counters", timeline{total: total, at: func(t int) rates {
		return rates{traffic(t), gc + serve(t) + other(t), 1048576}
	}})
	for _, r := range []struct {
		fn        string
		perSecond func(int) float64
	}{{"gc", func(int) float64 { return gc }}, {"serve", serve}, {"other", other}} {
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function=%q, instance="bridge:9096", job=%q}`, r.fn, s.job), bridgeRow(total, r.perSecond))
	}
	return s
}

// serveFiring is the page for a night service's serve, its value the excess.
func serveFiring(s service, excess float64) firing {
	return firing{
		labels: with(s.labels(), "function", "serve", "profile_type", "cpu", "severity", "warning"),
		annotations: map[string]string{
			"summary":          "One function costs more than its own cost model predicts at the current traffic, beyond its noise and by a material share of its service.",
			"description":      fmt.Sprintf("serve in %s takes %s more of its service's cpu profile than its own cost model (fixed + marginal per request, fitted on 1d of its history up to 1d ago) predicts at the current traffic: beyond its own noise and at least 3%% of the service. Start from that function in the cpu diff: its callers tell who calls it more, its callees what it now does.", s.job, humanizePercentage(excess)),
			"runbook_url":      runbookURL + "functioncostperrequestregression",
			"dashboard_url":    s.dashboard() + "&var-function=serve",
			"version":          "",
			"previous_version": "",
			"rollout_time":     "",
		},
	}
}

// A busy node for an hour: from hour 32, the runtime's own row
// (runtime.findRunnable, labelled origin="runtime" by the bridge) and the
// service's syscall-heavy write cost 2.5 times as much, as on a node short
// of CPU; write's excess is far above its threshold, and its runtime's rose
// with it, so no function is named. Beside it, lone: the same write
// doubling on a calm node (its runtime's row unchanged), a code change.
// In the suite's first group, from an hour after its onset: both serve 8
// req/s on 0.625 cores (runtime.findRunnable 10%, write 10%, serve 30%,
// other 50%). And churn, on the same 8 req/s and 0.625 cores: its code
// changes for that hour, serve (20%) three times as dear and its GC worker
// (20%) 1.5 times, as a change that allocates more makes the GC work: the
// GC worker's cost rises as on a busy node, but its share of the profile
// stays, and serve's doubles.
func busyNode(g *group, from, total int) {
	crowded, lone := inShop("crowded"), inShop("lone")
	busy := func(t int) bool { return t >= from && t < from+60 }
	for _, s := range []service{crowded, lone} {
		s := s
		factor := func(t int) float64 {
			if busy(t) {
				return 2.5
			}
			return 1
		}
		runtimeRow := func(t int) float64 {
			if s == crowded {
				return 0.0625 * factor(t)
			}
			return 0.0625
		}
		write := func(t int) float64 { return 0.0625 * factor(t) }
		g.addService(s, s.job+"'s requests and its own counters", timeline{total: total, at: func(t int) rates {
			return rates{8, 0.5 + runtimeRow(t) + write(t), 1048576}
		}})
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="runtime.findRunnable", instance="bridge:9096", job=%q, origin="runtime"}`, s.job), bridgeRow(total, runtimeRow))
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="internal/poll.(*FD).Write", instance="bridge:9096", job=%q}`, s.job), bridgeRow(total, write))
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="serve", instance="bridge:9096", job=%q}`, s.job), bridgeRow(total, func(int) float64 { return 0.1875 }))
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="other", instance="bridge:9096", job=%q}`, s.job), bridgeRow(total, func(int) float64 { return 0.3125 }))
	}
	at := minutes(from + 45)
	g.expr("45 minutes into the hour write's excess is far above its threshold on both",
		`job_function:cpu_seconds_excess_share:smoothed{function="internal/poll.(*FD).Write"} >= on (job, function) last_over_time(job_function:cpu_seconds_excess_share:baseline_threshold[30m])`, at,
		sample{labelString("", map[string]string{"job": crowded.job, "function": "internal/poll.(*FD).Write"}), shareAbove(0.15625/0.8125, 0.0625/0.625)},
		sample{labelString("", map[string]string{"job": lone.job, "function": "internal/poll.(*FD).Write"}), shareAbove(0.15625/0.71875, 0.0625/0.625)})
	g.expr("and on crowded the runtime's row rose as much: a busy node",
		`job_function:cpu_seconds_excess_share:smoothed{function="runtime.findRunnable"} > 0.03`, at,
		sample{labelString("job_function:cpu_seconds_excess_share:smoothed", map[string]string{"job": crowded.job, "function": "runtime.findRunnable"}), shareAbove(0.15625/0.8125, 0.0625/0.625)})
	g.expr("lone's write fires (a code change: its runtime's row did not move); crowded's does not",
		`ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job=~"crowded|lone"}`, at,
		sample{labelString("ALERTS", with(lone.labels(), "function", "internal/poll.(*FD).Write", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1})
	churn := inShop("churn")
	churnFactor := func(t int, f float64) float64 {
		if busy(t) {
			return f
		}
		return 1
	}
	gc := func(t int) float64 { return 0.125 * churnFactor(t, 1.5) }
	serve := func(t int) float64 { return 0.125 * churnFactor(t, 3) }
	g.addService(churn, "churn's requests and its own counters", timeline{total: total, at: func(t int) rates {
		return rates{8, 0.375 + gc(t) + serve(t), 1048576}
	}})
	g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="runtime.gcBgMarkWorker", instance="bridge:9096", job=%q, origin="runtime"}`, churn.job), bridgeRow(total, gc))
	g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="serve", instance="bridge:9096", job=%q}`, churn.job), bridgeRow(total, serve))
	g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="other", instance="bridge:9096", job=%q}`, churn.job), bridgeRow(total, func(int) float64 { return 0.375 }))
	g.expr("churn: a code change that makes the runtime work too (serve three times as dear, its GC worker 1.5 times): the GC worker's cost rose with the profile's, its share (0.1875 of 0.9375 cores) is the 20% predicted, no busy node",
		`job_function:cpu_seconds_excess_share:smoothed{job="churn", function="runtime.gcBgMarkWorker"}`, at,
		sample{labelString("job_function:cpu_seconds_excess_share:smoothed", map[string]string{"job": churn.job, "function": "runtime.gcBgMarkWorker"}), 0})
	g.expr("serve's share rose from 20% to 40%: it fires",
		`ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="churn"}`, at,
		sample{labelString("ALERTS", with(churn.labels(), "function", "serve", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1})
	g.expr("and at no minute does any function of crowded fire, through the busy hour and after it",
		fmt.Sprintf(`count_over_time(ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job="crowded"}[%s])`, minutes(total-1)), minutes(total-1))
}

// A step: from minute `from`, leap's render costs five times as much
// (0.125 to 0.625 cores: an excess of 0.5 of the service's 1.125), past
// functionStepShare a minute after it, so the alert is pending from then
// and fires a `for:` later, 16 minutes after the step; the excess's median
// crosses only once the step fills half its 20m window, which alone would
// take 25. blip's render is as dear for 5 minutes only: past the step share
// for fewer minutes than a `for:`, and in too few minutes of the median's
// windows; it never fires. Both serve 8 req/s.
func step(g *group, from, total int) {
	leap, blip := inShop("leap"), inShop("blip")
	for _, s := range []service{leap, blip} {
		s := s
		render := func(t int) float64 {
			if t >= from && (s == leap || t < from+5) {
				return 0.625
			}
			return 0.125
		}
		g.addService(s, s.job+"'s requests and its own counters", timeline{total: total, at: func(t int) rates {
			return rates{8, 0.5 + render(t), 1048576}
		}})
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="render", instance="bridge:9096", job=%q}`, s.job), bridgeRow(total, render))
		g.add("", fmt.Sprintf(`hotpath_profile_cpu_seconds_total{function="other", instance="bridge:9096", job=%q}`, s.job), bridgeRow(total, func(int) float64 { return 0.5 }))
	}
	firing := func(job string) string {
		return fmt.Sprintf(`ALERTS{alertname="FunctionCostPerRequestRegression", alertstate="firing", job=%q}`, job)
	}
	g.expr("leap's render fires 16 minutes after its step, before its median excess has been above its threshold for a `for:`",
		firing("leap"), minutes(from+16),
		sample{labelString("ALERTS", with(leap.labels(), "function", "render", "alertname", "FunctionCostPerRequestRegression", "alertstate", "firing", "profile_type", "cpu", "severity", "warning")), 1})
	g.expr("it was not firing a minute before (pending from a minute after the step)", firing("leap"), minutes(from+15))
	g.expr("its minute's excess at the end: its share (0.625 of 1.125 cores) above the 20% predicted",
		`job_function:cpu_seconds_excess_share:ratio_rate5m{job="leap"}`, minutes(total-1),
		sample{labelString("job_function:cpu_seconds_excess_share:ratio_rate5m", map[string]string{"job": leap.job, "function": "render"}), shareAbove(0.625/1.125, 0.125/0.625)})
	g.expr("and blip's render, five times as dear for 5 minutes, never fires",
		fmt.Sprintf(`count_over_time(%s[%s])`, firing("blip"), minutes(total-1)), minutes(total-1))
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

// shareAbove is a function's excess where its share of the profile rose
// past the share its model predicts: the two shares subtracted in float64
// as the rules do (Go's constant arithmetic is exact and would differ in
// the last digit).
func shareAbove(share, predicted float64) float64 { return share - predicted }
