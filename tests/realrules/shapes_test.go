package realrules

import (
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
	p := harness.ServeRealShapes(t, "fast-intervals-cadvisor.jsonnet")

	harness.WaitForJobRates(t, p, 60*time.Second, "job:cpu_seconds:rate5m for every Kubernetes service", `job:cpu_seconds:rate5m`, synth.ExpectedCadvisorCPU)
	harness.RulesHealthy(t, p)
}
