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

// renderFunctions writes RESULTS-functions.md: per regression and size
// class, the service alerts beside the function alert; false alarms; each
// regressed service's outcome.
func renderFunctions(fleet []FuncService, seed uint64, fixed [2]float64, v map[string]map[int]Verdict, seen map[string]map[string]map[string]Seen, info runInfo) string {
	var b strings.Builder
	injected, clean := 0, 0
	for _, s := range fleet {
		if s.Kind == "" {
			clean++
		} else {
			injected++
		}
	}
	b.WriteString(info.heading("Function regression benchmark", "`make bench-functions` (tests/bench/detection, `functions*.go`)"))
	fmt.Fprintf(&b, "**The fleet** (seed %d, `functions.go`): %d services over %d days, one sample a minute, in the real Prometheus; the rules evaluated over those days by `promtool tsdb create-blocks-from rules`, as `make bench-detection` does (RESULTS-detection.md: the same traffic, noise, deploys and traffic doublings). "+
		"Each service's mean CPU over the day is drawn in its size class (%s), %.0f-%.0f%% of it fixed, the rest per request (peak 5-300 req/s); it allocates 20-200 MiB per CPU second. "+
		"Its profiles: 30-3000 functions (log-uniform) with Zipf shares of the self cost (exponent 0.9-1.3; CPU and allocations ranked apart). "+
		"Each minute the CPU profile takes Poisson(CPU seconds x %d) samples (%d Hz) and the allocation profile Poisson(bytes / %d KiB) samples (Go's MemProfileRate), split multinomially over the functions; "+
		"the bridge's rows as hotpath-profile-metrics exports them: the top %d functions by the day's cost plus `other`, counters of CPU seconds and allocated bytes labelled job and function, from hour %d (a deploy's missed minute has no samples). "+
		"%d services get one regression each: one function, of the top %d the one whose share is nearest the regression's size (one that doubles, or about), takes the whole added cost, +5%%, +10%% or +20%% of the service's CPU per request or allocations per request (the service's own counters rise by the same), "+
		"%d per kind, size and class, at a random minute of an onset hour of day %d (hours spread over 0, 2, ..., 22), to the end; %d stay clean (%d per class).\n\n",
		seed, len(fleet), days, classList(), fixed[0]*100, fixed[1]*100, CPUSampleHz, CPUSampleHz, AllocSampleBytes>>10, TopK, int(profilesFrom.Hours()), injected, TopK, perKind(fleet), int(onsetDay.Hours())/24+1, clean, clean/len(SizeClasses))
	fmt.Fprintf(&b, "**Judged** as in RESULTS-detection.md: from hour %d to the end, the alerts' `for:` %s applied to each condition as Prometheus does, and their `keep_firing_for` (service alerts %s with their hold level, function alert %s). "+
		"Detected: the service alert of the regressed cost, or **the function alert naming the regressed function** with that profile type, fires at or after the onset. Coverage and episodes over the regression's first %s. "+
		"False alarm: any of the detector's alerts (any function, either type) firing on a service before its regression (any time on a clean one).\n\n",
		int(judgedFrom.Hours()), forDuration, shortDuration(keepFor[DetectorService]), shortDuration(keepFor[DetectorFunction]), held)

	classes := append([]int{}, 0, 1, 2)
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
		for _, kind := range []string{KindCPU, KindAlloc} {
			for _, size := range FunctionSizes {
				fmt.Fprintf(&b, "| +%.0f%% %s |", (size-1)*100, kindName(kind))
				for _, c := range classes {
					for _, d := range FunctionDetectors {
						fmt.Fprintf(&b, " %s |", cell(v[d][c].Cells[kind][size]))
					}
				}
				b.WriteString("\n")
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

	b.WriteString("\n## False alarms\n\n| detector | size class | false alarms | service-days judged clean | per service-day | services with any |\n|---|---|---:|---:|---:|---:|\n")
	for _, d := range FunctionDetectors {
		for _, c := range append([]int{-1}, classes...) {
			name := "all"
			if c >= 0 {
				name = SizeClasses[c].Name
			}
			x := v[d][c]
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
		for _, at := range v[d][-1].FalseAt {
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
	b.WriteString("\nWhere (service: alarms, the hours since the start they fired at; the alert's series):\n\n")
	for _, d := range FunctionDetectors {
		var where []string
		for _, s := range fleet {
			if n := v[d][-1].FalseByJob[s.Job]; n > 0 {
				hours := make([]string, 0, n)
				for _, m := range v[d][-1].FalseAt[s.Job] {
					hours = append(hours, fmt.Sprintf("%.1f", float64(m)/60))
				}
				where = append(where, fmt.Sprintf("%s (%.2f cores): %d at %s; %s", s.Job, s.Cores, n, strings.Join(hours, ", "), strings.Join(firedSeries(seen[d][s.Job], s, keepFor[d]), ", ")))
			}
		}
		if len(where) == 0 {
			where = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s: %s\n", functionDetectorNames[d], strings.Join(where, "; "))
	}

	b.WriteString("\n**Smallest regression caught within the hour on every service that had it**, by size class, beside the false alarms of that class:\n\n")
	for _, d := range FunctionDetectors {
		for _, c := range classes {
			var parts []string
			for _, kind := range []string{KindCPU, KindAlloc} {
				got := "none"
				for _, size := range FunctionSizes {
					if cell := v[d][c].Cells[kind][size]; cell.Injected > 0 && cell.WithinHour == cell.Injected {
						got = fmt.Sprintf("+%.0f%%", (size-1)*100)
						break
					}
				}
				parts = append(parts, got+" "+kindName(kind))
			}
			fmt.Fprintf(&b, "- %s, %s: %s; %d false alarms\n", functionDetectorNames[d], SizeClasses[c].Name, strings.Join(parts, ", "), v[d][c].FalseAlarms)
		}
	}

	b.WriteString("\n## Each regression\n\n| service | class | cores | functions | regression | function (its share before) | onset hour | service alerts: detected after | function alert: detected after | function alert: coverage, episodes |\n|---|---|---:|---:|---|---|---:|---:|---:|---|\n")
	for _, s := range fleet {
		if s.Kind == "" {
			continue
		}
		ttd := func(d, key string) string {
			firing := firingMinutes(seen[d][s.Job][key], keepFor[d])
			onset := int(s.Onset / time.Minute)
			if i, _ := slices.BinarySearch(firing, onset); i < len(firing) {
				if firing[i] == onset {
					return "0 (firing at the onset)"
				}
				return shortDuration(time.Duration(firing[i]-onset) * time.Minute)
			}
			return "-"
		}
		h := holdOf(v[DetectorFunction][-1], s)
		fmt.Fprintf(&b, "| %s | %s | %.2f | %d | +%.0f%% %s | %s (%.1f%%) | %02d | %s | %s | %.0f%%, %d |\n", s.Job, SizeClasses[s.Class].Name, s.Cores, s.Functions, (s.Size-1)*100, kindName(s.Kind), s.Regressed, 100*s.RegressedShare(), s.OnsetHour,
			ttd(DetectorService, s.Kind), ttd(DetectorFunction, s.Kind+"/"+s.Regressed), h.Coverage*100, h.Episodes)
	}
	return b.String()
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

// firedSeries are the alert series of a service that fired before its
// regression (from judgedFrom).
func firedSeries(series map[string]Seen, s FuncService, keep time.Duration) []string {
	cleanUntil := days * 24 * 60
	if s.Kind != "" {
		cleanUntil = int(s.Onset / time.Minute)
	}
	var out []string
	for _, key := range slices.Sorted(maps.Keys(series)) {
		for _, at := range episodes(series[key], keep) {
			if at >= int(judgedFrom/time.Minute) && at < cleanUntil {
				out = append(out, key)
				break
			}
		}
	}
	return out
}

func classList() string {
	var out []string
	for _, c := range SizeClasses {
		out = append(out, fmt.Sprintf("%s: %g-%g", c.Name, c.Lo, c.Hi))
	}
	return strings.Join(out, "; ")
}

// perKind is how many services each kind, size and class of regression got.
func perKind(fleet []FuncService) int {
	n := 0
	for _, s := range fleet {
		if s.Kind == KindCPU && s.Size == FunctionSizes[0] && s.Class == 0 {
			n++
		}
	}
	return n
}
