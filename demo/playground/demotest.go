package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// Expectation is the alert an incident must fire, with the labels that say
// it fired for the right service.
type Expectation struct {
	Story  string
	Alert  string
	Labels map[string]string
}

// Expectations are demo-test's assertions, one per story that runs here.
func (o *Orchestrator) Expectations() []Expectation {
	w := o.World
	var out []Expectation
	for _, story := range Stories {
		s := w.StoryService(story)
		if s == nil {
			continue
		}
		switch story {
		case "println":
			out = append(out, Expectation{story, "CPUPerRequestAboveUpstream", map[string]string{"job": s.Job, "upstream": "cache"}})
		case "epoll":
			out = append(out, Expectation{story, "CPUNotTrackingLoad", map[string]string{"job": s.Job}})
		case "cfs":
			if o.Cgroups == nil || s.Cgroup == nil {
				continue
			}
			out = append(out, Expectation{story, "CPUThrottlingSustained", map[string]string{
				"namespace": w.Namespace, "pod": s.Cgroup.Pod, "container": s.Cgroup.Container}})
		case "gzip":
			out = append(out, Expectation{story, "AllocationsPerRequestRegression", map[string]string{"job": s.Job}})
		case "outlier":
			out = append(out, Expectation{story, "CPUPerRequestOutlier", map[string]string{"job": s.Job, "instance": s.Instances[w.OutlierInstance].Addr()}})
		}
	}
	return out
}

func (e Expectation) matches(a promkit.Alert) bool {
	if a.Labels["alertname"] != e.Alert {
		return false
	}
	for k, v := range e.Labels {
		if a.Labels[k] != v {
			return false
		}
	}
	return true
}

// healthyReason says why an alert concerns a healthy service or instance
// ("" when it does not): the control and the cache, the outlier service's
// other instances, and any container but the throttled one.
func (o *Orchestrator) healthyReason(a promkit.Alert) string {
	w := o.World
	for _, s := range w.Services {
		if s.Healthy && a.Labels["job"] == s.Job {
			return "healthy service " + s.Job
		}
	}
	if out := w.StoryService("outlier"); out != nil && a.Labels["job"] == out.Job && a.Labels["instance"] != "" {
		if a.Labels["instance"] != out.Instances[w.OutlierInstance].Addr() {
			return "healthy instance " + a.Labels["instance"] + " of " + out.Job
		}
	}
	if pod := a.Labels["pod"]; pod != "" && a.Labels["job"] == "" {
		if cfs := w.StoryService("cfs"); cfs == nil || cfs.Cgroup == nil || cfs.Cgroup.Pod != pod {
			return "healthy container " + pod + "/" + a.Labels["container"]
		}
	}
	return ""
}

func alertID(a promkit.Alert) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(a.Labels)) {
		switch k {
		case "alertname", "severity":
			continue
		}
		parts = append(parts, k+"="+a.Labels[k])
	}
	return a.Labels["alertname"] + "{" + strings.Join(parts, ",") + "}"
}

// Fired is one expectation's outcome.
type Fired struct {
	Expectation
	After time.Duration // from the incident's start to the first poll that saw it firing
	Fired bool
	Value string
}

// TestReport is what demo-test measured.
type TestReport struct {
	Started, IncidentsOn time.Time
	Results              []Fired
	// Violations are firing alerts that must never fire: any during the
	// normal phase, any for a healthy service or instance at any time.
	Violations []string
	// AlsoFired are other alerts that fired for an incident's service (e.g.
	// the api's own CPUPerRequestRegression): true, and not asserted.
	AlsoFired []string
	// BrowserCheck is the browser check's outcome: "passed", "FAILED: ..."
	// or "not run: ..."; BrowserLines its verdict lines (one per story and
	// the last one), BrowserTook how long it ran, BrowserOut where its
	// screenshots are.
	BrowserCheck string
	BrowserLines []string
	BrowserTook  time.Duration
	BrowserOut   string
	// CostCheck is each service's live CPU and allocations over what the
	// backfilled cost model predicts, at the end of the normal phase.
	CostCheck string
	// TrafficStep is the service whose traffic doubled with the incidents
	// (World.TrafficStepJob), "" without one.
	TrafficStep string
	Total       time.Duration
	NoCFSWhy    string
	// Notify is the alert path's check (notifycheck.go).
	Notify NotifyReport
}

