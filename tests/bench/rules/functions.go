//go:build bench

package rules

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/prometheus/prometheus/model/labels"
)

// The bridge's rows: hotpath-profile-metrics' counters, scraped from one
// bridge instance with the other inputs. Per service and profile type, the
// top functionsPerType functions and `other` (the rest of its profile); 2-4
// of a service's CPU rows are the runtime's own work, labelled
// origin="runtime" as the bridge labels them. The rows of a profile type sum
// to the service's cost line (all its instances), each row a fixed part plus
// a part per request of the service: the cost model the function rules fit.
const (
	functionsPerType = 20
	bridgeInstance   = "hotpath-profile-metrics:9464"
	// noiseStep is the function noise group's shipped interval
	// (regressionNoiseInterval): its history is backfilled 15m apart, as
	// the shipped group samples it.
	noiseStep = 15 * time.Minute
)

// profileKind is one profile type: the bridge's counter, the prefix of the
// series the rules record from it, and its service's cost line.
type profileKind struct {
	counter, prefix   string
	fixed, perRequest float64 // the service's (all instances): per second, and per req/s
	runtimeRows       bool    // some rows labelled origin="runtime"
	profileType       string  // the alert's profile_type label
}

var profileKinds = []profileKind{
	{counter: "hotpath_profile_cpu_seconds_total", prefix: "job_function:cpu_seconds", fixed: instancesPerService * cost.FixedCPU, perRequest: cost.CPUPerRequest, runtimeRows: true, profileType: "cpu"},
	{counter: "hotpath_profile_alloc_bytes_total", prefix: "job_function:alloc_bytes", fixed: instancesPerService * cost.FixedAlloc, perRequest: cost.AllocPerRequest, profileType: "alloc_space"},
}

// runtimeFunctions are the runtime's rows of a CPU profile (the scheduler,
// lock spinning, GC workers), at ranks runtimeRanks.
var (
	runtimeFunctions = []string{"runtime.gcBgMarkWorker", "runtime.findRunnable", "runtime.lock2", "runtime.futex"}
	runtimeRanks     = []int{2, 6, 10, 14}
)

// fnRow is one row of a service's profile: its function, its origin label
// (empty for the service's own code) and its cost line.
type fnRow struct {
	function, origin string
	fixed, marginal  float64
}

// functionRows are service s's rows of profile type k: functions
// pkg.F00-pkg.F19 with Zipf shares (1/rank) of 75% of the profile, `other`
// the remaining 25%. Every fourth function is fixed-cost only (a timer, a
// cache refresh): its share rises at night, as a real profile's fixed costs do.
func (f synthetic) functionRows(s int, k profileKind) []fnRow {
	weight := make([]float64, functionsPerType)
	sum := 0.0
	for j := range weight {
		weight[j] = 1 / float64(j+1)
		sum += weight[j]
	}
	fixedOnly := func(j int) bool { return j%4 == 3 }
	perRequestSum := 0.25
	for j := range weight {
		weight[j] *= 0.75 / sum
		if !fixedOnly(j) {
			perRequestSum += weight[j]
		}
	}
	runtimeRows := 0
	if k.runtimeRows {
		runtimeRows = 2 + s%3
	}
	rows := make([]fnRow, 0, functionsPerType+1)
	for j, w := range weight {
		row := fnRow{function: fmt.Sprintf("pkg.F%02d", j), fixed: k.fixed * w}
		if !fixedOnly(j) {
			row.marginal = k.perRequest * w / perRequestSum
		}
		for r := 0; r < runtimeRows; r++ {
			if runtimeRanks[r] == j {
				row.function, row.origin = runtimeFunctions[r], "runtime"
			}
		}
		rows = append(rows, row)
	}
	return append(rows, fnRow{function: "other", fixed: k.fixed * 0.25, marginal: k.perRequest * 0.25 / perRequestSum})
}

// functionRowCount is the fleet's rows of one profile type.
func (f synthetic) functionRowCount() int { return f.services * (functionsPerType + 1) }

