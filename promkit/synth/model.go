package synth

import (
	"fmt"
	"strings"
	"time"
)

// The traffic and cost models the synthetic services are built from: one daily
// curve, one cost line, one counter, one way to write labels.

// Diurnal is a day of req/s, hour by hour (UTC): 2 at night, 20 from 10h to
// 18h. Its median, DiurnalMedian, splits the day into the baseline's lower
// and upper halves.
var Diurnal = [24]float64{6, 4, 2, 2, 2, 2, 4, 8, 12, 16, 20, 20, 20, 20, 20, 20, 20, 20, 16, 12, 10, 8, 8, 6}

// DiurnalMedian is the median of Diurnal.
const DiurnalMedian = 10

// DiurnalAt is Diurnal's req/s at t.
func DiurnalAt(t time.Time) float64 { return Diurnal[t.UTC().Hour()] }

// CostModel is a service's cost line: CPU cores and allocated bytes per
// second at a request rate, a fixed part plus a marginal part per request.
type CostModel struct {
	FixedCPU, CPUPerRequest     float64
	FixedAlloc, AllocPerRequest float64
}

// At is the CPU cores and allocated bytes/s at req req/s.
func (m CostModel) At(req float64) (cpu, alloc float64) {
	return m.FixedCPU + m.CPUPerRequest*req, m.FixedAlloc + m.AllocPerRequest*req
}

// Typical is the cost line of the scripted services: 0.25 cores idle plus
// 1/32 core per req/s, 1 MiB/s plus 64 KiB per request.
var Typical = CostModel{FixedCPU: 0.25, CPUPerRequest: 1.0 / 32, FixedAlloc: 1 << 20, AllocPerRequest: 1 << 16}

// CounterBase is every scripted counter's value at its series' start.
const CounterBase = 1e6

// CounterAt is a counter growing perSecond at t: CounterBase at start, on its
// line before and after (history backfilled before start continues into the
// live page without a reset).
func CounterAt(start, t time.Time, perSecond float64) float64 {
	return CounterBase + perSecond*t.Sub(start).Seconds()
}

// Labels renders label pairs (name, value, name, value, ...) as the text
// format writes them inside braces, in the order given.
func Labels(kv ...string) string {
	parts := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, fmt.Sprintf("%s=%q", kv[i], kv[i+1]))
	}
	return strings.Join(parts, ",")
}
