//go:build bench

package detection

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

var functionDetectorNames = map[string]string{
	DetectorService:  "service alerts",
	DetectorFunction: "function alert",
}

// functionRun is what one run of the function benchmark judged.
type functionRun struct {
	fleet []FuncService
	seed  uint64
	fixed [2]float64
	// by detector, then size class (-1: all): the false alarms, over the
	// whole fleet
	all map[string]map[int]Verdict
	// by the regressed function being new, then as all: the regressions
	regressions map[bool]map[string]map[int]Verdict
	seen        map[string]map[string]map[string]Seen
	entries     map[string][]Entry // by job: the bridge's set beyond the static top K
	info        runInfo
}

// youngFor are the ages at which FunctionCostPerRequestRegression judges a
// function's row as a newcomer's: one without a sample of its own that long
// ago, in a service whose `other` row has one then, is judged against
// having cost under the entry share before: regressionAcceptAfter + its
// regressionNoiseMinHistory (1d + 6h), or, in a service read for less,
// regressionNoiseMinHistory.
var youngFor = []time.Duration{30 * time.Hour, 6 * time.Hour}

// renderFunctions writes RESULTS-functions.md: per regression (of an
// existing function, of a new one) and size class, the service alerts
// beside the function alert; the bridge's set; false alarms; each
// regressed service's outcome.
func renderFunctions(run functionRun) string {
	var b strings.Builder
	fleet := run.fleet
	existing, fresh, clean := 0, 0, 0
	for _, s := range fleet {
		switch {
		case s.Kind == "":
			clean++
		case s.New:
			fresh++
		default:
			existing++
		}
	}
	b.WriteString(run.info.heading("Function regression benchmark", "`make bench-functions` (tests/bench/detection, `functions*.go`, `membership.go`)"))
	fmt.Fprintf(&b, "**The fleet** (seed %d, `functions.go`): %d services over %d days, one sample a minute, in the real Prometheus; the rules evaluated over those days by `promtool tsdb create-blocks-from rules`, as `make bench-detection` does (RESULTS-detection.md: the same traffic, noise, deploys and traffic doublings). "+
		"Each service's mean CPU over the day is drawn in its size class (%s), %.0f-%.0f%% of it fixed, the rest per request (peak 5-300 req/s); it allocates 20-200 MiB per CPU second. "+
		"Its profiles: 30-3000 functions (log-uniform) with Zipf shares of the day's self cost (exponent 0.9-1.3; CPU and allocations ranked apart). "+
		"**The fixed cost sits in functions of its own** (`FixedParts`): a random set of functions whose day's shares fit within the service's fixed share is wholly fixed-cost (GC, timers), the rest of the fixed share spread evenly over the others; each minute a function's share follows the minute's fixed share of the cost, so fixed-cost functions gain share at night. "+
		"Each minute the CPU profile takes Poisson(CPU seconds x %d) samples (%d Hz) and the allocation profile Poisson(bytes / %d KiB) samples (Go's MemProfileRate), drawn per function at its share of that minute; "+
		"the bridge's rows as hotpath-profile-metrics exports them, counters of CPU seconds and allocated bytes labelled job and function, from hour %d (a deploy's missed minute has no samples).\n\n",
		run.seed, len(fleet), days, classList(), run.fixed[0]*100, run.fixed[1]*100, CPUSampleHz, CPUSampleHz, AllocSampleBytes>>10, int(profilesFrom.Hours()))
	fmt.Fprintf(&b, "**The bridge's set** (`membership.go`, per service and profile type, minute by minute, on the sampled counts above as the bridge sees them): the top %d functions by the day's generated shares are members from the start and stay; "+
		"besides them, a function whose %g-minute-decayed share of its service's sampled total reaches %g enters at once (once the set has seen one window), with that minute's samples in its own row (before, its cost is in `other`), and stays while it reached %g within a day; %d members at most (newcomers wait for a place, the costliest first). "+
		"Not modelled: the day-decayed ranking beyond the static top K (a function that entered by the fast path renews only by it), the bound of the bridge's short-decayed map.\n\n",
		TopK, BridgeEntry.WindowMins, BridgeEntry.Share, BridgeEntry.Share, BridgeEntry.MaxMembers)
	fmt.Fprintf(&b, "**The regressions**, at a random minute of an onset hour of day %d (hours spread over 0, 2, ..., 22), to the end, each +5%%, +10%% or +20%% of the service's CPU per request or allocations per request (the service's own counters rise by the same): "+
		"%d of an **existing function** (of the top %d, the one whose share is nearest the regression's size: one that doubles, or about), %d per kind, size and class; "+
		"%d of a **new function** (`%s`: no cost before the onset, not among the service's functions; its cost in `other` until the set lets it in), %d per kind, size and class. %d services stay clean (%d per class). "+
		"The fast entry raises a service's rows from 42 (the static top K and `other`, two profile types) to up to %d.\n\n",
		int(onsetDay.Hours())/24+1, existing, TopK, servicesPerCell(fleet, false), fresh, NewFunction, servicesPerCell(fleet, true), clean, clean/len(SizeClasses), 2*(BridgeEntry.MaxMembers+1))
	fmt.Fprintf(&b, "**Judged** as in RESULTS-detection.md: from hour %d to the end, the alerts' `for:` %s applied to each condition as Prometheus does, and their `keep_firing_for` (service alerts %s with their hold level, function alert %s). "+
		"Detected: the service alert of the regressed cost, or **the function alert naming the regressed function** with that profile type, fires at or after the onset. Coverage and episodes over the regression's first %s. "+
		"False alarm: any of the detector's alerts (any function, either type) firing on a service before its regression (any time on a clean one).\n\n",
		int(judgedFrom.Hours()), forDuration, shortDuration(keepFor[DetectorService]), shortDuration(keepFor[DetectorFunction]), held)

	classes := []int{0, 1, 2}
	head := func(first string) {
		fmt.Fprintf(&b, "| %s |", first)
		for _, c := range classes {
			for _, d := range FunctionDetectors {
				fmt.Fprintf(&b, " %s, %s |", SizeClasses[c].Name, functionDetectorNames[d])
			}
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(classes)*len(FunctionDetectors)) + "\n")
	}
	rows := func(cell func(c *Cell) string) {
		for _, isNew := range []bool{false, true} {
			for _, kind := range []string{KindCPU, KindAlloc} {
				for _, size := range FunctionSizes {
					fmt.Fprintf(&b, "| +%.0f%% %s, %s |", (size-1)*100, kindName(kind), functionCase(isNew))
					for _, c := range classes {
						for _, d := range FunctionDetectors {
							fmt.Fprintf(&b, " %s |", cell(run.regressions[isNew][d][c].Cells[kind][size]))
						}
					}
					b.WriteString("\n")
				}
			}
		}
	}
	b.WriteString("## Detection (within an hour / by the end) and median time to detect\n\n")
	head("regression")
	rows(func(c *Cell) string {
		ttd := "-"
		if c.Detected > 0 {
			ttd = "0m"
			if m := c.MedianTTD().Round(time.Minute); m > 0 {
				ttd = shortDuration(m)
			}
		}
		return fmt.Sprintf("%d/%d / %d/%d, %s", c.WithinHour, c.Injected, c.Detected, c.Injected, ttd)
	})
	b.WriteString("\n## Holding over the regression's first day\n\nEach cell: detected within the hour / injected; coverage lowest and median; most episodes; the onset hours where it was not held (within the hour, coverage >= 95%, one episode; `-` none).\n\n")
	head("regression")
	rows(func(c *Cell) string { return holdSummary(c.Held) })

	b.WriteString(renderSet(run))
	b.WriteString(renderFalseAlarms(run, classes))

	b.WriteString("\n**Smallest regression caught within the hour on every service that had it**, by size class, beside the false alarms of that class:\n\n")
	for _, d := range FunctionDetectors {
		for _, c := range classes {
			var parts []string
			for _, isNew := range []bool{false, true} {
				for _, kind := range []string{KindCPU, KindAlloc} {
					got := "none"
					for _, size := range FunctionSizes {
						if cell := run.regressions[isNew][d][c].Cells[kind][size]; cell.Injected > 0 && cell.WithinHour == cell.Injected {
							got = fmt.Sprintf("+%.0f%%", (size-1)*100)
							break
						}
					}
					parts = append(parts, fmt.Sprintf("%s %s (%s)", got, kindName(kind), functionCase(isNew)))
				}
			}
			fmt.Fprintf(&b, "- %s, %s: %s; %d false alarms\n", functionDetectorNames[d], SizeClasses[c].Name, strings.Join(parts, ", "), run.all[d][c].FalseAlarms)
		}
	}

	b.WriteString("\n## Each regression\n\n| service | class | cores | functions | regression | function (its share before) | in the set | onset hour | service alerts: detected after | function alert: detected after | function alert: coverage, episodes |\n|---|---|---:|---:|---|---|---|---:|---:|---:|---|\n")
	for _, s := range fleet {
		if s.Kind == "" {
			continue
		}
		ttd := func(d, key string) string {
			firing := firingMinutes(run.seen[d][s.Job][key], keepFor[d])
			onset := int(s.Onset / time.Minute)
			if i, _ := slices.BinarySearch(firing, onset); i < len(firing) {
				if firing[i] == onset {
					return "0 (firing at the onset)"
				}
				return shortDuration(time.Duration(firing[i]-onset) * time.Minute)
			}
			return "-"
		}
		h := holdOf(run.regressions[s.New][DetectorFunction][-1], s)
		fmt.Fprintf(&b, "| %s | %s | %.2f | %d | +%.0f%% %s | %s (%.1f%%) | %s | %02d | %s | %s | %.0f%%, %d |\n", s.Job, SizeClasses[s.Class].Name, s.Cores, s.Functions, (s.Size-1)*100, kindName(s.Kind), s.Regressed, 100*s.RegressedShare(), inSet(run, s), s.OnsetHour,
			ttd(DetectorService, s.Kind), ttd(DetectorFunction, s.Kind+"/"+s.Regressed), h.Coverage*100, h.Episodes)
	}
	return b.String()
}

