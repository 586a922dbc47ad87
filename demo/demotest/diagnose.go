package demotest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// Diagnose writes the series behind every alert that did not fire as
// expected, or fired where it must not, over the live phase (and the last
// hour of history): the first thing to read when demo-test fails.
func Diagnose(ctx context.Context, pg Playground, rep *TestReport, path string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	run := pg.Running()
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
		switch r.Story {
		case "println":
			add(r.Alert, fmt.Sprintf(`job:cpu_seconds_per_request:ratio_to_upstream{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds_per_request:ratio_to_upstream_baseline_median{job=%q}`, j),
				`job:cpu_seconds_per_request:ratio_rate5m{job=~"api|cache"}`, `job:requests:rate5m{job=~"api|cache"}`)
		case "epoll":
			add(r.Alert, fmt.Sprintf(`job:cpu_seconds:recent_fixed_share{job=%q}`, j), fmt.Sprintf(`job:requests:recent_cv{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds:rate5m{job=%q}`, j), fmt.Sprintf(`job:requests:rate5m{job=%q}`, j),
				fmt.Sprintf(`job:cpu_seconds_per_request:recent_slope{job=%q}`, j), fmt.Sprintf(`job:cpu_seconds_per_request:recent_marginal{job=%q}`, j))
		case "cfs":
			add(r.Alert, fmt.Sprintf(`container:cpu_cfs_throttled_periods:ratio_rate5m{pod=%q}`, r.Labels["pod"]),
				fmt.Sprintf(`container:cpu_cfs_throttled_seconds:rate5m{pod=%q}`, r.Labels["pod"]),
				fmt.Sprintf(`container:cpu_usage_seconds:rate5m{pod=%q}`, r.Labels["pod"]))
		case "gzip":
			add(r.Alert, fmt.Sprintf(`job:alloc_bytes:rate5m{job=%q} / job:alloc_bytes:baseline_predicted{job=%q}`, j, j),
				fmt.Sprintf(`job:requests:rate5m{job=%q}`, j))
		case "outlier":
			add(r.Alert, fmt.Sprintf(`instance:cpu_seconds_per_request:ratio_rate5m{job=%q}`, j), fmt.Sprintf(`instance:requests:rate5m{job=%q}`, j))
		}
	}
	for _, s := range run.World.Services {
		add("cost model "+s.Job, fmt.Sprintf(`job:cpu_seconds:rate5m{job=%q} / job:cpu_seconds:baseline_predicted{job=%q}`, s.Job, s.Job),
			fmt.Sprintf(`job:alloc_bytes:rate5m{job=%q} / job:alloc_bytes:baseline_predicted{job=%q}`, s.Job, s.Job))
	}
	add("alerts", `ALERTS`)
	var b strings.Builder
	fmt.Fprintf(&b, "# demo-test diagnostics, %s\n# live since %s; incidents on at %s\n", time.Now().Format(time.RFC3339), run.LiveAt.Format(time.RFC3339), rep.IncidentsOn.Format(time.RFC3339))
	start := run.LiveAt.Add(-time.Hour)
	for _, p := range probes {
		series, err := pg.QueryRange(ctx, p.q, start, time.Now(), 30*time.Second)
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
