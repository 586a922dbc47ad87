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
	DetectorService: "service alerts",
	DetectorShare:   "function alert, share condition (before)",
	DetectorModel:   "function alert, cost model (shipped)",
}

// shortNames head the wide tables' columns.
var shortNames = map[string]string{DetectorService: "service", DetectorShare: "share", DetectorModel: "model"}

// functionRun is what one run of the function benchmark judged.
type functionRun struct {
	seeds     []uint64
	shape     FleetShape
	fleet     []FuncService
	seen      map[string]map[string]map[string]Seen // detector -> job -> series key -> minutes
	entries   map[string][]Entry                    // by job: the bridge's set beyond the static top K
	seedTimes [][2]time.Duration                    // per seed: writing the series, recording the rules
	info      runInfo
	// by detector, then size class (-1: all): the false alarms over the
	// whole fleet
	all map[string]map[int]Verdict
	// by the regressed function being new, then as all: the regressions
	regressions map[bool]map[string]map[int]Verdict
	// by detector, then benign day: its services' false alarms
	benign map[string]map[string]Verdict
}

// judge applies each detector's firings to the fleet.
func (run *functionRun) judge() {
	// the service alerts name a kind; every function detector a function
	key := func(d string) func(Service) string {
		if d == DetectorService {
			return func(s Service) string { return s.Kind }
		}
		return regressedKey(run.fleet)
	}
	run.all = map[string]map[int]Verdict{}
	run.regressions = map[bool]map[string]map[int]Verdict{false: {}, true: {}}
	run.benign = map[string]map[string]Verdict{}
	for _, d := range FunctionDetectors {
		by := func(services []Service) Verdict {
			return judgeBy(services, FunctionSizes, run.seen[d], keepFor[d], key(d))
		}
		run.all[d], run.benign[d] = map[int]Verdict{}, map[string]Verdict{}
		run.regressions[false][d], run.regressions[true][d] = map[int]Verdict{}, map[int]Verdict{}
		for class := -1; class < len(SizeClasses); class++ {
			run.all[d][class] = by(inClass(run.fleet, class, nil))
			for _, isNew := range []bool{false, true} {
				run.regressions[isNew][d][class] = by(inClass(run.fleet, class, func(s FuncService) bool { return s.Kind != "" && s.New == isNew }))
			}
		}
		for _, k := range BenignKinds {
			run.benign[d][k] = by(inClass(run.fleet, -1, func(s FuncService) bool { return s.Benign == k }))
		}
	}
}

