package playground

import (
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// endpointSeries are the bridge's endpoint and instance rows of the history,
// for the services with Endpoints, from their live measure
// (measureEndpointCosts). A route's row is its own work, done per request:
// its live cost per request of its route times the route's requests of each
// step, so that the route costs the same per request all day, as its code
// does, whatever its service's other routes and fixed costs do. The rows
// that are no route (`other`, `unlabelled`: the runtime, the scrapes, the
// serving outside the handlers) take the rest of their service's cost of
// each step (serviceCost: its calibrated lines, scaled to its live cost per
// request), split by their live shares; the instance rows, which add up to
// the whole profile, their live shares of it. Each row drifts over the day
// (shareDrift) and each step is a Poisson count of profile samples with the
// 3% noise of the services' counters, as the function rows
// (functionSeries). reqPerStep are the requests of each step by instance,
// routeReq by instance and route.
func (h *History) endpointSeries(reqPerStep, routeReq map[string][]float64, rng *rand.Rand) []histSeries {
	if h.Functions == nil || len(h.Functions.Endpoints) == 0 {
		return nil
	}
	rows := append([]EndpointRow(nil), h.Functions.Endpoints...)
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].Metric+promkit.FormatLabels(rows[i].Labels) < rows[j].Metric+promkit.FormatLabels(rows[j].Labels)
	})
	n := int(h.Length / h.Step)
	step := h.Step.Seconds()
	// each row's cost per step before noise
	costs := make([][]float64, len(rows))
	type group struct{ job, typ string }
	routeCost := map[group][]float64{} // the routes' cost of each step
	restShare := map[group]float64{}   // the live shares of the rows that are no route
	for i, r := range rows {
		if r.Instance || r.Route == "" {
			if !r.Instance {
				restShare[group{r.Job, r.ProfileType}] += r.Share
			}
			continue
		}
		svc := h.World.Service(r.Job)
		if svc == nil {
			continue
		}
		c := make([]float64, n)
		for _, in := range svc.Instances {
			for _, rl := range svc.Routes() {
				if endpointOf(rl.Path) != r.Route {
					continue
				}
				for k, req := range routeReq[in.Addr()+" "+rl.Path] {
					c[k] += r.PerRequest * req
				}
			}
		}
		costs[i] = c
		g := group{r.Job, r.ProfileType}
		if routeCost[g] == nil {
			routeCost[g] = make([]float64, n)
		}
		for k := range c {
			routeCost[g][k] += c[k]
		}
	}
	for i, r := range rows {
		if costs[i] != nil {
			continue
		}
		total := h.serviceCost(r.Job, r.ProfileType, reqPerStep)
		if total == nil {
			continue
		}
		g := group{r.Job, r.ProfileType}
		c := make([]float64, n)
		for k := range c {
			whole := total[k] * step
			switch {
			case r.Instance:
				c[k] = r.Share * whole
			case restShare[g] > 0:
				rc := 0.0
				if routeCost[g] != nil {
					rc = routeCost[g][k]
				}
				c[k] = math.Max(0, whole-rc) * r.Share / restShare[g]
			}
		}
		costs[i] = c
	}
	var out []histSeries
	for i, r := range rows {
		if costs[i] == nil {
			continue
		}
		drift := driftOf(n, h.Step, rng)
		unit := profileSampleUnit[r.ProfileType]
		vals := make([]float64, n)
		total := 0.0
		for k, c := range costs[i] {
			v := math.Max(0, c*drift[k]*(1+0.03*rng.NormFloat64()))
			total += poisson(rng, v/unit) * unit
			vals[k] = total
		}
		out = append(out, histSeries{r.Metric + "{" + promkit.FormatLabels(r.Labels) + "}", vals})
	}
	return out
}

// driftOf is a row's slow wander over n steps, as a factor around 1
// (shareDrift): a slow AR(1) of standard deviation shareDriftSD.
func driftOf(n int, step time.Duration, rng *rand.Rand) []float64 {
	phi := math.Exp(-step.Seconds() / shareDriftTime.Seconds())
	innov := math.Sqrt(1 - phi*phi)
	out := make([]float64, n)
	x := rng.NormFloat64()
	for k := range n {
		x = phi*x + innov*rng.NormFloat64()
		out[k] = math.Max(0, 1+shareDriftSD*x)
	}
	return out
}
