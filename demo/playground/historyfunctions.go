package playground

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/hotpath/hotpath/promkit"
)

// functionSeries are the bridge's cost rows of the history: each row's cost
// per request as the bridge exported it live (History.Functions), times its
// service's requests of each step, with the noise of the services' own
// counters and the profile's sampling noise (profileSampleUnit). Its function rules and their noise model (median and spread over
// a day) then stand on a day of the costs the live bridge continues. The
// labels are the live scrape's: the row's job and function (honor_labels)
// and the bridge's instance.
// profileSampleUnit is the cost one profile sample stands for, by type: a
// CPU sample every 10ms (Go's 100 Hz), an allocation sample every 512 KiB
// (runtime.MemProfileRate) on average. A row's cost over a step is then
// known to about sqrt(cost * unit), the sampling noise of the live rows,
// which the history must carry for the rows' spread to be theirs.
var profileSampleUnit = map[string]float64{"cpu": 0.01, "alloc_space": 512 << 10}

func (h *History) functionSeries(jobReq map[string][]float64, rng *rand.Rand) []histSeries {
	instance := h.World.profileMetricsAddr()
	rows := append([]FunctionCost(nil), h.Functions...)
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return a.ProfileType+a.Job+a.Function < b.ProfileType+b.Job+b.Function
	})
	var out []histSeries
	for _, r := range rows {
		req := jobReq[r.Job]
		if req == nil {
			continue
		}
		key := profileCostMetrics[r.ProfileType] + "{" + promkit.FormatLabels(map[string]string{"job": r.Job, "function": r.Function, "instance": instance}) + "}"
		vals := make([]float64, len(req))
		total := 0.0
		unit := profileSampleUnit[r.ProfileType]
		for k, n := range req {
			// the step's true cost (the counters' 3% noise), then the samples that show it
			v := math.Max(0, r.PerRequest*n*(1+0.03*rng.NormFloat64()))
			total += poisson(rng, v/unit) * unit
			vals[k] = total
		}
		out = append(out, histSeries{key, vals})
	}
	return out
}

// poisson draws a Poisson count of mean lambda: Knuth's product of
// uniforms while it is small, the normal approximation beyond (within 1%
// of the true spread there).
func poisson(rng *rand.Rand, lambda float64) float64 {
	if lambda <= 0 {
		return 0
	}
	if lambda > 50 {
		return math.Max(0, math.Round(lambda+math.Sqrt(lambda)*rng.NormFloat64()))
	}
	l, k, p := math.Exp(-lambda), 0.0, rng.Float64()
	for p > l {
		k++
		p *= rng.Float64()
	}
	return k
}
