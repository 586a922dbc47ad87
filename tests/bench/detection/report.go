//go:build bench

package detection

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

type runInfo struct {
	cpu               string
	cores             int
	load              string
	raw, rules, total time.Duration
}

// heading is a results file's title and its first line: what wrote it,
// when, on which CPU model and how busy the machine was, and how long
// writing the history and recording the rules over it took (figures from
// different machines differ by up to 2x).
func (info runInfo) heading(title, writer string) string {
	return fmt.Sprintf("# %s\n\nWritten by %s on %s: %s, %d cores (shared with other work; load average %s), Prometheus v0.309.1's engine and TSDB in process (promkit/evaluate: the rules recorded as `promtool tsdb create-blocks-from rules` records them). Writing the raw series %s, recording the rules %s; %s in all.\n\n",
		title, writer, time.Now().UTC().Format("2006-01-02 15:04 UTC"), info.cpu, info.cores, info.load, info.raw.Round(time.Second), info.rules.Round(time.Second), info.total.Round(time.Second))
}

var detectorNames = map[string]string{
	DetectorFixed:  "(a) fixed factors (before the noise model)",
	DetectorPAD:    "(b) median ± 3·MAD of the cost per request",
	DetectorBefore: "(c) the pack before the reference model (3bb8c6d)",
	DetectorNoise:  "(d) the pack, judged against the reference (shipped)",
}

