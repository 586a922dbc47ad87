package dashboards

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/hotpath/hotpath/tests/harness"
)

// Every query of every shipped dashboard returns at least one series from the
// real Prometheus running the generated rules over the scenario with
// backfilled history (raw and recorded), long enough for the baselines. So a
// typo in a selector, a label or a recorded name fails here.
func TestEveryQueryReturnsData(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus and backfills a day of history")
	}
	rules, alertRules := rulePack()
	if harness.RecordCount(harness.ParseRules(t, []string{rules})) == 0 {
		t.Skip("rules/hotpath-rules.yaml records nothing yet: nothing for the dashboards to read")
	}
	alerts := withoutForDurations(t, alertRules)

	now := time.Now().Truncate(time.Minute)
	sc := scenario{start: now.Add(-history(t)), regressAt: now.Add(-40 * time.Minute), rolledOut: &atomic.Bool{}}
	dataDir := harness.DataDir(t)
	began := time.Now()
	harness.BackfillOpenMetrics(t, dataDir, sc.model().OpenMetrics(sc.start, now, time.Minute))
	harness.BackfillRules(t, dataDir, []string{rules}, sc.start, now)
	t.Logf("backfilled %s of raw and recorded history in %s", now.Sub(sc.start), time.Since(began).Round(time.Second))

	exp := harness.NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, sc.model().Page)
	p := harness.StartPrometheus(t, harness.PromConfig{
		DataDir:   dataDir,
		RuleFiles: []string{rules, alerts},
		Targets:   []string{exp.Addr},
		Args:      harness.LeaveOverlappingBlocks,
	})

	// A query passes once it has returned data; the rest are asked again. The
	// backfilled history and the live evaluation of a slow group (the
	// baseline's 5m) can leave a gap, which must not fail a query that is
	// right: promtool records a 5m group every 5m from the history's start,
	// so its last backfilled point can be 5m old before Prometheus is up,
	// and Prometheus places the group's first live evaluation anywhere in
	// its first 5m. A 1m rule that reads a 5m one through last_over_time
	// ([10m]) follows a minute later, and when the backfill took minutes (a
	// loaded 2-core machine) the backfilled points are already out of that
	// window. So the wait covers two whole 5m intervals and a minute; a
	// right query answers in seconds.
	// api's rollout once the live Prometheus has recorded its first tag (not
	// the backfilled history: the rules backfill cannot date a version, its
	// start reads its own earlier results), so the service dashboard's
	// deploys annotation has a deploy to show.
	live := time.Now().Unix()
	harness.WaitFor(t, 3*time.Minute, "api's first image tag recorded live", func() (bool, string) {
		s, err := p.Query(context.Background(), fmt.Sprintf(`timestamp(job:version:start_timestamp{job="api"}) > %d`, live))
		return err == nil && len(s) > 0, fmt.Sprintf("%v %v", s, err)
	})
	sc.rolledOut.Store(true)

	plain, _ := shipped(t)
	answered := map[string]bool{}
	harness.WaitFor(t, 11*time.Minute, "every dashboard query returns data", func() (bool, string) {
		pending := queriesWithoutData(t, p, plain, func(d dashboard) map[string]string { return sampleValues(d, "2m") }, answered)
		if len(pending) == 0 {
			return true, ""
		}
		firing, _ := p.Query(context.Background(), `count by (alertname, alertstate, job) (ALERTS)`)
		return false, fmt.Sprintf("%d queries without data:\n  %s\nALERTS now: %v", len(pending), strings.Join(pending, "\n  "), firing)
	})

	// Every query has data now, so every column of every table has some:
	// through Grafana's transformations each lands on its service's row.
	for panel, columns := range checkTablesJoin(t, p, plain) {
		for col, cells := range columns {
			if cells == 0 {
				t.Errorf("%s: column %s has no cell with data", panel, col)
			}
		}
	}
}

// queriesWithoutData runs every query of the dashboards not yet answered,
// with the variables' values, and marks those that return data answered;
// it lists the others, with what each returned.
func queriesWithoutData(t *testing.T, p *harness.Prometheus, dashboards map[string]dashboard, values func(dashboard) map[string]string, answered map[string]bool) []string {
	var pending []string
	for _, name := range sortedKeys(dashboards) {
		d := dashboards[name]
		vals := values(d)
		for _, q := range d.queries(t) {
			key := name + " " + q.where
			if answered[key] {
				continue
			}
			n, err := countSeries(p, substitute(q.expr, vals), q.instant)
			if err == nil && n > 0 {
				answered[key] = true
				continue
			}
			pending = append(pending, fmt.Sprintf("%s: %d series, %v\n    %s", key, n, err, q.expr))
		}
	}
	return pending
}

// history is how much history the scenario gets: the rule pack's
// baselineMinHistory (with less, a service has no baseline series at all)
// plus 2h, so the baseline and cost-model panels have data. Not the full 1d
// window: the rules backfill evaluates one dependency level per pass over the
// whole history, and the baseline chain is deep.
func history(t *testing.T) time.Duration {
	root := harness.RepoRoot()
	out, err := exec.Command(harness.Tool(t, "jsonnet"), "-J", filepath.Join(root, "jsonnet"),
		"-e", "std.get((import 'mixin.libsonnet')._config, 'baselineMinHistory', '24h')").Output()
	if err != nil {
		t.Fatalf("read baselineMinHistory: %v", err)
	}
	var s string
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	d, err := model.ParseDuration(s)
	if err != nil {
		t.Fatalf("baselineMinHistory %q: %v", s, err)
	}
	return time.Duration(d) + 2*time.Hour
}

// rulePack is the generated rule files the test loads unchanged (a variable
// so a test file can point it elsewhere while debugging).
var rulePack = func() (rules, alerts string) {
	dir := filepath.Join(harness.RepoRoot(), "rules")
	return filepath.Join(dir, "hotpath-rules.yaml"), filepath.Join(dir, "hotpath-alerts.yaml")
}

// countSeries runs q as the dashboards do: instant, or over the last 3
// minutes at a 15s step.
func countSeries(p *harness.Prometheus, q string, instant bool) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var v model.Value
	var err error
	if instant {
		v, _, err = p.API.Query(ctx, q, time.Time{})
	} else {
		end := time.Now()
		v, _, err = p.API.QueryRange(ctx, q, v1.Range{Start: end.Add(-3 * time.Minute), End: end, Step: 15 * time.Second})
	}
	switch v := v.(type) {
	case model.Vector:
		return len(v), err
	case model.Matrix:
		return len(v), err
	case *model.Scalar, *model.String:
		return 1, err
	}
	return 0, err
}

// withoutForDurations writes a test overlay of the alert rules: the same
// groups and expressions with every `for:` set to 0 and evaluated every 5s,
// so alerts the scenario triggers fire within seconds and the
// ALERTS-based queries (annotations, counts, the overlay's anomalies) have
// firing series to return.
func withoutForDurations(t *testing.T, path string) string {
	t.Helper()
	groups := harness.ParseRules(t, []string{path})
	for gi := range groups {
		groups[gi].Interval = model.Duration(5 * time.Second)
		for ri := range groups[gi].Rules {
			groups[gi].Rules[ri].For = 0
		}
	}
	return harness.WriteRules(t, groups, "hotpath-alerts.no-for.yaml")
}
