package realrules

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	shapes "github.com/hotpath/hotpath/tests/fleet"
	"github.com/hotpath/hotpath/tests/harness"
)

// The rule pack in Kubernetes mode (cpuSource: cadvisor) on the label shapes
// of real fleets (tests/fleet): every rule evaluates without an error, and
// each service gets the CPU of its own pods' containers, a two-job pod's for
// both of its jobs, none for the jobs outside Kubernetes.
func TestRealFleetShapesCadvisorMode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus")
	}
	ruleFiles := harness.RuleFiles(harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "realrules", "testdata", "fast-intervals-cadvisor.jsonnet")))
	now := time.Now().Truncate(time.Second)
	f := shapes.RealShapes(now.Add(-time.Hour))
	dataDir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	harness.BackfillOpenMetrics(t, dataDir, f.OpenMetrics(now.Add(-6*time.Minute), now.Add(30*time.Second), time.Second))
	exp := harness.NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, f.Page)
	p := harness.StartPrometheus(t, harness.PromConfig{DataDir: dataDir, RuleFiles: ruleFiles, Targets: []string{exp.Addr}, Args: harness.LeaveOverlappingBlocks})
	ctx := context.Background()

	got := map[string]float64{}
	harness.WaitFor(t, 60*time.Second, "job:cpu_seconds:rate5m for every Kubernetes service", func() (bool, string) {
		s, err := p.Query(ctx, `job:cpu_seconds:rate5m`)
		if err != nil {
			return false, err.Error()
		}
		got = map[string]float64{}
		for _, x := range s {
			got[x.Metric["job"]] = x.Value
		}
		return len(got) >= len(shapes.ExpectedCadvisorCPU), fmt.Sprintf("%v", got)
	})
	for job, v := range got {
		want, ok := shapes.ExpectedCadvisorCPU[job]
		if !ok || math.Abs(v-want) > 0.02*want {
			t.Errorf("job:cpu_seconds:rate5m{job=%q} = %g, want %g (expected at all: %v)", job, v, want, ok)
		}
	}
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
}