// Passed reports whether every expectation fired in time and nothing fired
// that must not.
func (r *TestReport) Passed() bool {
	for _, f := range r.Results {
		if !f.Fired {
			return false
		}
	}
	return len(r.Violations) == 0 && !strings.HasPrefix(r.BrowserCheck, "FAILED") && !strings.HasPrefix(r.Notify.Verdict, "FAILED")
}

// TestOptions configure the compressed schedule.
type TestOptions struct {
	Normal time.Duration // normal traffic before the incidents
	Within time.Duration // each alert must fire within this of its incident's start
	Poll   time.Duration
	// BrowserCheck is the sandbox's Chromium check (tests/browser/demo-check.mjs
	// by default): a command run once every alert fired, with
	// HOTPATH_PROMETHEUS_URL, HOTPATH_PROFILES_URL, HOTPATH_SANDBOX_URL and
	// HOTPATH_INCIDENTS (a JSON file: each story's service, alert and
	// start/end in unix ms). "{out}" in its argv is replaced by BrowserOut,
	// emptied first, where it saves its screenshots. Empty: not run.
	BrowserCheck []string
	BrowserOut   string
}

// RunTest runs demo-test's compressed schedule on the live world: normal
// first, then every incident at once on its own service, polling
// Prometheus's alerts API until every expected alert fired with the right
// labels or the time is up.
func (o *Orchestrator) RunTest(ctx context.Context, to TestOptions, started time.Time) (*TestReport, error) {
	rep := &TestReport{Started: started, NoCFSWhy: o.NoCFSWhy}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watch := make(chan error, 1)
	go func() { watch <- o.Watch(watchCtx) }()
	seenViolation := map[string]bool{}
	seenOther := map[string]bool{}
	exps := o.Expectations()
	results := make([]Fired, len(exps))
	for i, e := range exps {
		results[i] = Fired{Expectation: e}
	}
	poll := func(phase string) error {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		alerts, err := o.Prom.Alerts(ctx)
		if err != nil {
			return err
		}
		for _, a := range alerts {
			if a.State != "firing" {
				continue
			}
			id := alertID(a)
			if phase == "normal" {
				if !seenViolation[id] {
					seenViolation[id] = true
					v := fmt.Sprintf("%s fired during the normal phase, %s after the rules went live (value %s)", id, time.Since(o.LiveAt).Round(time.Second), a.Value)
					rep.Violations = append(rep.Violations, v)
					o.logf("    VIOLATION: %s", v)
				}
				continue
			}
			if why := o.healthyReason(a); why != "" {
				if !seenViolation[id] {
					seenViolation[id] = true
					v := fmt.Sprintf("%s fired for a %s, %s after the incidents started (value %s)", id, why, time.Since(rep.IncidentsOn).Round(time.Second), a.Value)
					rep.Violations = append(rep.Violations, v)
					o.logf("    VIOLATION: %s", v)
				}
				continue
			}
			matched := false
			for i := range results {
				if results[i].matches(a) {
					matched = true
					if !results[i].Fired {
						results[i].Fired, results[i].After, results[i].Value = true, time.Since(rep.IncidentsOn), a.Value
						o.logf("    %s fired %s after its incident (%s) started: %s (value %s)", results[i].Alert, results[i].After.Round(time.Second), results[i].Story, id, a.Value)
					}
				}
			}
			if !matched && !seenOther[id] {
				seenOther[id] = true
				rep.AlsoFired = append(rep.AlsoFired, fmt.Sprintf("%s after %s", id, time.Since(rep.IncidentsOn).Round(time.Second)))
				o.logf("    also fired (not asserted): %s", id)
			}
		}
		return nil
	}
	wait := func(until time.Time, phase string, done func() bool) error {
		for time.Now().Before(until) && !done() {
			if err := poll(phase); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case err := <-watch:
				if err == nil {
					err = fmt.Errorf("a process stopped")
				}
				return err
			case <-time.After(to.Poll):
			}
		}
		return nil
	}

	err := o.step(fmt.Sprintf("normal phase: %s without incidents, no alert may fire", to.Normal), func() error {
		return wait(o.LiveAt.Add(to.Normal), "normal", func() bool { return false })
	})
	if err != nil {
		return rep, err
	}
	rep.CostCheck = o.costCheck(ctx)
	o.logf("    live cost / the history's cost model, per service (1.0: the live series continue the history): %s", rep.CostCheck)
	var stories []string
	for _, e := range exps {
		stories = append(stories, e.Story)
	}
	err = o.step(fmt.Sprintf("incidents: %s at once, each on its own service; each alert must fire within %s", strings.Join(stories, ", "), to.Within), func() error {
		rep.IncidentsOn = time.Now()
		for _, e := range exps {
			if err := o.World.Switch(ctx, e.Story, true); err != nil {
				return err
			}
			o.logf("    %s incident ON (%s expected: %s)", e.Story, e.Alert, promkit.FormatLabels(e.Labels))
		}
		step, err := o.startTrafficStep()
		if err != nil {
			return err
		}
		if step != nil {
			rep.TrafficStep = step.Job
			o.logf("    traffic step ON: %s's load doubles, nothing regresses (no alert may fire; the panel must read load)", step.Job)
		}
		allFired := func() bool {
			for _, r := range results {
				if !r.Fired {
					return false
				}
			}
			return true
		}
		if err := wait(rep.IncidentsOn.Add(to.Within), "incident", allFired); err != nil {
			return err
		}
		// One last look at the alerts (violations are checked to the end).
		return poll("incident")
	})
	rep.Results = results
	if err != nil {
		return rep, err
	}
	switch exited := o.SandboxExited(); {
	case len(to.BrowserCheck) == 0:
		rep.BrowserCheck = "not run (-browser-check '')"
	case o.SandboxAt == "":
		rep.BrowserCheck = "FAILED: no sandbox to check: " + o.SandboxOff
	case exited != "":
		rep.BrowserCheck = "FAILED: the sandbox " + exited
	default:
		rep.BrowserOut = to.BrowserOut
		_ = o.step("browser check: the sandbox in Chromium, each incident's window against its baseline", func() error {
			began := time.Now()
			rep.BrowserCheck = o.browserCheck(ctx, to.BrowserCheck, to.BrowserOut, rep)
			rep.BrowserTook = time.Since(began)
			return nil
		})
	}
	if len(o.Opt.Notify) > 0 {
		// the messages went out while the browser check ran: this wait is a bound, rarely used
		_ = o.step("alert path: hotpath-notify's messages (Alertmanager -> hotpath-notify -> folder and Slack sink)", func() error {
			rep.Notify = o.notifyCheck(ctx, 3*time.Minute)
			o.logf("    %s; webhook to delivered: %s", rep.Notify.Verdict, rep.Notify.LatencySummary())
			return nil
		})
	}
	return rep, nil
}