// render writes the results file: detection by kind and size, time to
// detect, false alarms, one column group per detector.
func render(fleet []Service, seeds []uint64, v map[string]Verdict, alts []Alternative, info runInfo) string {
	var b strings.Builder
	injected, cleanJobs := 0, 0
	for _, s := range fleet {
		if s.Kind == "" {
			cleanJobs++
		} else {
			injected++
		}
	}
	b.WriteString(info.heading("Regression detection benchmark", "`make bench-detection` (tests/bench/detection)"))
	seedList := make([]string, len(seeds))
	for i, s := range seeds {
		seedList[i] = fmt.Sprint(s)
	}
	fleets := fmt.Sprintf("seed %s", seedList[0])
	if len(seeds) > 1 {
		fleets = fmt.Sprintf("%d fleets, seeds %s, side by side; their services named s<seed>-svc-NNN", len(seeds), strings.Join(seedList, ", "))
	}
	fmt.Fprintf(&b, "**The fleet** (%s, `fleet.go`, `make bench-detection SEEDS=...`): %d services over %d days, one sample a minute, in the real Prometheus; the rules evaluated over those days by `promtool tsdb create-blocks-from rules`. "+
		"Each service: a diurnal curve (peak 3-300 req/s, the night at 10-40%% of it, Poisson counting noise), a cost line (0.05-0.5 cores fixed + 0.5-10 ms per request; 0.5-8 MiB/s + 8-256 KiB per request), "+
		"noise on CPU and allocations of 2, 5, 10 or 20%% a minute (standard deviation) plus 0, 2 or 4%% that lasts (30 minutes' correlation), "+
		"a deploy a day (a missed scrape, counters from 0, %s at %.1fx CPU and allocations), and on a third of them traffic doubled for 2h (costs following). "+
		"%d services get one regression each (%d per kind and size and fleet, one per onset hour): the onset-hour sweep, at a random minute of hour 0, 2, ..., 22 of day %d (after %d clean days), to the end (at least %s); %d stay clean.\n\n",
		fleets, len(fleet), days, warmUp, warmUpFactor, injected, perCell, int(onsetDay.Hours())/24+1, int(onsetDay.Hours())/24, held, cleanJobs)
	fmt.Fprintf(&b, "**Judged** from hour %d (a day of history first) to the end, with the alerts' `for:` %s applied to each detector's condition as Prometheus does (held at every 1m evaluation). "+
		"Detected: the alert of the regressed cost fires at or after the onset, before the end. Held (over the regression's first %s): detected within the hour, **coverage** (the share of the %s's minutes with the alert firing) >= 95%%, and **one firing episode** (never resolved, never fired again). False alarm: either alert firing on a service before its regression (any time on a clean one).\n\n",
		int(judgedFrom.Hours()), forDuration, held, held)
	b.WriteString("**Deterministic**: the same seeds give the same data and the same verdicts. Each pass of the rules backfill evaluates a group at an offset within its interval that Prometheus derives from the group's name and its file's path, and promtool reads each level's file by its name alone (`level-NN.yaml`), the same in every run and checkout.\n\n")
	b.WriteString("**Detectors**, on the same data: (a) today's fixed factors, CPU >= 1.5x and allocations >= 2x what the cost model predicts (the shipped pack with its noise floors set out of reach); (b) PAD-style robust bands: the cost per request above its own median over a day + 3 median absolute deviations (a rolling MAD, 5m samples), at >= 1 req/s; (c) the pack as shipped before the reference model (`testdata/pack-3bb8c6d`, its recorded series renamed apart): the fixed factors or the noise threshold, against a cost model and a noise band refitted over a window that includes the regression; (d) the shipped pack: the same, against the cost model and noise band recorded `regressionAcceptAfter` (1d) ago, and once firing held while the smoothed residual stays at or above its hold level (the alert reads its own ALERTS series, which a rules backfill does not write: the judge applies that branch, recorded without its ALERTS term, at the minutes after one the alert was firing at).\n\n")
	b.WriteString(holding(v))
	b.WriteString(alternativesTable(alts))

	b.WriteString("## Detection rate (within an hour / by the end) and median time to detect\n\n")
	b.WriteString(detectorHeader("regression", "---", "---:"))
	b.WriteString(regressionRows(v, func(c *Cell) string {
		ttd := "-"
		if c.Detected > 0 {
			ttd = c.MedianTTD().Round(time.Minute).String()
			ttd = strings.TrimSuffix(ttd, "0s")
		}
		return fmt.Sprintf("%d/%d / %d/%d, %s", c.WithinHour, c.Injected, c.Detected, c.Injected, ttd)
	}))
	b.WriteString("\n## False alarms\n\n| detector | false alarms | service-days judged clean | per service-day | services with any |\n|---|---:|---:|---:|---:|\n")
	for _, d := range Detectors {
		x := v[d]
		fmt.Fprintf(&b, "| %s | %d | %.1f | %.3f | %d |\n", detectorNames[d], x.FalseAlarms, x.CleanDays, float64(x.FalseAlarms)/x.CleanDays, len(x.FalseByJob))
	}
	if len(seeds) > 1 {
		b.WriteString("\nBy fleet (false alarms / services with any):\n\n| detector |")
		for _, s := range seedList {
			fmt.Fprintf(&b, " seed %s |", s)
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(seeds)) + "\n")
		for _, d := range Detectors {
			fmt.Fprintf(&b, "| %s |", detectorNames[d])
			for _, seed := range seeds {
				n, jobs := 0, 0
				for _, s := range fleet {
					if s.Seed == seed && v[d].FalseByJob[s.Job] > 0 {
						n += v[d].FalseByJob[s.Job]
						jobs++
					}
				}
				fmt.Fprintf(&b, " %d / %d |", n, jobs)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n" + smallest(v) + "\n")
	b.WriteString("\nWhere the false alarms were (service: count; its noise a minute and lasting, its peak; when they fired and the service's events, hours since the start):\n\n")
	for _, d := range Detectors {
		var where []string
		for _, s := range fleet {
			if n := v[d].FalseByJob[s.Job]; n > 0 {
				where = append(where, fmt.Sprintf("%s: %d (%.0f%%, %.0f%%, %.0f req/s; %s)", s.Job, n, s.noiseMinute*100, s.noiseLasting*100, s.peak, s.events(v[d].FalseAt[s.Job])))
			}
		}
		if len(where) == 0 {
			where = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s: %s\n", detectorNames[d], strings.Join(where, "; "))
	}
	return b.String()
}

// smallest names, for each detector, the smallest regression of each kind
// that every injected service detected within the hour, beside its false
// alarms: the claim a detector can make on this fleet.
func smallest(v map[string]Verdict) string {
	var b strings.Builder
	b.WriteString("**Smallest regression detected within the hour on every service that had it**, beside the false alarms:\n\n")
	for _, d := range Detectors {
		var parts []string
		for _, kind := range []string{KindCPU, KindAlloc} {
			what := kindName(kind)
			got := "none"
			for _, size := range Sizes {
				if c := v[d].Cells[kind][size]; c.Injected > 0 && c.WithinHour == c.Injected {
					got = fmt.Sprintf("+%.0f%%", (size-1)*100)
					break
				}
			}
			parts = append(parts, got+" "+what)
		}
		fmt.Fprintf(&b, "- %s: %s; %d false alarms\n", detectorNames[d], strings.Join(parts, ", "), v[d].FalseAlarms)
	}
	return b.String()
}

// events describes when alarms fired and what the service went through then.
func (s Service) events(at []int) string {
	var fired, deploys []string
	for _, m := range at {
		fired = append(fired, fmt.Sprintf("%.1f", float64(m)/60))
	}
	for _, d := range s.deploys {
		deploys = append(deploys, fmt.Sprintf("%.1f", d.Hours()))
	}
	out := "fired at " + strings.Join(fired, ", ") + "; deploys at " + strings.Join(deploys, ", ")
	if s.doubledAt > 0 {
		out += fmt.Sprintf("; traffic doubled %.1f-%.1f", s.doubledAt.Hours(), (s.doubledAt + doubling).Hours())
	}
	return out
}

// holding writes the onset-hour sweep: per regression and detector, how many
// were detected within the hour, the lowest and median coverage of the first
// day, the most firing episodes and the onset hours not held; then, for +30%
// CPU and +50% allocations, hour by hour.
func holding(v map[string]Verdict) string {
	var b strings.Builder
	b.WriteString("## Holding, by onset hour (the regression's first day)\n\n")
	b.WriteString("Each cell: detected within the hour / injected; coverage lowest and median; most episodes; the onset hours where it was not held (`-` none).\n\n")
	b.WriteString(detectorHeader("regression", "---", "---"))
	b.WriteString(regressionRows(v, func(c *Cell) string { return holdSummary(c.Held) }))
	for _, row := range []struct {
		kind string
		size float64
	}{{KindCPU, 1.3}, {KindAlloc, 1.5}} {
		fmt.Fprintf(&b, "\n+%.0f%% %s, by onset hour (within the hour / injected; coverage lowest; most episodes):\n\n", (row.size-1)*100, kindName(row.kind))
		b.WriteString(detectorHeader("onset hour", "---:", "---"))
		for _, hour := range OnsetHours {
			fmt.Fprintf(&b, "| %02d:00 |", hour)
			for _, d := range Detectors {
				var at []Hold
				for _, h := range v[d].Cells[row.kind][row.size].Held {
					if h.Hour == hour {
						at = append(at, h)
					}
				}
				within, low, most := 0, 1.0, 0
				for _, h := range at {
					if h.WithinHour {
						within++
					}
					low, most = min(low, h.Coverage), max(most, h.Episodes)
				}
				fmt.Fprintf(&b, " %d/%d; %.0f%%; %d |", within, len(at), low*100, most)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n**Smallest regression held at every onset hour** (within the hour, coverage >= 95%, one episode, on every service that had it):\n\n")
	for _, d := range Detectors {
		var parts []string
		for _, kind := range []string{KindCPU, KindAlloc} {
			got := "none"
			for _, size := range Sizes {
				c := v[d].Cells[kind][size]
				all := len(c.Held) > 0
				for _, h := range c.Held {
					all = all && h.Held()
				}
				if all {
					got = fmt.Sprintf("+%.0f%%", (size-1)*100)
					break
				}
			}
			parts = append(parts, got+" "+kindName(kind))
		}
		fmt.Fprintf(&b, "- %s: %s; %d false alarms\n", detectorNames[d], strings.Join(parts, ", "), v[d].FalseAlarms)
	}
	b.WriteString("\n")
	return b.String()
}

// regressionRows is a table's body: a row per kind and size of regression,
// a cell per detector as `cell` writes it.
func regressionRows(v map[string]Verdict, cell func(c *Cell) string) string {
	var b strings.Builder
	for _, kind := range []string{KindCPU, KindAlloc} {
		for _, size := range Sizes {
			fmt.Fprintf(&b, "| +%.0f%% %s |", (size-1)*100, kindName(kind))
			for _, d := range Detectors {
				fmt.Fprintf(&b, " %s |", cell(v[d].Cells[kind][size]))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// detectorHeader is a table's head: `first`, then a column per detector,
// aligned as the Markdown separators `firstAlign` and `align` say.
func detectorHeader(first, firstAlign, align string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s |", first)
	for _, d := range Detectors {
		fmt.Fprintf(&b, " %s |", detectorNames[d])
	}
	b.WriteString("\n|" + firstAlign + "|" + strings.Repeat(align+"|", len(Detectors)) + "\n")
	return b.String()
}

func kindName(kind string) string {
	if kind == KindAlloc {
		return "allocations per request"
	}
	return "CPU per request"
}

func holdSummary(hs []Hold) string {
	if len(hs) == 0 {
		return "-"
	}
	within, most := 0, 0
	cov := make([]float64, 0, len(hs))
	missed := map[int]bool{}
	for _, h := range hs {
		if h.WithinHour {
			within++
		}
		most = max(most, h.Episodes)
		cov = append(cov, h.Coverage)
		if !h.Held() {
			missed[h.Hour] = true
		}
	}
	slices.Sort(cov)
	var hours []string
	for _, h := range OnsetHours {
		if missed[h] {
			hours = append(hours, fmt.Sprintf("%02d", h))
		}
	}
	not := "-"
	if len(hours) > 0 {
		not = strings.Join(hours, " ")
	}
	return fmt.Sprintf("%d/%d; %.0f%%, %.0f%%; %d; %s", within, len(hs), cov[0]*100, cov[len(cov)/2]*100, most, not)
}
