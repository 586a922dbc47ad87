package demotest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// WriteResults writes the report as the committed results file.
func WriteResults(p Playground, path string, rep *TestReport, overlay string, forChanges []string) error {
	run := p.Running()
	var b strings.Builder
	status := "PASSED"
	if !rep.Passed() {
		status = "FAILED"
	}
	load, _ := os.ReadFile("/proc/loadavg")
	cmd := "make demo-test"
	if run.World.Thanos {
		cmd = "make demo-test THANOS=1"
	}
	fmt.Fprintf(&b, "# `%s`: the last recorded run\n\n", cmd)
	fmt.Fprintf(&b, "Written by `%s` (demo/demotest/demotest.go); committed as the reference run.\n\n", cmd)
	fmt.Fprintf(&b, "- result: **%s**, %s\n", status, rep.Started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- total: **%s** (from the command's start: build, calibration, backfill and the live phases; teardown not included)\n", rep.Total.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %d CPUs, load average at the end %s\n", numCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Fprintf(&b, "- rules: the demo overlay `%s` (only `for:` changed: %s)\n", overlay, summarizeFor(forChanges))
	if run.World.Thanos {
		fmt.Fprintf(&b, "- evaluated by: Thanos Ruler through Thanos Query over a sidecar on Prometheus (`-thanos`); every check read through Query\n")
	}
	if rep.NoCFSWhy != "" {
		fmt.Fprintf(&b, "- no CFS incident here: %s\n", rep.NoCFSWhy)
	}
	fmt.Fprintf(&b, "- live cost over the history's cost model at the end of the normal phase (1.0: the live series continue the history; the efficiency alerts fire at 1.5 for CPU, 2 for allocations): %s\n", rep.CostCheck)
	fmt.Fprintf(&b, "\n## Steps\n\n| step | took |\n|---|---|\n")
	for _, t := range p.StepTimings() {
		fmt.Fprintf(&b, "| %s | %s |\n", t.Step, t.Took.Round(100*time.Millisecond))
	}
	fmt.Fprintf(&b, "\n## Time to fire (from the incident's start; polled every 5 s; must be under 10 min, the function and endpoint alerts under 15 min: their cost per request is a 20m median)\n\n| incident | alert | labels | fired after |\n|---|---|---|---|\n")
	for _, r := range rep.Results {
		after := "did not fire"
		if r.Fired {
			after = r.After.Round(time.Second).String()
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", r.Story, r.Alert, promkit.FormatLabels(r.Labels), after)
	}
	fmt.Fprintf(&b, "\n## Healthy services (control, cache, the outlier service's other instances, the shop's other routes): alerts that fired\n\n")
	if rep.MixChange != "" {
		fmt.Fprintf(&b, "From the normal phase's start, the traffic mix changed (%s, no code change): no endpoint alert may name a route for it, even pending, while it alone moved; at the normal phase's end: %s.\n\n", rep.MixChange, rep.MixCheck)
	}
	if rep.TrafficStep != "" {
		fmt.Fprintf(&b, "With the incidents, %s's traffic doubled (a second load generator at its rate) and nothing else changed: a load change that CPU follows, which no alert may take for a regression.\n\n", rep.TrafficStep)
	}
	if len(rep.Violations) == 0 {
		b.WriteString("none\n")
	}
	for _, v := range rep.Violations {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	fmt.Fprintf(&b, "\n## Also fired for the incidents' services (true, not asserted)\n\n")
	if len(rep.AlsoFired) == 0 {
		b.WriteString("none\n")
	}
	for _, v := range rep.AlsoFired {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	fmt.Fprintf(&b, "\n## Browser check: the panel sandbox in Chromium\n\n")
	if rep.BrowserTook > 0 {
		fmt.Fprintf(&b, "**%s** in %s, once every alert had fired: for each story, `demo/sandbox/demo-check.mjs` opens the sandbox "+
			"(the built plugin on this run's Prometheus and profile-store), drags the incident's window (from the incidents' start to the check) "+
			"on the panel's strip, lets the panel pick the baseline before it, switches to the diff and checks the biggest increase against "+
			"the story's function.\n", rep.BrowserCheck, rep.BrowserTook.Round(time.Second))
	} else {
		fmt.Fprintf(&b, "%s\n", rep.BrowserCheck)
	}
	if len(rep.BrowserLines) > 0 {
		fmt.Fprintf(&b, "\n```text\n%s\n```\n", strings.Join(rep.BrowserLines, "\n"))
	}
	if rep.BrowserOut != "" {
		rel, err := filepath.Rel(run.Root, rep.BrowserOut)
		if err != nil {
			rel = rep.BrowserOut
		}
		fmt.Fprintf(&b, "\nScreenshots: `%s/` (not committed); `make demo-screenshots` copies the println, epoll and gzip diffs of a passing run into `docs/img/` for the README.\n", rel)
	}
	if rep.Notify.Verdict != "" {
		fmt.Fprintf(&b, "\n## Alert path: Alertmanager -> hotpath-notify\n\n**%s**. Time from the webhook to the delivered message "+
			"(profiles fetched, diff rendered in Chromium, written and posted to the Slack-compatible sink): %s.\n", rep.Notify.Verdict, rep.Notify.LatencySummary())
		if len(rep.Notify.Lines) > 0 {
			fmt.Fprintf(&b, "\n```text\n%s\n```\n", strings.Join(rep.Notify.Lines, "\n"))
		}
	}
	old, _ := os.ReadFile(path)
	fmt.Fprintf(&b, "\n## Recent runs (newest first; a row per run, kept from the previous file)\n\n")
	fmt.Fprintf(&b, "| started | result | total | %s | browser check |\n|---|---|---|%s---|\n", strings.Join(playground.Stories, " | "), strings.Repeat("---|", len(playground.Stories)))
	fmt.Fprintf(&b, "%s\n", runRow(rep, status))
	for i, row := range recentRows(string(old)) {
		if i >= 9 {
			break
		}
		fmt.Fprintf(&b, "%s\n", row)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Summary prints the report on the console: each expectation's outcome,
// the violations, the checks' verdicts and the total.
func (rep *TestReport) Summary(w io.Writer, within time.Duration) {
	for _, r := range rep.Results {
		after := "DID NOT FIRE within " + r.Expectation.Within(within).String()
		if r.Fired {
			after = "fired after " + r.After.Round(time.Second).String()
		}
		fmt.Fprintf(w, "    %-8s %-32s %-70s %s\n", r.Story, r.Alert, promkit.FormatLabels(r.Labels), after)
	}
	for _, v := range rep.Violations {
		fmt.Fprintf(w, "    VIOLATION %s\n", v)
	}
	fmt.Fprintf(w, "    browser check: %s", rep.BrowserCheck)
	if rep.BrowserTook > 0 {
		fmt.Fprintf(w, " (took %s)", rep.BrowserTook.Round(time.Second))
	}
	fmt.Fprintln(w)
	for _, l := range rep.BrowserLines {
		fmt.Fprintf(w, "      %s\n", l)
	}
	if rep.Notify.Verdict != "" {
		fmt.Fprintf(w, "    alert path: %s (webhook to delivered: %s)\n", rep.Notify.Verdict, rep.Notify.LatencySummary())
	}
	fmt.Fprintf(w, "    total %s\n", rep.Total.Round(time.Second))
}

// runRow is the run's row of the recent runs table: each story's time to
// fire (of each of its alerts, in the expectations' order), the browser check's outcome and duration.
func runRow(rep *TestReport, status string) string {
	cells := []string{rep.Started.UTC().Format("2006-01-02 15:04 UTC"), status, rep.Total.Round(time.Second).String()}
	fired := map[string]string{}
	for _, r := range rep.Results {
		v := "did not fire"
		if r.Fired {
			v = r.After.Round(time.Second).String()
		}
		if prev := fired[r.Story]; prev != "" { // its service alert, then its function alert
			v = prev + " / " + v
		}
		fired[r.Story] = v
	}
	for _, st := range playground.Stories {
		c := fired[st]
		if c == "" {
			c = "not run"
		}
		cells = append(cells, c)
	}
	bc := rep.BrowserCheck
	if i := strings.Index(bc, ":"); i > 0 {
		bc = bc[:i]
	}
	if rep.BrowserTook > 0 {
		counts := map[string]int{}
		for _, l := range rep.BrowserLines {
			for _, v := range []string{"PASS", "FAIL", "SKIP"} {
				if strings.HasPrefix(l, "demo-check: "+v+" ") {
					counts[v]++
				}
			}
		}
		bc = fmt.Sprintf("%s in %s (%d pass, %d fail, %d skip)", bc, rep.BrowserTook.Round(time.Second), counts["PASS"], counts["FAIL"], counts["SKIP"])
	}
	return "| " + strings.Join(append(cells, bc), " | ") + " |"
}

// recentRows are the rows of the recent runs table of a previous results file.
func recentRows(old string) []string {
	i := strings.Index(old, "\n## Recent runs")
	if i < 0 {
		return nil
	}
	var rows []string
	for _, l := range strings.Split(old[i:], "\n") {
		if strings.HasPrefix(l, "| 2") {
			rows = append(rows, l)
		}
	}
	return rows
}

func numCPU() int { return runtime.NumCPU() }

func summarizeFor(changes []string) string {
	if len(changes) == 0 {
		return "none"
	}
	// Every alert gets the same duration: say it once.
	first := changes[0][strings.Index(changes[0], "for "):]
	for _, c := range changes {
		if !strings.HasSuffix(c, first) {
			return strings.Join(changes, "; ")
		}
	}
	return fmt.Sprintf("%d alerts, %s", len(changes), first)
}
