package dashboards

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	shapes "github.com/hotpath/hotpath/tests/fleet"
	"github.com/hotpath/hotpath/tests/harness"
)

// Every dashboard query and every recording rule runs without an error on
// the label shapes of real fleets (tests/fleet: pods serving two jobs, jobs
// without pod or namespace, pause and pod-level cgroups, cluster on some
// series only, request counters with extra labels, a job with no traffic,
// kube-prometheus-stack's dropped series), and the joined panels put each
// service's throttling on that service's row. The rules are the shipped ones
// with only the groups' intervals shortened (tests/realrules/testdata).
func TestRealFleetShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus")
	}
	rendered := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "realrules", "testdata", "fast-intervals.jsonnet"))
	ruleFiles := harness.RuleFiles(rendered)
	now := time.Now().Truncate(time.Second)
	f := shapes.RealShapes(now.Add(-time.Hour))
	dataDir := filepath.Join(t.TempDir(), "data")
	harness.BackfillOpenMetrics(t, dataDir, f.OpenMetrics(now.Add(-6*time.Minute), now.Add(30*time.Second), time.Second)) // as scraped, and 30s ahead: no gap before the first scrape to bias rate()
	exp := harness.NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, f.Page)
	p := harness.StartPrometheus(t, harness.PromConfig{DataDir: dataDir, RuleFiles: ruleFiles, Targets: []string{exp.Addr}, Args: harness.LeaveOverlappingBlocks})
	ctx := context.Background()

	harness.WaitFor(t, 60*time.Second, "every service recorded, throttling recorded", func() (bool, string) {
		s, err := p.Query(ctx, `job:requests:rate5m`)
		if err != nil || len(s) < len(shapes.Jobs) {
			return false, fmt.Sprintf("job:requests:rate5m: %d series, want %d (%v)", len(s), len(shapes.Jobs), err)
		}
		s, err = p.Query(ctx, `container:cpu_cfs_throttled_seconds:rate5m > 0`)
		return err == nil && len(s) >= 2, fmt.Sprintf("throttled containers: %v %v", s, err)
	})

	t.Run("recording rules: healthy, no failed evaluation, services with their own labels", func(t *testing.T) {
		rules, err := p.Rules(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rules {
			if r.Health == "err" || r.LastError != "" {
				t.Errorf("%s/%s: %s %s", r.Group, r.Name, r.Health, r.LastError)
			}
		}
		for group, v := range harness.ValuesBy(p.SelfMetrics(t)["prometheus_rule_evaluation_failures_total"], "rule_group") {
			if v != 0 {
				t.Errorf("%s: %g failed evaluations", group, v)
			}
		}
		s, err := p.Query(ctx, `job:requests:rate5m`)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, x := range s {
			delete(x.Metric, "__name__")
			got[x.Metric["job"]] = fmt.Sprint(x.Metric)
			if want := shapes.ExpectedRequests[x.Metric["job"]]; math.Abs(x.Value-want) > 0.02*want+1e-9 {
				t.Errorf("job:requests:rate5m%v = %g, want %g", x.Metric, x.Value, want)
			}
		}
		for job, labels := range shapes.Jobs {
			if got[job] != fmt.Sprint(labels) {
				t.Errorf("job:requests:rate5m for %s: %s, want %v", job, got[job], labels)
			}
		}
	})

	t.Run("no dashboard query fails, whichever service is picked", func(t *testing.T) {
		plain, _ := shipped(t)
		for _, name := range sortedKeys(plain) {
			d := plain[name]
			for _, svc := range []string{"api", "web", "blackbox", "idle-worker"} {
				vals := sampleValues(d, "1m")
				for k, v := range vals {
					if v == sampleService {
						vals[k] = svc
					}
				}
				for _, q := range d.queries(t) {
					if _, err := countSeries(p, substitute(q.expr, vals), q.instant); err != nil {
						t.Errorf("%s %s (service %s): %v\n  %s", name, q.where, svc, err, q.expr)
					}
				}
			}
		}
	})

	t.Run("joined panels: each service's throttling on its own row", func(t *testing.T) {
		plain, _ := shipped(t)
		for _, c := range []struct{ file, panel string }{
			{"hotpath-throttling.json", "Throttled seconds by service"},
			{"hotpath-overview.json", "Services by CPU"},
		} {
			d := plain[c.file]
			var expr string
			for _, q := range d.queries(t) {
				if strings.HasPrefix(q.where, c.panel+" / ") && strings.Contains(q.expr, "throttled_seconds") {
					expr = substitute(q.expr, sampleValues(d, "1m"))
				}
			}
			if expr == "" {
				t.Fatalf("%s: no throttling query in panel %q", c.file, c.panel)
			}
			s, err := p.Query(ctx, expr)
			if err != nil {
				t.Errorf("%s %q: %v", c.file, c.panel, err)
				continue
			}
			var rows []string
			for _, x := range s {
				job := x.Metric["job"]
				rows = append(rows, job)
				want, ok := shapes.ExpectedThrottled[job]
				if !ok || math.Abs(x.Value-want) > 0.02*want {
					t.Errorf("%s %q: row %v = %g, want %g (a row: %v)", c.file, c.panel, x.Metric, x.Value, want, ok)
				}
			}
			sort.Strings(rows)
			if want := sortedKeys(shapes.ExpectedThrottled); strings.Join(rows, " ") != strings.Join(want, " ") {
				t.Errorf("%s %q: rows %v, want %v", c.file, c.panel, rows, want)
			}
		}
	})
}
