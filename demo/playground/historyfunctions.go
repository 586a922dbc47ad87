package playground

import (
	"sort"

	"github.com/hotpath/hotpath/promkit"
)

// functionSeries are the bridge's cost rows of the history: each row's cost
// per request as the bridge exported it live (History.Functions), times its
// service's requests of each step, with the noise of the services' own
// counters. Its function rules and their noise model (median and spread over
// a day) then stand on a day of the costs the live bridge continues. The
// labels are the live scrape's: the row's job and function (honor_labels)
// and the bridge's instance.
func (h *History) functionSeries(jobReq map[string][]float64, noisy func(v, sd float64) float64) []histSeries {
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
		for k, n := range req {
			total += noisy(r.PerRequest*n, 0.03)
			vals[k] = total
		}
		out = append(out, histSeries{key, vals})
	}
	return out
}
