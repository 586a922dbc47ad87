package demotest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
)

// costCheck says how well the live series continue the history: each
// service's CPU and allocation rate over the cost model's prediction.
func costCheck(ctx context.Context, p Playground) string {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cpu, err1 := p.Query(ctx, "job:cpu_seconds:rate5m / job:cpu_seconds:baseline_predicted")
	alloc, err2 := p.Query(ctx, "job:alloc_bytes:rate5m / job:alloc_bytes:baseline_predicted")
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
func browserCheck(ctx context.Context, run playground.Running, argv []string, outDir string, rep *TestReport) string {
	type incident struct {
		Story, Service, Alert string
		FromMs, ToMs          int64
	}
	var incs []incident
	for _, r := range rep.Results {
		if r.Story == playground.EndpointStory {
			// the check reads a culprit function off the service's diff; the
			// endpoint story's answer is its route, which its alert's label
			// already asserts
			continue
		}
		s := run.World.StoryService(r.Story)
		incs = append(incs, incident{r.Story, s.Job, r.Alert, rep.IncidentsOn.UnixMilli(), time.Now().UnixMilli()})
	}
	if rep.TrafficStep != "" {
		// demo-check's "traffic" story: the panel must say load, not per request
		incs = append(incs, incident{"traffic", rep.TrafficStep, "", rep.IncidentsOn.UnixMilli(), time.Now().UnixMilli()})
	}
	b, _ := json.MarshalIndent(incs, "", "  ")
	path := filepath.Join(run.RunDir, "incidents.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return "FAILED: " + err.Error()
	}
	if outDir != "" {
		// Only this run's screenshots: `make demo-screenshots` copies from here.
		if err := os.RemoveAll(outDir); err != nil {
			return "FAILED: " + err.Error()
		}
	}
	args := playground.Expand(argv, "{out}", outDir)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = run.Root
	cmd.Env = append(os.Environ(),
		"HOTPATH_PROMETHEUS_URL="+run.PromURL,
		"HOTPATH_PROFILES_URL="+run.ProfilesURL,
		"HOTPATH_SANDBOX_URL="+run.SandboxAt,
		"HOTPATH_INCIDENTS="+path)
	var out strings.Builder
	cmd.Stdout = io.MultiWriter(run.Out, &out)
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

// mixCheck says what the traffic-mix change did to job by the normal
// phase's end, from the rule pack's own series: its requests and CPU per
// request now over an hour before (the history, on the old mix), and each
// route's cost per request now over its reference (the endpoint alert's
// two sides; its 5-minute ratio, unsmoothed, beside its 20-minute median).
// The mix moves the first and must leave the others near 1.
func mixCheck(ctx context.Context, p Playground, job string) string {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	sel := fmt.Sprintf("{job=%q}", job)
	one := func(q string) string {
		s, err := p.Query(ctx, q)
		if err != nil || len(s) == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", s[0].Value)
	}
	out := fmt.Sprintf("requests x%s, CPU per request x%s of an hour before",
		one(fmt.Sprintf("sum(job:requests:rate5m%[1]s) / sum(job:requests:rate5m%[1]s offset 1h)", sel)),
		one(fmt.Sprintf("sum(job:cpu_seconds_per_request:ratio_rate5m%[1]s) / sum(job:cpu_seconds_per_request:ratio_rate5m%[1]s offset 1h)", sel)))
	ref := fmt.Sprintf("on (job, endpoint) last_over_time(job_endpoint:cpu_seconds_per_request:baseline_reference%s[30m])", sel)
	smoothed, err1 := p.Query(ctx, fmt.Sprintf("job_endpoint:cpu_seconds_per_request:smoothed%s / %s", sel, ref))
	raw, err2 := p.Query(ctx, fmt.Sprintf("job_endpoint:cpu_seconds_per_request:ratio_rate5m%s / %s", sel, ref))
	if err1 != nil || err2 != nil {
		return out + fmt.Sprintf("; routes unavailable (%v %v)", err1, err2)
	}
	r := map[string]float64{}
	for _, s := range raw {
		r[s.Metric["endpoint"]] = s.Value
	}
	var parts []string
	for _, s := range smoothed {
		parts = append(parts, fmt.Sprintf("%s x%.2f (5m: x%.2f)", s.Metric["endpoint"], s.Value, r[s.Metric["endpoint"]]))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		parts = []string{"none has a reference"}
	}
	return out + "; CPU per request of each route over its reference: " + strings.Join(parts, ", ")
}
