package playground

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// The history's rows wander around their live shares over the day, slowly,
// their service's sum kept: a band drawn from them is as wide as a real
// day's, and the service's rows still add up to its cost.
func TestDriftedSharesWanderAndKeepTheirSum(t *testing.T) {
	rows := []FunctionShare{
		{Job: "api", ProfileType: "cpu", Function: "a", Share: 0.5},
		{Job: "api", ProfileType: "cpu", Function: "b", Share: 0.3},
		{Job: "api", ProfileType: "cpu", Function: "other", Share: 0.2},
		{Job: "api", ProfileType: "alloc_space", Function: "a", Share: 1},
	}
	const n = 24 * 60
	shares := driftedShares(rows, n, time.Minute, rand.New(rand.NewPCG(1, 2)))
	for k := range n {
		if sum := shares[0][k] + shares[1][k] + shares[2][k]; math.Abs(sum-1) > 1e-9 {
			t.Fatalf("step %d: cpu rows sum to %g, want 1", k, sum)
		}
		if math.Abs(shares[3][k]-1) > 1e-9 {
			t.Fatalf("step %d: a service's only row is %g, want its whole cost", k, shares[3][k])
		}
	}
	// b's share wanders by a few percent of itself, and a minute moves it
	// far less than the day does
	lo, hi, step := math.Inf(1), math.Inf(-1), 0.0
	for k := range n {
		lo, hi = math.Min(lo, shares[1][k]), math.Max(hi, shares[1][k])
		if k > 0 {
			step = math.Max(step, math.Abs(shares[1][k]-shares[1][k-1]))
		}
	}
	if spread := (hi - lo) / 0.3; spread < 0.05 || spread > 0.6 {
		t.Errorf("b wandered over %.0f%% of its share in a day, want a few tens of percent", 100*spread)
	}
	if step > (hi-lo)/5 {
		t.Errorf("b moved %g in one minute of a day's range %g: not slow", step, hi-lo)
	}
}