// functionCase names a regression's function: an existing one or a new one.
func functionCase(isNew bool) string {
	if isNew {
		return "new function"
	}
	return "existing function"
}

// inSet is when the regressed function had a row of its own: a static
// member's from the start; a new one's, the time from its onset to its
// entry.
func inSet(run functionRun, s FuncService) string {
	if !s.New {
		if s.rank < TopK {
			return "static"
		}
		return "?"
	}
	for _, e := range run.entries[s.Job] {
		if e.Kind == s.Kind && e.Function == s.Regressed && e.From >= int(s.Onset/time.Minute) {
			if e.From == int(s.Onset/time.Minute) {
				return "at its onset"
			}
			return "after " + shortDuration(time.Duration(e.From-int(s.Onset/time.Minute))*time.Minute)
		}
	}
	return "never"
}

// renderSet is the bridge's set: the functions that entered it by the fast
// path (the regressed new functions apart), by size class and by the hour
// of the day they entered at, and the most members at once.
func renderSet(run functionRun) string {
	var b strings.Builder
	b.WriteString("\n## The bridge's set\n\nFunctions that entered by the fast path, beyond the static top K (the regressed new functions not counted; a re-entry counts again), per service-day of profiles; the hours of the day they entered at (the traffic's low is at hours 2-6); the most members of one profile type at once (the static ones included), median and highest over the class's services.\n\n| size class | services | entries | per service-day |")
	for h := 0; h < 24; h += 4 {
		fmt.Fprintf(&b, " %02d-%02d |", h, h+4)
	}
	b.WriteString(" most members, median / highest |\n|---|---:|---:|---:|" + strings.Repeat("---:|", 6) + "---|\n")
	profileDays := float64(days) - profilesFrom.Hours()/24
	for class := range SizeClasses {
		services, entries := 0, 0
		var byHour [6]int
		var most []int
		for _, s := range run.fleet {
			if s.Class != class {
				continue
			}
			services++
			for _, e := range run.entries[s.Job] {
				if e.Function == NewFunction {
					continue
				}
				entries++
				byHour[(e.From/60)%24/4]++
			}
			most = append(most, mostMembers(run.entries[s.Job], min(TopK, s.Functions)))
		}
		if services == 0 {
			continue
		}
		slices.Sort(most)
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f |", SizeClasses[class].Name, services, entries, float64(entries)/(float64(services)*profileDays))
		for _, n := range byHour {
			fmt.Fprintf(&b, " %d |", n)
		}
		fmt.Fprintf(&b, " %d / %d |\n", most[len(most)/2], most[len(most)-1])
	}
	return b.String()
}

