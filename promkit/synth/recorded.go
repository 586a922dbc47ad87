package synth

import "math"

// What the pack's job-level groups record, written directly into a test's
// history instead of replayed with `promtool tsdb create-blocks-from rules`
// (one pass per dependency level: minutes): the series the baseline and the
// recent fit read back over their windows.

// Record is one recorded series' value; Half, when set, is its half label.
type Record struct {
	Name  string
	Half  string
	Value float64
}

// Job is one service's req/s, CPU cores and allocated bytes/s at a moment.
type Job struct{ Req, CPU, Alloc float64 }

// Recorded are what the 1m groups record from a service at one evaluation.
func (j Job) Recorded() []Record {
	return []Record{
		{Name: "job:requests:rate5m", Value: j.Req},
		{Name: "job:cpu_seconds:rate5m", Value: j.CPU},
		{Name: "job:alloc_bytes:rate5m", Value: j.Alloc},
		{Name: "job:cpu_seconds_per_request:ratio_rate5m", Value: j.CPU / j.Req},
		{Name: "job:alloc_bytes_per_request:ratio_rate5m", Value: j.Alloc / j.Req},
		{Name: "job:cpu_seconds_times_requests:rate5m", Value: j.CPU * j.Req},
		{Name: "job:requests_squared:rate5m", Value: j.Req * j.Req},
	}
}

// Sampled are what the baseline group (every 5m in the shipped pack)
// records from a service: its traffic, and its rates in the half of the day
// its traffic is in (upper: at or above the day's median); and what the noise
// group (at the same interval by default) samples: the residuals of its cost
// models, 1 for a history on its cost line (measured = predicted).
func (j Job) Sampled(upper bool) []Record {
	half := "lower"
	if upper {
		half = "upper"
	}
	return []Record{
		{Name: "job:requests:rate5m_sampled", Value: j.Req},
		{Name: "job:requests:rate5m_by_half", Half: half, Value: j.Req},
		{Name: "job:cpu_seconds:rate5m_by_half", Half: half, Value: j.CPU},
		{Name: "job:alloc_bytes:rate5m_by_half", Half: half, Value: j.Alloc},
		{Name: "job:cpu_seconds:baseline_residual_sampled", Value: 1},
		{Name: "job:alloc_bytes:baseline_residual_sampled", Value: 1},
	}
}

// Upstream are the recorded CPU-per-request ratios of a client to one
// upstream (the series carry an upstream label): every minute, and the
// baseline group's copy when sampled.
func Upstream(ratio float64, sampled bool) []Record {
	r := []Record{{Name: "job:cpu_seconds_per_request:ratio_to_upstream", Value: ratio}}
	if sampled {
		r = append(r, Record{Name: "job:cpu_seconds_per_request:ratio_to_upstream_sampled", Value: ratio})
	}
	return r
}

// LoadSlope is the slope the load fits record from a service's 1m records
// in their window (job:cpu_seconds_per_request:recent_slope over 30m every
// minute, ..._long_slope over 3h every 5m): the least-squares slope of CPU
// on req/s where the traffic swung (a coefficient of variation of at least
// 0.25), ok false where it did not and the pack records nothing. A history
// without the long fit's slopes leaves the day's median slope to the first
// live fits, whose windows mix the history with a changed cost line.
func LoadSlope(window []Job) (slope float64, ok bool) {
	if len(window) == 0 {
		return 0, false
	}
	var req, cpu, reqSq, cpuReq float64
	for _, j := range window {
		req += j.Req
		cpu += j.CPU
		reqSq += j.Req * j.Req
		cpuReq += j.CPU * j.Req
	}
	n := float64(len(window))
	req, cpu, reqSq, cpuReq = req/n, cpu/n, reqSq/n, cpuReq/n
	variance := reqSq - req*req
	if variance <= 0 || req <= 0 || math.Sqrt(variance)/req < 0.25 {
		return 0, false
	}
	return (cpuReq - cpu*req) / variance, true
}
