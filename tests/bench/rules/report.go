//go:build bench

package rules

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// packs is what render says about the rule packs measured, besides the
// results: each group's shipped interval, the earlier pack's name, and
// whether its groups other than the function groups are today's.
type packs struct {
	shipped    map[string]time.Duration
	before     string
	sameOthers bool
}

func render(results []result, pk packs) string {
	var b strings.Builder
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "# Rule pack benchmark\n\nWritten by `make bench-rules` (tests/bench/rules) on %s: %s, %d cores (shared with other work), %s, Prometheus v0.309.1.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), harness.CPUModel(), runtime.NumCPU(), host)
	b.WriteString("Each fleet: services of 10 instances, 12 input series per instance (4 request counters, process CPU, Go allocations, 6 cAdvisor series) and 2 service-graph edges per service; a day of the recorded job-level series backfilled, inputs scraped live every 15s (6 minutes before measuring, so rate windows read the head); every group evaluating every 15s (the baseline's 5m and the noise groups' 15m shortened so they run often; one evaluation costs the same). Durations are the median of `prometheus_rule_group_last_duration_seconds` over about 10 evaluations. `BENCH_PPROF=DIR` saves a CPU profile of Prometheus for each fleet.\n\n")
	fmt.Fprintf(&b, "**The function rows** (hotpath-profile-metrics, the profile bridge), besides the input series: per service and profile type (CPU, allocations) its top %d functions and `other`, "+
		"scraped live from one bridge instance with the other inputs, each row a fixed cost plus a cost per request of its service (every fourth function fixed-cost only; the rows sum to the service's cost line); "+
		"2-4 of a service's CPU rows labelled `origin=\"runtime\"`. Two days of what the function groups record are backfilled where the rules read them (`functions.go`): the fit's points over 49h (the lagged reference is armed by a point 2d ago), the sampled excess over 31h, the fit and the band 1d ago, "+
		"and the same for the pack the bench compares with (its sampled cost per request and share), so that every function rule does its full work: the bench checks that every CPU function row has a band, a reference fit, and the lagged branches of both.\n\n",
		functionsPerType)
	for _, r := range results {
		f := r.input
		fmt.Fprintf(&b, "## %d input series (%d services)\n\n", f.inputSeries(), f.services)
		fmt.Fprintf(&b, "Function rows: %d (%d per profile type: %d services x %d functions and `other`).\n\n", 2*f.functionRowCount(), f.functionRowCount(), f.services, functionsPerType)
		fmt.Fprintf(&b, "Recorded series: %d. Backfill: %s.\n\n| group | median duration | evaluations |\n|---|---:|---:|\n", r.recorded, r.backfill.Round(time.Second))
		var names []string
		for g := range r.groups {
			if g != floorGroup {
				names = append(names, g)
			}
		}
		sort.Strings(names)
		total, functions := 0.0, 0.0
		for _, g := range names {
			m := median(r.groups[g])
			total += m
			if slices.Contains(functionGroups, g) {
				functions += m
			}
			fmt.Fprintf(&b, "| %s | %.1f ms | %d |\n", g, m*1000, len(r.groups[g]))
		}
		fmt.Fprintf(&b, "| **whole pack** | **%.1f ms** | |\n", total*1000)
		floor := median(r.groups[floorGroup])
		fmt.Fprintf(&b, "| floor (%s: one `sum by (identity labels) (rate(input[5m]))` per input counter, the bridge's two included, `max by (identity labels) (input)` per gauge) | %.1f ms | %d |\n\n", floorGroup, floor*1000, len(r.groups[floorGroup]))
		if floor > 0 {
			verdict := "met"
			if total/floor > 1.5 {
				verdict = "**missed**"
			}
			fmt.Fprintf(&b, "**Pack / floor: %.2fx** (goal <= 1.5x: %s), measured side by side in the same Prometheus and the same run; load average %s on %d cores.\n\n",
				total/floor, verdict, r.load, runtime.NumCPU())
			raw, derived := r.splitByInput()
			fmt.Fprintf(&b, "Where the pack's time goes (sums of each rule's median): the %d rules that read a raw input take %.1f ms (%.2fx the floor); "+
				"the other %d read only recorded series and take %.1f ms, **%.2fx the floor by themselves**: with the inputs read at exactly the floor's cost, "+
				"the pack would still be %.2fx it.\n\n", raw.n, raw.ms, raw.ms/(floor*1000), derived.n, derived.ms, derived.ms/(floor*1000), 1+derived.ms/(floor*1000))
		}
		if len(r.ruler) > 0 {
			prom, ruler := median(r.groups[baselineGroup]), median(r.ruler)
			fmt.Fprintf(&b, "**On Thanos** (%s): %s evaluated by Thanos Ruler through Thanos Query, over a sidecar on this same Prometheus "+
				"(which keeps recording the other groups, so both read the same series), after this Prometheus's figures: **%.1f ms** (median of %d evaluations) "+
				"against %.1f ms evaluated inside Prometheus, **%.1fx**. Every rule of the group is a query through Query's gRPC fan-out.\n\n",
				r.thanos, baselineGroup, ruler*1000, len(r.ruler), prom*1000, ruler/prom)
		}
		inputs := median(r.groups["hotpath-requests-cpu"]) + median(r.groups["hotpath-throttling"])
		baseline := median(r.groups["hotpath-baseline"])
		perMinute, functionsPerMinute := 0.0, 0.0
		for _, g := range names {
			every := pk.shipped[g]
			if every == 0 {
				every = time.Minute
			}
			m := median(r.groups[g]) * time.Minute.Seconds() / every.Seconds()
			perMinute += m
			if slices.Contains(functionGroups, g) {
				functionsPerMinute += m
			}
		}
		fmt.Fprintf(&b, "Reading the inputs (hotpath-requests-cpu and hotpath-throttling read every raw series once) is %.0f%% of the pack, "+
			"the baseline %.0f%%, the function groups %.0f%%. At the shipped intervals (%s) the pack takes %.2f s a minute (%.1f%% of one core; the function groups %.2f s of it), "+
			"%.2fx the floor evaluated every minute.\n\n",
			100*inputs/total, 100*baseline/total, 100*functions/total, shippedIntervals(pk.shipped), perMinute, 100*perMinute/60, functionsPerMinute, perMinute/floor)
		if f.inputSeries() >= 100000 {
			verdict := "met"
			if total > 1 {
				verdict = fmt.Sprintf("**missed**, %.1fx over", total)
			}
			fmt.Fprintf(&b, "Goal: the whole pack within 1 s per evaluation at 100k input series: %.0f ms, %s. "+
				"Reading the raw inputs once (the two groups above) takes %.0f ms by itself.\n\n", total*1000, verdict, inputs*1000)
		}
		pack, floorCPU := r.cpuWith-r.cpuFloorOnly, r.cpuFloorOnly-r.cpuWithout
		fmt.Fprintf(&b, "Wall-clock durations include waiting for a core: the load average while measuring was %s on 2 cores. "+
			"CPU, which waiting does not inflate, over the same 2.5 minutes of polling: Prometheus used %.3f cores with every group; a minute each after a reload, %.3f with the floor's group alone "+
			"and %.3f with no rules (scraping only), so one round of the pack costs **%.0f ms of CPU** (%.3f cores x 15s) and one of the floor %.0f ms: "+
			"**pack / floor by CPU: %.2fx**.\n\n",
			r.load, r.cpuWith, r.cpuFloorOnly, r.cpuWithout, pack*15*1000, pack, floorCPU*15*1000, pack/floorCPU)
		round := func(cores float64) float64 { return (cores - r.cpuFloorOnly) * 15 }
		floorRound := (r.cpuFloorOnly - r.cpuWithout) * 15
		if len(r.cpuAll) > 0 {
			all, without := mean(r.cpuAll), mean(r.cpuNoNoise)
			fmt.Fprintf(&b, "**The noise model's price** (hotpath-noise; %d of %d services with a noise threshold, so it did all of its work): "+
				"quiet minutes after a reload, no API polling, every group then every group but %s (the floor's group loaded with both), %d times over, alternated with the phases below: "+
				"%s cores with every group, %s without the noise group; the floor's group alone %.3f, no rules %.3f (load average %s after these phases). "+
				"One round of the pack costs **%.2f s of CPU with the noise group and %.2f s without it** (the noise group: %.2f s, %.0f%% of the pack); "+
				"the floor's round %.2f s: pack / floor by CPU **%.2fx with, %.2fx without**.\n\n",
				r.noiseThresholds, f.services, noiseGroup, len(r.cpuAll), fmtCores(r.cpuAll), fmtCores(r.cpuNoNoise), r.cpuFloorOnly, r.cpuWithout, r.cpuLoad,
				round(all), round(without), round(all)-round(without), 100*(round(all)-round(without))/round(all),
				floorRound, round(all)/floorRound, round(without)/floorRound)
		}
		if len(r.cpuNoFunctions) > 0 {
			all, without := round(mean(r.cpuAll)), round(mean(r.cpuNoFunctions))
			fmt.Fprintf(&b, "**The function groups' price** (%s; %d of %d CPU function rows but `other` with a band, %d with a reference fit, %d with both lagged branches, so they did all of their work): "+
				"the same phases without them: %s cores. One round of the pack costs **%.2f s of CPU with the function groups and %.2f s without them** (the function groups: %.2f s, %.0f%% of the pack).\n\n",
				strings.Join(functionGroups, ", "), r.functionThresholds, f.services*functionsPerType, r.functionReferences, r.functionLagged,
				fmtCores(r.cpuNoFunctions), all, without, all-without, 100*(all-without)/all)
			if len(r.cpuBefore) > 0 {
				before := round(mean(r.cpuBefore))
				verdict := "goal: within 10%, met"
				if all > 1.1*before {
					verdict = "goal: within 10%, **missed**"
				}
				if r.shipped != nil {
					// the goal is judged as a user runs the packs
					verdict = "every group every 15s, not the goal's measure: see the shipped intervals below"
				}
				others := "its other groups are today's, rule for rule, so this is its whole pack"
				if !pk.sameOthers {
					others = "its other groups differ from today's (groups added or changed since), and today's are measured in their place"
				}
				fmt.Fprintf(&b, "**Against the function rules of %s**: today's pack with %s's function groups in place of its own (rendered from %s's jsonnet with this bench's intervals; %s), loaded in the same Prometheus in the same phases, alternated with the three above: %s cores, "+
					"**%.2f s of CPU a round** (pack / floor %.2fx), against %.2f s for today's pack: **%+.0f%%** (%s). "+
					"The function groups alone: %s's %.2f s a round, today's %.2f s (%+.0f%%).",
					pk.before, pk.before, pk.before, others, fmtCores(r.cpuBefore), before, before/floorRound, all, 100*(all-before)/before, verdict,
					pk.before, before-without, all-without, 100*((all-without)-(before-without))/(before-without))
				if r.beforeReferences >= 0 {
					fmt.Fprintf(&b, " Its noise group recorded a reference for %d of %d CPU function rows.", r.beforeReferences, f.functionRowCount())
				}
				b.WriteString("\n\n")
			}
		}
		if r.shipped != nil {
			renderShipped(&b, *r.shipped, f, pk)
		}
		if len(r.missed) > 0 {
			var parts []string
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range r.missed {
					if !yield(k) {
						return
					}
				}
			}) {
				parts = append(parts, fmt.Sprintf("%s %.0f", k, r.missed[k]))
			}
			fmt.Fprintf(&b, "Evaluations the groups missed (`prometheus_rule_group_iterations_missed_total`: one that outlasts its 15s delays the next, and its CPU is then spread over more than a round): %s.\n\n", strings.Join(parts, ", "))
		}
		for _, e := range r.queryErrors {
			fmt.Fprintf(&b, "Dashboard query failed (not measured): %s\n\n", e)
		}
		type rt struct {
			name string
			d    float64
		}
		var top []rt
		for name, ds := range r.rules {
			top = append(top, rt{name, median(ds)})
		}
		sort.Slice(top, func(i, j int) bool { return top[i].d > top[j].d })
		b.WriteString("The most expensive rules (median evaluation time):\n\n| group / rule | median |\n|---|---:|\n")
		for i := 0; i < len(top) && i < 12; i++ {
			fmt.Fprintf(&b, "| %s | %.1f ms |\n", top[i].name, top[i].d*1000)
		}
		b.WriteString("\n")
		writeFunctionCosts(&b, r, "Today's function rules", r.rules, pk.shipped)
		if len(r.beforeRules) > 0 {
			writeFunctionCosts(&b, r, fmt.Sprintf("The function rules of %s (their times while they were loaded in today's pack in place of its own, about 6 evaluations)", pk.before), r.beforeRules, pk.shipped)
		}
		b.WriteString("Dashboard query, 1h at a 15s step, server-side evaluation time (median of 5):\n\n| query | recorded series | raw series | raw / recorded |\n|---|---:|---:|---:|\n")
		for _, q := range r.queries {
			fmt.Fprintf(&b, "| %s | %.1f ms (`%s`, %d series) | %.1f ms (%d series) | %.0fx |\n", q.name, q.recordedS*1000, q.recorded, q.recordedN, q.rawS*1000, q.rawN, q.rawS/q.recordedS)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// shippedIntervals names the shipped intervals that are not 1m: "the
// baseline's 5m, ...".
func shippedIntervals(shipped map[string]time.Duration) string {
	byInterval := map[time.Duration][]string{}
	for g, d := range shipped {
		if d != time.Minute {
			byInterval[d] = append(byInterval[d], g)
		}
	}
	var parts []string
	for _, d := range slices.Sorted(func(yield func(time.Duration) bool) {
		for d := range byInterval {
			if !yield(d) {
				return
			}
		}
	}) {
		sort.Strings(byInterval[d])
		parts = append(parts, fmt.Sprintf("%s every %s", strings.Join(byInterval[d], ", "), strings.TrimSuffix(strings.TrimSuffix(d.String(), "0s"), "0m")))
	}
	return strings.Join(append(parts, "the rest every 1m"), "; ")
}

// writeFunctionCosts writes a table of the function rules' median times,
// each divided by the function rows it evaluates: the fleet's rows of its
// profile type (`other` included; both types for the alert), and what a
// row of each type costs a minute at the shipped intervals.
func writeFunctionCosts(b *strings.Builder, r result, title string, rules map[string][]float64, shipped map[string]time.Duration) {
	rows := r.input.functionRowCount()
	var names []string
	for name := range rules {
		if slices.Contains(functionGroups, name[:strings.Index(name, " / ")]) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Slice(names, func(i, j int) bool { // fast group, noise group, alerts; each in its order
		gi, gj := slices.Index(functionGroups, names[i][:strings.Index(names[i], " / ")]), slices.Index(functionGroups, names[j][:strings.Index(names[j], " / ")])
		if gi != gj {
			return gi < gj
		}
		return names[i] < names[j]
	})
	fmt.Fprintf(b, "%s, at %d function rows per profile type (%s): median evaluation time over the rows it evaluates.\n\n| group / rule | profile type | median | rows | per row |\n|---|---|---:|---:|---:|\n", title, rows, harness.CPUModel())
	perMinute := map[string]float64{}
	for _, name := range names {
		g := name[:strings.Index(name, " / ")]
		kind, n := "both", 2*rows
		switch {
		case strings.Contains(name, ":cpu_seconds"), strings.Contains(name, ":cpu_halves"):
			kind, n = "cpu", rows
		case strings.Contains(name, ":alloc_bytes"), strings.Contains(name, ":alloc_halves"):
			kind, n = "alloc_space", rows
		}
		d := median(rules[name])
		perRow := d / float64(n) * 1e6
		fmt.Fprintf(b, "| %s | %s | %.1f ms | %d | %.1f µs |\n", name, kind, d*1000, n, perRow)
		every := shipped[g]
		if every == 0 {
			every = time.Minute
		}
		m := perRow * time.Minute.Seconds() / every.Seconds()
		if kind == "both" {
			perMinute["cpu"] += m / 2
			perMinute["alloc_space"] += m / 2
		} else {
			perMinute[kind] += m
		}
	}
	fmt.Fprintf(b, "\nAt the shipped intervals a function row costs %.1f µs a minute of CPU profile and %.1f µs of allocations (the alert's time split evenly between the two).\n\n", perMinute["cpu"], perMinute["alloc_space"])
}