// mostMembers is the most members of one profile type at once: the static
// ones and the entries open at the same minute.
func mostMembers(entries []Entry, static int) int {
	most := static
	for _, kind := range []string{KindCPU, KindAlloc} {
		delta := map[int]int{}
		for _, e := range entries {
			if e.Kind != kind {
				continue
			}
			delta[e.From]++
			if e.To >= 0 {
				delta[e.To]--
			}
		}
		n := static
		for _, at := range slices.Sorted(maps.Keys(delta)) {
			n += delta[at]
			most = max(most, n)
		}
	}
	return most
}

// renderFalseAlarms is the false alarms by detector and size class, by
// the hour of the day, and each one: its service, time and series, and for
// the function alert whether its function was judged as a newcomer.
func renderFalseAlarms(run functionRun, classes []int) string {
	var b strings.Builder
	b.WriteString("\n## False alarms\n\n| detector | size class | false alarms | service-days judged clean | per service-day | services with any |\n|---|---|---:|---:|---:|---:|\n")
	for _, d := range FunctionDetectors {
		for _, c := range append([]int{-1}, classes...) {
			name := "all"
			if c >= 0 {
				name = SizeClasses[c].Name
			}
			x := run.all[d][c]
			fmt.Fprintf(&b, "| %s | %s | %d | %.1f | %.3f | %d |\n", functionDetectorNames[d], name, x.FalseAlarms, x.CleanDays, float64(x.FalseAlarms)/x.CleanDays, len(x.FalseByJob))
		}
	}
	b.WriteString("\nFalse alarms by the hour of the day they began at (the traffic's low is at hours 2-6):\n\n| detector |")
	for h := 0; h < 24; h += 2 {
		fmt.Fprintf(&b, " %02d-%02d |", h, h+2)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", 12) + "\n")
	for _, d := range FunctionDetectors {
		var byHour [12]int
		for _, at := range run.all[d][-1].FalseAt {
			for _, m := range at {
				byHour[(m/60)%24/2]++
			}
		}
		fmt.Fprintf(&b, "| %s |", functionDetectorNames[d])
		for _, n := range byHour {
			fmt.Fprintf(&b, " %d |", n)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nEach false alarm (service and its cores: the alert's series, the hour since the start it began firing at and its time of day; for the function alert, the path that judged its function, from the set's record: `newcomer` when it had no row of its own 30h (or 6h) before and its service's `other` had one, against the entry share; else `established`, against its own reference and share range):\n\n")
	for _, d := range FunctionDetectors {
		var where []string
		for _, s := range run.fleet {
			var alarms []string
			for _, a := range falseAlarms(run.seen[d][s.Job], s, keepFor[d]) {
				x := fmt.Sprintf("%s at %.1f (%02d:%02d)", a.series, float64(a.at)/60, (a.at/60)%24, a.at%60)
				if d == DetectorFunction {
					x += ", " + howJudged(run.entries[s.Job], a.series, a.at)
				}
				alarms = append(alarms, x)
			}
			if len(alarms) > 0 {
				where = append(where, fmt.Sprintf("%s (%.2f cores): %s", s.Job, s.Cores, strings.Join(alarms, "; ")))
			}
		}
		if len(where) == 0 {
			where = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s: %s\n", functionDetectorNames[d], strings.Join(where, "; "))
	}
	return b.String()
}

// howJudged says whether a function alert's function (series kind/function)
// was a newcomer at minute `at` (youngFor), and when it entered the set.
func howJudged(entries []Entry, series string, at int) string {
	kind, function, _ := strings.Cut(series, "/")
	otherSince := int(profilesFrom / time.Minute)
	// hadRow: whether the function had a row at minute m (its first sample
	// is a minute after it entered)
	hadRow := func(m int) bool {
		for _, e := range entries {
			if e.Kind == kind && e.Function == function && e.From+1 <= m && (e.To < 0 || e.To >= m) {
				return true
			}
		}
		return false
	}
	entered := -1
	for _, e := range entries {
		if e.Kind == kind && e.Function == function && e.From < at {
			entered = e.From
		}
	}
	if entered < 0 {
		return "established (static top K)"
	}
	since := shortDuration(time.Duration(at-entered) * time.Minute)
	for _, young := range youngFor {
		if then := at - int(young/time.Minute); !hadRow(then) && otherSince <= then {
			return fmt.Sprintf("newcomer (entered %s before)", since)
		}
	}
	return fmt.Sprintf("established (entered %s before)", since)
}

type falseAlarm struct {
	series string
	at     int
}

// falseAlarms are the episodes of a service's alert series that began
// before its regression (from judgedFrom), in time order.
func falseAlarms(series map[string]Seen, s FuncService, keep time.Duration) []falseAlarm {
	cleanUntil := days * 24 * 60
	if s.Kind != "" {
		cleanUntil = int(s.Onset / time.Minute)
	}
	var out []falseAlarm
	for _, key := range slices.Sorted(maps.Keys(series)) {
		for _, at := range episodes(series[key], keep) {
			if at >= int(judgedFrom/time.Minute) && at < cleanUntil {
				out = append(out, falseAlarm{key, at})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b falseAlarm) int { return a.at - b.at })
	return out
}

// holdOf is the function alert's hold of one regressed service.
func holdOf(v Verdict, s FuncService) Hold {
	for _, h := range v.Cells[s.Kind][s.Size].Held {
		if h.Job == s.Job {
			return h
		}
	}
	return Hold{}
}

func classList() string {
	var out []string
	for _, c := range SizeClasses {
		out = append(out, fmt.Sprintf("%s: %g-%g", c.Name, c.Lo, c.Hi))
	}
	return strings.Join(out, "; ")
}

// servicesPerCell is how many services each kind, size and class of regression
// of an existing function (or of a new one) got.
func servicesPerCell(fleet []FuncService, isNew bool) int {
	n := 0
	for _, s := range fleet {
		if s.Kind == KindCPU && s.Size == FunctionSizes[0] && s.Class == 0 && s.New == isNew {
			n++
		}
	}
	return n
}