// costCheck says how well the live series continue the history: each
// service's CPU and allocation rate over the cost model's prediction.
func (o *Orchestrator) costCheck(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cpu, err1 := o.Prom.Query(ctx, "job:cpu_seconds:rate5m / job:cpu_seconds:baseline_predicted")
	alloc, err2 := o.Prom.Query(ctx, "job:alloc_bytes:rate5m / job:alloc_bytes:baseline_predicted")
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("unavailable (%v %v)", err1, err2)
	}
	a := map[string]float64{}
	for _, s := range alloc {
		a[s.Metric["job"]] = s.Value
	}
	var parts []string
	for _, s := range cpu {
		parts = append(parts, fmt.Sprintf("%s CPU %.2f alloc %.2f", s.Metric["job"], s.Value, a[s.Metric["job"]]))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// browserCheck runs the check command with the incidents' windows (each
// from the incidents' start to now) and returns its outcome; its verdict
// lines ("demo-check: ...") go into rep.BrowserLines.
func (o *Orchestrator) browserCheck(ctx context.Context, argv []string, outDir string, rep *TestReport) string {
	type incident struct {
		Story, Service, Alert string
		FromMs, ToMs          int64
	}
	var incs []incident
	for _, r := range rep.Results {
		s := o.World.StoryService(r.Story)
		incs = append(incs, incident{r.Story, s.Job, r.Alert, rep.IncidentsOn.UnixMilli(), time.Now().UnixMilli()})
	}
	if rep.TrafficStep != "" {
		// demo-check's "traffic" story: the panel must say load, not per request
		incs = append(incs, incident{"traffic", rep.TrafficStep, "", rep.IncidentsOn.UnixMilli(), time.Now().UnixMilli()})
	}
	b, _ := json.MarshalIndent(incs, "", "  ")
	path := o.path("run", "incidents.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "FAILED: " + err.Error()
	}
	if outDir != "" {
		// Only this run's screenshots: `make demo-screenshots` copies from here.
		if err := os.RemoveAll(outDir); err != nil {
			return "FAILED: " + err.Error()
		}
	}
	args := expand(argv, "{out}", outDir)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = o.Opt.Root
	cmd.Env = append(os.Environ(),
		"HOTPATH_PROMETHEUS_URL="+o.Prom.URL,
		fmt.Sprintf("HOTPATH_PROFILES_URL=http://127.0.0.1:%d", o.World.Ports.Profiles),
		"HOTPATH_SANDBOX_URL="+o.SandboxAt,
		"HOTPATH_INCIDENTS="+path)
	var out strings.Builder
	cmd.Stdout = io.MultiWriter(o.Opt.Out, &out)
	cmd.Stderr = cmd.Stdout
	err := cmd.Run()
	rep.BrowserLines = verdictLines(out.String())
	if err != nil {
		return "FAILED: " + err.Error()
	}
	return "passed"
}

// verdictLines are the check's "demo-check: ..." lines, or, from another
// command, its last lines.
func verdictLines(out string) []string {
	var lines, all []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" {
			continue
		}
		all = append(all, l)
		if strings.HasPrefix(l, "demo-check:") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 && len(all) > 5 {
		return all[len(all)-5:]
	}
	if len(lines) == 0 {
		return all
	}
	return lines
}