// serviceReq is service s's req/s at t, all its instances.
func (f synthetic) serviceReq(s int, t time.Time) float64 {
	return f.req(s, t) * instancesPerService
}

// functionCounters are the bridge's counters, each at its row's rate at the
// service's traffic at t.
func (f synthetic) functionCounters(t time.Time) []counter {
	var out []counter
	for s := 0; s < f.services; s++ {
		_, _, job := f.scope(s)
		r := f.serviceReq(s, t)
		for _, k := range profileKinds {
			for _, row := range f.functionRows(s, k) {
				kv := []string{"__name__", k.counter, "job", job, "function", row.function, "instance", bridgeInstance}
				if row.origin != "" {
					kv = append(kv, "origin", row.origin)
				}
				out = append(out, counter{labels.FromStrings(kv...), row.fixed + row.marginal*r})
			}
		}
	}
	return out
}

// halfQuantileReq is the baseline's low quantile (baselineHalfQuantile,
// 0.25) of service s's req/s over the day's hours in one traffic half:
// where the rules place the half's point of a function's fit.
func (f synthetic) halfQuantileReq(s int, upper bool) float64 {
	var xs []float64
	for _, d := range synth.Diurnal {
		if (d >= synth.DiurnalMedian) == upper {
			xs = append(xs, d*scale(s)*instancesPerService)
		}
	}
	sort.Float64s(xs)
	rank := 0.25 * float64(len(xs)-1)
	lo := int(math.Floor(rank))
	hi := min(lo+1, len(xs)-1)
	return xs[lo] + (xs[hi]-xs[lo])*(rank-float64(lo))
}

// wobble is a recorded excess's small, steady noise (a share of the
// service): the history of a function on its cost line.
func wobble(t time.Time, j int) float64 {
	return 0.002 * math.Sin(float64(t.Unix()/60)/7+float64(j))
}

// recorded is one recorded series' labels and value.
type recorded struct {
	labels labels.Labels
	value  float64
}

