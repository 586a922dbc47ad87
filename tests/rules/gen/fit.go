package main

import (
	"math"

	"github.com/hotpath/hotpath/promkit/synth"
)

// recentFit replays the recent least-squares fit of rules/load-fit.libsonnet
// on per-minute CPU and request rates (rate5m already applied), so a test can
// say what share CPUNotTrackingLoad prints. Windows are left-open, as in
// Prometheus: [30m] at t holds the samples t-29 .. t.
type recentFit struct {
	window int
	cpu    []float64 // rate5m per minute
	req    []float64
	slopes map[int]float64 // recorded slope per minute (absent: no fit)
}

func (f *recentFit) avg(xs []float64, t int) float64 {
	s := 0.0
	for i := t - f.window + 1; i <= t; i++ {
		s += xs[i]
	}
	return s / float64(f.window)
}

// slope records the load fit's slope at t (synth.LoadSlope), if traffic swung.
func (f *recentFit) slope(t int) (float64, bool) {
	if s, ok := f.slopes[t]; ok {
		return s, true
	}
	if t < f.window-1 {
		return 0, false
	}
	var window []synth.Job
	for i := t - f.window + 1; i <= t; i++ {
		window = append(window, synth.Job{Req: f.req[i], CPU: f.cpu[i]})
	}
	v, ok := synth.LoadSlope(window)
	if !ok {
		return 0, false
	}
	if f.slopes == nil {
		f.slopes = map[int]float64{}
	}
	f.slopes[t] = v
	return v, true
}

// share is job:cpu_seconds:recent_fixed_share at t.
func (f *recentFit) share(t int) float64 {
	m, _ := f.slope(t)
	if before, ok := f.slope(t - f.window); ok && before < m {
		m = before
	}
	m = math.Max(m, 0)
	fixed := math.Max(f.cpu[t]-m*f.req[t], 0)
	return fixed / (fixed + m*f.avg(f.req, t))
}

// rate5m turns per-minute rates (minute k: the rate from sample k to k+1)
// into what rate(x[5m]) reads at each minute once 5 samples are in the window.
func rate5m(perMinute []float64) []float64 {
	out := make([]float64, len(perMinute))
	for t := 4; t < len(perMinute); t++ {
		out[t] = (perMinute[t-4] + perMinute[t-3] + perMinute[t-2] + perMinute[t-1]) / 4
	}
	return out
}

// humanizePercentage is Prometheus's: %.4g of the value times 100, then "%".
func humanizePercentage(v float64) string {
	return trimFloat(v*100) + "%"
}

func trimFloat(v float64) string { return formatG4(v) }