// renderFunctions writes RESULTS-functions.md: per regression (of an
// existing function, of a new one) and size class, the detectors side by
// side: caught within the hour, held over the first day; false alarms by
// size class and by benign day; the smallest regression held at every
// onset hour; the bridge's set; each false alarm.
func renderFunctions(run functionRun) string {
	var b strings.Builder
	b.WriteString(run.heading())
	b.WriteString(run.describe())
	classes := []int{0, 1, 2}
	head := func() {
		b.WriteString("| regression |")
		for _, c := range classes {
			for _, d := range FunctionDetectors {
				fmt.Fprintf(&b, " %s, %s |", SizeClasses[c].Name, shortNames[d])
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

	b.WriteString("## Held at every onset hour: the smallest regression\n\n")
	b.WriteString("The smallest regression that every service of the cell held (caught within the hour, firing >= 95% of its first day, in one episode), per size class, beside the detector's false alarms per service-day of that class (benign days included):\n\n")
	b.WriteString("| detector | size class | existing function, CPU | existing function, allocations | new function, CPU | new function, allocations | false alarms per service-day |\n|---|---|---|---|---|---|---:|\n")
	for _, d := range FunctionDetectors {
		for _, c := range classes {
			fmt.Fprintf(&b, "| %s | %s |", functionDetectorNames[d], SizeClasses[c].Name)
			for _, isNew := range []bool{false, true} {
				for _, kind := range []string{KindCPU, KindAlloc} {
					got := "none"
					for _, size := range FunctionSizes {
						cell := run.regressions[isNew][d][c].Cells[kind][size]
						if cell.Injected > 0 && heldCount(cell.Held) == cell.Injected {
							got = fmt.Sprintf("+%.0f%%", (size-1)*100)
							break
						}
					}
					fmt.Fprintf(&b, " %s |", got)
				}
			}
			x := run.all[d][c]
			fmt.Fprintf(&b, " %.3f (%d) |\n", float64(x.FalseAlarms)/x.CleanDays, x.FalseAlarms)
		}
	}

	b.WriteString("\n## Caught within the hour, and held\n\nEach cell: caught within the hour / held (within the hour, >= 95% of the first day, one episode) / injected.\n\n")
	head()
	rows(func(c *Cell) string { return fmt.Sprintf("%d/%d/%d", c.WithinHour, heldCount(c.Held), c.Injected) })

	b.WriteString("\n## Holding over the regression's first day\n\nEach cell: caught within the hour / injected; coverage lowest and median; most episodes; the onset hours where it was not held (`-` none).\n\n")
	head()
	rows(func(c *Cell) string { return holdSummary(c.Held) })

	b.WriteString("\n## Time to detect\n\nEach cell: detected by the end / injected, median time to detect.\n\n")
	head()
	rows(func(c *Cell) string {
		ttd := "-"
		if c.Detected > 0 {
			ttd = "0m"
			if m := c.MedianTTD().Round(time.Minute); m > 0 {
				ttd = shortDuration(m)
			}
		}
		return fmt.Sprintf("%d/%d, %s", c.Detected, c.Injected, ttd)
	})

	b.WriteString(renderFalseAlarms(run, classes))
	b.WriteString(renderSet(run))
	return b.String()
}

func heldCount(hs []Hold) int {
	n := 0
	for _, h := range hs {
		if h.Held() {
			n++
		}
	}
	return n
}

// heading is the file's title, the machine and the run's times.
func (run functionRun) heading() string {
	var times []string
	for i, t := range run.seedTimes {
		times = append(times, fmt.Sprintf("seed %d: series %s, rules %s", run.seeds[i], t[0].Round(time.Second), t[1].Round(time.Second)))
	}
	return fmt.Sprintf("# Function regression benchmark\n\nWritten by `make bench-functions` (tests/bench/detection, `functions*.go`, `membership.go`) on %s: %s, %d cores (shared with other work; load average at the end %s), Prometheus v0.309.1's engine and TSDB in process (promkit/evaluate: the rules recorded as `promtool tsdb create-blocks-from rules` records them, tests/realrules checks the two agree). %s; %s in all.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), run.info.cpu, run.info.cores, run.info.load, strings.Join(times, "; "), run.info.total.Round(time.Second))
}

// describe says what the fleet and the judge are.
func (run functionRun) describe() string {
	var b strings.Builder
	count := func(pick func(FuncService) bool) int {
		n := 0
		for _, s := range run.fleet {
			if pick(s) {
				n++
			}
		}
		return n
	}
	existing := count(func(s FuncService) bool { return s.Kind != "" && !s.New })
	fresh := count(func(s FuncService) bool { return s.Kind != "" && s.New })
	benign := count(func(s FuncService) bool { return s.Kind == "" })
	fmt.Fprintf(&b, "**The fleets** (seeds %v, `functions.go`): %d services over %d days each, one sample a minute. "+
		"Each service's mean CPU over the day is drawn in its size class (%s), %.0f-%.0f%% of it fixed (the fixed-heavy benign services 50-80%%), the rest per request (peak 5-300 req/s, the night's low at 10-40%% of it); it allocates 20-200 MiB per CPU second. "+
		"Its profiles: 30-3000 functions (log-uniform) with Zipf shares of the day's self cost (exponent 0.9-1.3; CPU and allocations ranked apart). "+
		"**The fixed cost sits in functions of its own** (`FixedParts`): a random set of functions whose day's shares fit within the service's fixed share is wholly fixed-cost (GC, timers, cache refreshes), the rest of the fixed share spread evenly over the others; each minute a function's share follows the minute's fixed share of the cost, so fixed-cost functions gain share at night. "+
		"2 to 4 of the top 15 CPU functions are **the runtime's own work** (exported with `origin=\"runtime\"`, as the bridge labels GC workers and the scheduler), and 12%% of the others are **syscall-heavy** (at least 2 of the top %d). "+
		"Each minute the CPU profile takes Poisson(CPU seconds x %d) samples (%d Hz) and the allocation profile Poisson(bytes / %d KiB) samples (Go's MemProfileRate), drawn per function at its share of that minute; "+
		"the bridge's rows as hotpath-profile-metrics exports them, from hour %d (a deploy's missed minute has no samples).\n\n",
		run.seeds, len(run.fleet)/max(1, len(run.seeds)), days, classList(), run.shape.Fixed[0]*100, run.shape.Fixed[1]*100, TopK, CPUSampleHz, CPUSampleHz, AllocSampleBytes>>10, int(profilesFrom.Hours()))
	fmt.Fprintf(&b, "**The bridge's set** (`membership.go`): the top %d functions by the day's generated shares are members from the start; a function whose %g-minute-decayed share of its service's sampled total reaches %g enters at once (its cost before in `other`), and stays while it reached %g within a day; %d members at most.\n\n",
		TopK, BridgeEntry.WindowMins, BridgeEntry.Share, BridgeEntry.Share, BridgeEntry.MaxMembers)
	fmt.Fprintf(&b, "**The regressions** (%d), at a random minute of an onset hour of day %d, to the end, each +5%%, +10%% or +20%% of the service's CPU or allocations per request at every minute (its own counters rise by the same): "+
		"%d of an **existing function** (of the top %d that are the service's own code, the one whose share is nearest the regression's size: one that doubles, or about), %d per kind, size and class in each seed, their onset hours spread so that the seeds together start each cell at every even hour; "+
		"%d of a **new function** (`%s`: no cost before the onset; its cost in `other` until the set lets it in), %d per cell in each seed.\n\n",
		existing+fresh, int(onsetDay.Hours())/24+1, existing, TopK, run.shape.PerCell, fresh, NewFunction, run.shape.NewPerCell)
	fmt.Fprintf(&b, "**The benign days** (%d services, %d per kind and size class in each seed), on day %d: a **holiday** (the whole day at 30-50%% of the traffic); a **traffic doubling** for 6 hours; an **improvement elsewhere** (from a random minute on, the service's own function nearest 20%% of its cost costs half); **fixed-heavy** services (no event: 50-80%% of the cost in fixed-cost functions, whose shares swing with the traffic); a **busy node** (for an hour from a random minute, every runtime row and syscall-heavy row %g-%gx dearer, one factor per episode, each row within 10%% of it; the service's CPU rises with them); and **clean** services. Every service also has a deploy a day (a warm-up at 1.5x) and, on a third of them, 2 hours of doubled traffic.\n\n",
		benign, run.shape.Benign, int(onsetDay.Hours())/24+1, contentionLo, contentionHi)
	fmt.Fprintf(&b, "**Judged** from hour %d to the end: the alerts' `for:` %s applied to each condition as Prometheus does, their `keep_firing_for` (service alerts %s, share condition %s, cost model %s) and hold levels where they have one. "+
		"Detected: the service alert of the regressed cost, or **the function alert naming the regressed function** with that profile type. Held: caught within the hour, firing >= 95%% of the regression's first %s, in one episode. "+
		"False alarm: any of the detector's alerts (any function, either type) firing on a service before its regression (any time on a benign one).\n\n",
		int(judgedFrom.Hours()), forDuration, shortDuration(keepFor[DetectorService]), shortDuration(keepFor[DetectorShare]), shortDuration(keepFor[DetectorModel]), held)
	return b.String()
}

// functionCase names a regression's function: an existing one or a new one.
func functionCase(isNew bool) string {
	if isNew {
		return "new function"
	}
	return "existing function"
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
// benign day, by the hour of the day, and each one: its service, time and
// series, and for a function alert whether its function was judged as a
// newcomer.
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
	b.WriteString("\nBy benign day (false alarms / services with any / services):\n\n| detector |")
	for _, k := range BenignKinds {
		fmt.Fprintf(&b, " %s |", k)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(BenignKinds)) + "\n")
	for _, d := range FunctionDetectors {
		fmt.Fprintf(&b, "| %s |", functionDetectorNames[d])
		for _, k := range BenignKinds {
			x := run.benign[d][k]
			n := 0
			for _, s := range run.fleet {
				if s.Benign == k {
					n++
				}
			}
			fmt.Fprintf(&b, " %d / %d / %d |", x.FalseAlarms, len(x.FalseByJob), n)
		}
		b.WriteString("\n")
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
	b.WriteString("\nEach false alarm (service, its benign day or its regression, its cores: the alert's series, the hour since the start it began firing at and its time of day; for a function alert, the path that judged its function, from the set's record: `newcomer` when it had no row of its own 30h (or 6h) before and its service's `other` had one; else `established`):\n\n")
	for _, d := range FunctionDetectors {
		var where []string
		for _, s := range run.fleet {
			var alarms []string
			for _, a := range falseAlarms(run.seen[d][s.Job], s, keepFor[d]) {
				x := fmt.Sprintf("%s at %.1f (%02d:%02d)", a.series, float64(a.at)/60, (a.at/60)%24, a.at%60)
				if d != DetectorService {
					x += ", " + howJudged(run.entries[s.Job], a.series, a.at)
				}
				alarms = append(alarms, x)
			}
			if len(alarms) > 0 {
				what := s.Benign
				if s.Kind != "" {
					what = fmt.Sprintf("before its +%.0f%% %s", (s.Size-1)*100, kindName(s.Kind))
				} else if s.Benign == BenignHoliday {
					what += fmt.Sprintf(" from %.1f", s.holidayAt.Hours()) // the whole day
				} else if s.benignAt > 0 && s.Benign != BenignFixedHeavy && s.Benign != BenignClean {
					what += fmt.Sprintf(" from %.1f", s.benignAt.Hours())
				}
				where = append(where, fmt.Sprintf("%s (%s, %.2f cores): %s", s.Job, what, s.Cores, strings.Join(alarms, "; ")))
			}
		}
		if len(where) == 0 {
			where = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s: %s\n", functionDetectorNames[d], strings.Join(where, "; "))
	}
	return b.String()
}

// youngFor are the ages at which FunctionCostPerRequestRegression judges a
// function's row as a newcomer's: one without a sample of its own that long
// ago, in a service whose `other` row has one then, is judged against
// having cost under the entry share before: regressionAcceptAfter + its
// regressionNoiseMinHistory (1d + 6h), or, in a service read for less,
// regressionNoiseMinHistory.
var youngFor = []time.Duration{30 * time.Hour, 6 * time.Hour}

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

func classList() string {
	var out []string
	for _, c := range SizeClasses {
		out = append(out, fmt.Sprintf("%s: %g-%g", c.Name, c.Lo, c.Hi))
	}
	return strings.Join(out, "; ")
}