// functionHistory is what the function groups recorded before start, for
// both packs the bench measures: this one's (its cost model) and that of
// e96ff95, the default BENCH_BEFORE_REF (its functions judged by their cost
// per request and their day's highest share of the profile). Each series
// over the span the rules read it in, during a run of an hour after start,
// as if each pack had run for two days:
//
//   - the rates every 15m over 49h (a function admitted lately is one with
//     no row 30h or 6h ago while its service's `other` had one), and every
//     minute over the last 30m with the other minute series (the fast
//     groups' 20m medians);
//   - this pack's points of the fit (by_half) over 49h (the lagged
//     reference is armed by a point 2d ago), its sampled excess over 31h (a
//     day's band, armed by a sample 30h ago), the fit and the band's median
//     and spread over 25h (read 1d ago), and the rest over the last 30m
//     (read as their last sample, then recorded live);
//   - e96ff95's sampled cost per request and share over 31h, their median,
//     spread and ceiling over 25h, and its reference and thresholds over the
//     last 30m.
//
// emit receives each series's samples in time order.
func (f synthetic) functionHistory(start time.Time, emit func(labels.Labels, time.Time, float64) error) error {
	recentFrom := start.Add(-30 * time.Minute)
	for s := 0; s < f.services; s++ {
		_, _, job := f.scope(s)
		series := func(name, function string, extra ...string) labels.Labels {
			return labels.FromStrings(append([]string{"__name__", name, "job", job, "function", function}, extra...)...)
		}
		xLo, xHi := f.halfQuantileReq(s, false), f.halfQuantileReq(s, true)
		xMedian := synth.DiurnalMedian * scale(s) * instancesPerService
		// the day's lowest and highest req/s: where a share is at its ends
		xMin, xMax := 2*scale(s)*instancesPerService, 20*scale(s)*instancesPerService
		for _, k := range profileKinds {
			total := func(r float64) float64 { return k.fixed + k.perRequest*r }
			for j, row := range f.functionRows(s, k) {
				named := row.function != "other"
				rate := func(r float64) float64 { return row.fixed + row.marginal*r }
				perRequestAtMedian := rate(xMedian) / xMedian
				ceiling := 1.05 * max(rate(xMin)/total(xMin), rate(xMax)/total(xMax))
				for t := start.Truncate(noiseStep).Add(-49 * time.Hour); t.Before(start); t = t.Add(noiseStep) {
					age := start.Sub(t)
					r := f.serviceReq(s, t)
					var out []recorded
					add := func(span time.Duration, name string, v float64, extra ...string) {
						if age <= span {
							out = append(out, recorded{series(name, row.function, extra...), v})
						}
					}
					if t.Before(recentFrom) { // the minute loop below writes the rest
						add(49*time.Hour, k.prefix+":rate5m", rate(r))
					}
					if named {
						half := "lower"
						if r >= xMedian {
							half = "upper"
						}
						add(49*time.Hour, k.prefix+":by_half", rate(r), "half", half)
						add(31*time.Hour, k.prefix+"_excess_share:smoothed_sampled", wobble(t, j))
						add(25*time.Hour, k.prefix+"_per_request:baseline_marginal", row.marginal)
						add(25*time.Hour, k.prefix+":baseline_fixed", row.fixed)
						add(25*time.Hour, k.prefix+"_excess_share:baseline_median", 0)
						add(25*time.Hour, k.prefix+"_excess_share:baseline_spread", 0.0014)
						add(30*time.Minute, k.prefix+":half_quantile", rate(xLo), "half", "lower")
						add(30*time.Minute, k.prefix+":half_quantile", rate(xHi), "half", "upper")
						add(30*time.Minute, k.prefix+"_per_request:reference_marginal", row.marginal)
						add(30*time.Minute, k.prefix+":reference_fixed", row.fixed)
						add(30*time.Minute, k.prefix+"_excess_share:baseline_threshold", 0.03)
						add(30*time.Minute, k.prefix+"_excess_share:baseline_hold", 0.015)
					}
					// e96ff95's
					add(31*time.Hour, k.prefix+"_per_request:smoothed_sampled", rate(r)/r)
					add(31*time.Hour, k.prefix+"_share:smoothed_sampled", rate(r)/total(r))
					add(25*time.Hour, k.prefix+"_per_request:baseline_median", perRequestAtMedian)
					add(25*time.Hour, k.prefix+"_per_request:baseline_spread", 0.1*perRequestAtMedian)
					add(25*time.Hour, k.prefix+"_share:baseline_ceiling", ceiling)
					add(30*time.Minute, k.prefix+"_per_request:baseline_reference", perRequestAtMedian)
					add(30*time.Minute, k.prefix+"_per_request:baseline_threshold", 1.3*perRequestAtMedian)
					add(30*time.Minute, k.prefix+"_share:baseline_threshold", ceiling)
					for _, x := range out {
						if err := emit(x.labels, t, x.value); err != nil {
							return err
						}
					}
				}
				// the minute series of the fast groups, both packs'
				for t := recentFrom.Truncate(time.Minute); t.Before(start); t = t.Add(time.Minute) {
					if t.Before(recentFrom) {
						continue
					}
					r := f.serviceReq(s, t)
					out := []recorded{
						{series(k.prefix+":rate5m", row.function), rate(r)},
						{series(k.prefix+"_per_request:ratio_rate5m", row.function), rate(r) / r},
						{series(k.prefix+"_per_request:smoothed", row.function), rate(r) / r},
						{series(k.prefix+"_share:ratio_rate5m", row.function), rate(r) / total(r)},
						{series(k.prefix+"_share:smoothed", row.function), rate(r) / total(r)},
					}
					if named {
						out = append(out,
							recorded{series(k.prefix+"_excess_share:ratio_rate5m", row.function), wobble(t, j)},
							recorded{series(k.prefix+"_excess_share:smoothed", row.function), wobble(t, j)})
					}
					for _, x := range out {
						if err := emit(x.labels, t, x.value); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return nil
}
