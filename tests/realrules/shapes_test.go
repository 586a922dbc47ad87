package realrules

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/hotpath/hotpath/tests/harness"
)

// The rule pack in Kubernetes mode (cpuSource: cadvisor) on the label shapes
// of real fleets (promkit/synth): every rule evaluates without an error, and
// each service gets the CPU of its own pods' containers, a two-job pod's for
// both of its jobs, none for the jobs outside Kubernetes.
func TestRealFleetShapesCadvisorMode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus")
	}
	ruleFiles := harness.FastRuleFiles(t, "fast-intervals-cadvisor.jsonnet")
	p := harness.ServeModel(t, synth.RealShapes(time.Now().Add(-time.Hour)).At, ruleFiles)
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
		return len(got) >= len(synth.ExpectedCadvisorCPU), fmt.Sprintf("%v", got)
	})
	for _, problem := range harness.CompareRates(got, synth.ExpectedCadvisorCPU) {
		t.Errorf("job:cpu_seconds:rate5m: %s", problem)
	}
	harness.RulesHealthy(t, p)
}