// Diagnose writes the series behind every alert that did not fire as
// expected, or fired where it must not, over the live phase (and the last
// hour of history): the first thing to read when demo-test fails.
func (o *Orchestrator) Diagnose(ctx context.Context, rep *TestReport, path string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	type probe struct{ what, q string }
	var probes []probe
	add := func(what string, qs ...string) {
		for _, q := range qs {
			probes = append(probes, probe{what, q})
		}
	}
	for _, r := range rep.Results {
		j := r.Labels["job"]
		switch r.Alert {
		case "CPUPerRequestAboveUpstream":
			add(r.Alert, fmt.Sprintf(`job:cpu_seconds_per_request:ratio_to_upstream{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds_per_request:ratio_to_upstream_baseline_median{job=%q}`, j),
				`job:cpu_seconds_per_request:ratio_rate5m{job=~"api|cache"}`, `job:requests:rate5m{job=~"api|cache"}`)
		case "CPUNotTrackingLoad":
			add(r.Alert, fmt.Sprintf(`job:cpu_seconds:recent_fixed_share{job=%q}`, j), fmt.Sprintf(`job:requests:recent_cv{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds:rate5m{job=%q}`, j), fmt.Sprintf(`job:requests:rate5m{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds_per_request:recent_slope{job=%q}`, j), fmt.Sprintf(`job:cpu_seconds_per_request:recent_marginal{job=%q}`, j))
		case "CPUThrottlingSustained":
			add(r.Alert, fmt.Sprintf(`container:cpu_cfs_throttled_periods:ratio_rate5m{pod=%q}`, r.Labels["pod"]),
				fmt.Sprintf(`container:cpu_cfs_throttled_seconds:rate5m{pod=%q}`, r.Labels["pod"]),
				fmt.Sprintf(`container:cpu_usage_seconds:rate5m{pod=%q}`, r.Labels["pod"]))
		case "AllocationsPerRequestRegression":
			add(r.Alert, fmt.Sprintf(`job:alloc_bytes:rate5m{job=%q} / job:alloc_bytes:baseline_predicted{job=%q}`, j, j),
				fmt.Sprintf(`job:requests:rate5m{job=%q}`, j))
		case "CPUPerRequestOutlier":
			add(r.Alert, fmt.Sprintf(`instance:cpu_seconds_per_request:ratio_rate5m{job=%q}`, j), fmt.Sprintf(`instance:requests:rate5m{job=%q}`, j))
		}
	}
	for _, s := range o.World.Services {
		add("cost model "+s.Job, fmt.Sprintf(`job:cpu_seconds:rate5m{job=%q} / job:cpu_seconds:baseline_predicted{job=%q}`, s.Job, s.Job),
			fmt.Sprintf(`job:alloc_bytes:rate5m{job=%q} / job:alloc_bytes:baseline_predicted{job=%q}`, s.Job, s.Job))
	}
	add("alerts", `ALERTS`)
	var b strings.Builder
	fmt.Fprintf(&b, "# demo-test diagnostics, %s\n# live since %s; incidents on at %s\n", time.Now().Format(time.RFC3339), o.LiveAt.Format(time.RFC3339), rep.IncidentsOn.Format(time.RFC3339))
	start := o.LiveAt.Add(-time.Hour)
	for _, p := range probes {
		series, err := o.Prom.QueryRange(ctx, p.q, start, time.Now(), 30*time.Second)
		fmt.Fprintf(&b, "\n## %s: %s\n", p.what, p.q)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
			continue
		}
		sort.Slice(series, func(i, j int) bool {
			return promkit.FormatLabels(series[i].Metric) < promkit.FormatLabels(series[j].Metric)
		})
		for _, s := range series {
			fmt.Fprintf(&b, "%s\n", promkit.FormatLabels(s.Metric))
			for _, pt := range s.Points {
				at := time.Unix(int64(pt[0]), 0)
				fmt.Fprintf(&b, "  %s %+6.1fm %.6g\n", at.Format("15:04:05"), at.Sub(rep.IncidentsOn).Minutes(), pt[1])
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// WriteResults writes the report as the committed results file.
func (o *Orchestrator) WriteResults(path string, rep *TestReport, overlay string, forChanges []string) error {
	var b strings.Builder
	status := "PASSED"
	if !rep.Passed() {
		status = "FAILED"
	}
	load, _ := os.ReadFile("/proc/loadavg")
	cmd := "make demo-test"
	if o.World.Thanos {
		cmd = "make demo-test THANOS=1"
	}
	fmt.Fprintf(&b, "# `%s`: the last recorded run\n\n", cmd)
	fmt.Fprintf(&b, "Written by `%s` (demo/playground/demotest.go); committed as the reference run.\n\n", cmd)
	fmt.Fprintf(&b, "- result: **%s**, %s\n", status, rep.Started.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- total: **%s** (from the command's start: build, calibration, backfill and the live phases; teardown not included)\n", rep.Total.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %d CPUs, load average at the end %s\n", numCPU(), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Fprintf(&b, "- rules: the demo overlay `%s` (only `for:` changed: %s)\n", overlay, summarizeFor(forChanges))
	if o.World.Thanos {
		fmt.Fprintf(&b, "- evaluated by: Thanos Ruler through Thanos Query over a sidecar on Prometheus (`-thanos`); every check read through Query\n")
	}
	if rep.NoCFSWhy != "" {
		fmt.Fprintf(&b, "- no CFS incident here: %s\n", rep.NoCFSWhy)
	}
	fmt.Fprintf(&b, "- live cost over the history's cost model at the end of the normal phase (1.0: the live series continue the history; the efficiency alerts fire at 1.5 for CPU, 2 for allocations): %s\n", rep.CostCheck)
	fmt.Fprintf(&b, "\n## Steps\n\n| step | took |\n|---|---|\n")
	for _, k := range o.TimingSteps() {
		fmt.Fprintf(&b, "| %s | %s |\n", k, o.Timings[k].Round(100*time.Millisecond))
	}
	fmt.Fprintf(&b, "\n## Time to fire (from the incident's start; polled every 5 s; must be under 10 min)\n\n| incident | alert | labels | fired after |\n|---|---|---|---|\n")
	for _, r := range rep.Results {
		after := "did not fire"
		if r.Fired {
			after = r.After.Round(time.Second).String()
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", r.Story, r.Alert, promkit.FormatLabels(r.Labels), after)
	}
	fmt.Fprintf(&b, "\n## Healthy services (control, cache, the outlier service's other instances): alerts that fired\n\n")
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
		fmt.Fprintf(&b, "**%s** in %s, once every alert had fired: for each story, `tests/browser/demo-check.mjs` opens the sandbox "+
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
		rel, err := filepath.Rel(o.Opt.Root, rep.BrowserOut)
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
	fmt.Fprintf(&b, "| started | result | total | %s | browser check |\n|---|---|---|%s---|\n", strings.Join(Stories, " | "), strings.Repeat("---|", len(Stories)))
	fmt.Fprintf(&b, "%s\n", runRow(rep, status))
	for i, row := range recentRows(string(old)) {
		if i >= 9 {
			break
		}
		fmt.Fprintf(&b, "%s\n", row)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// runRow is the run's row of the recent runs table: each story's time to
// fire, the browser check's outcome and duration.
func runRow(rep *TestReport, status string) string {
	cells := []string{rep.Started.UTC().Format("2006-01-02 15:04 UTC"), status, rep.Total.Round(time.Second).String()}
	fired := map[string]string{}
	for _, r := range rep.Results {
		fired[r.Story] = "did not fire"
		if r.Fired {
			fired[r.Story] = r.After.Round(time.Second).String()
		}
	}
	for _, st := range Stories {
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
