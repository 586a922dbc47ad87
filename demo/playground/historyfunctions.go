package playground

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// profileSampleUnit is the cost one profile sample stands for, by type: a
// CPU sample every 10ms (Go's 100 Hz), an allocation sample every 512 KiB
// (runtime.MemProfileRate) on average. A row's cost over a step is then
// known to about sqrt(cost * unit), the sampling noise of the live rows,
// which the history must carry for the rows' spread to be theirs.
var profileSampleUnit = map[string]float64{"cpu": 0.01, "alloc_space": 512 << 10}

// functionSeries are the bridge's cost rows of the history. Each row is its
// live share of its service's profile times the service's cost of each step
// on its calibrated cost lines (fixed + marginal * req/s, as the service's
// own CPU and allocation counters), scaled so that at the live request
// rates it costs what the service cost live per request: the rows then
// follow the day's load as their service does (a fixed cost weighs more per
// request at night), and the live rows continue them. Each row's share
// drifts over the day (shareDrift: a day on a real node is not one
// measurement repeated, and a history without it gives each function a band
// as narrow as its sampling noise, which the live rows leave as soon as the
// machine's load moves), its service's rows rescaled to its cost. Each step
// is a Poisson count of profile samples (profileSampleUnit), with the 3%
// noise of the services' counters on the cost it samples. The labels are
// the live scrape's: the row's job, function and origin (honor_labels) and
// the bridge's instance. reqPerStep are the requests of each step by
// instance.
func (h *History) functionSeries(reqPerStep map[string][]float64, rng *rand.Rand) []histSeries {
	fc := h.Functions
	if fc == nil {
		return nil
	}
	rows := append([]FunctionShare(nil), fc.Rows...)
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return a.ProfileType+a.Job+a.Function < b.ProfileType+b.Job+b.Function
	})
	step := h.Step.Seconds()
	instance := h.World.profileMetricsAddr()
	shares := driftedShares(rows, int(h.Length/h.Step), h.Step, rng)
	var out []histSeries
	for i, r := range rows {
		cost := h.serviceCost(r.Job, r.ProfileType, reqPerStep)
		if cost == nil {
			continue
		}
		unit := profileSampleUnit[r.ProfileType]
		labels := map[string]string{"job": r.Job, "function": r.Function, "instance": instance}
		if r.Origin != "" {
			labels["origin"] = r.Origin
		}
		key := profileCostMetrics[r.ProfileType] + "{" + promkit.FormatLabels(labels) + "}"
		vals := make([]float64, len(cost))
		total := 0.0
		for k, c := range cost {
			v := math.Max(0, shares[i][k]*c*step*(1+0.03*rng.NormFloat64()))
			total += poisson(rng, v/unit) * unit
			vals[k] = total
		}
		out = append(out, histSeries{key, vals})
	}
	return out
}

// shareDrift is how far a row's share wanders over the day (a relative
// standard deviation) and how slowly (its correlation time): a node's
// neighbours, caches and data come and go over hours.
const (
	shareDriftSD   = 0.05
	shareDriftTime = 3 * time.Hour
)

// driftedShares are each row's share at each of n steps: its live share
// times 1 + a slow AR(1) wander (shareDrift), the rows of each service and
// profile type rescaled at every step to the sum of their live shares.
func driftedShares(rows []FunctionShare, n int, step time.Duration, rng *rand.Rand) [][]float64 {
	phi := math.Exp(-step.Seconds() / shareDriftTime.Seconds())
	innov := math.Sqrt(1 - phi*phi)
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = make([]float64, n)
		x := rng.NormFloat64()
		for k := range n {
			x = phi*x + innov*rng.NormFloat64()
			out[i][k] = r.Share * math.Max(0, 1+shareDriftSD*x)
		}
	}
	groups := map[string][]int{}
	for i, r := range rows {
		groups[r.Job+" "+r.ProfileType] = append(groups[r.Job+" "+r.ProfileType], i)
	}
	for _, idx := range groups {
		live := 0.0
		for _, i := range idx {
			live += rows[i].Share
		}
		for k := range n {
			sum := 0.0
			for _, i := range idx {
				sum += out[i][k]
			}
			if sum > 0 {
				for _, i := range idx {
					out[i][k] *= live / sum
				}
			}
		}
	}
	return out
}

// serviceCost is a job's cost per second of each step (CPU seconds or
// allocated bytes), on its instances' calibrated lines at each step's
// rate, scaled to its live cost per request at the live rates (nil when
// it has no live measure or no calibration).
func (h *History) serviceCost(job, typ string, reqPerStep map[string][]float64) []float64 {
	svc := h.World.Service(job)
	live := h.Functions.PerRequest[job+" "+typ]
	if svc == nil || !(live > 0) {
		return nil
	}
	line := func(ic *InstanceCost) Cost {
		if typ == "cpu" {
			return ic.CPU
		}
		return ic.Alloc
	}
	var out []float64
	liveCost, liveReq := 0.0, 0.0
	for _, in := range svc.Instances {
		ic, req := h.Cal.Instances[in.Addr()], reqPerStep[in.Addr()]
		if ic == nil || req == nil {
			return nil
		}
		if out == nil {
			out = make([]float64, len(req))
		}
		for k, n := range req {
			out[k] += line(ic).At(n / h.Step.Seconds())
		}
		rate := h.Functions.Rates[in.Addr()]
		liveCost += line(ic).At(rate)
		liveReq += rate
	}
	if !(liveCost > 0) || !(liveReq > 0) {
		return nil
	}
	scale := live / (liveCost / liveReq)
	for k := range out {
		out[k] *= scale
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
