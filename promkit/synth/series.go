package synth

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Model is a set of services as a function of time: every series' value at
// t, keyed by its series, name{labels} with no spaces (as OpenMetrics wants). One
// model serves both the backfilled history and the live /metrics page, so
// the two meet without a counter reset.
type Model func(t time.Time) map[string]float64

// Page is the /metrics text at t, series in order.
func (m Model) Page(t time.Time) string {
	at := m(t)
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(at)) {
		fmt.Fprintf(&b, "%s %g\n", k, at[k])
	}
	return b.String()
}

// OpenMetrics is the history over [from, to) every step, for `promtool tsdb
// create-blocks-from openmetrics` (each series' samples together, in time
// order, ending in "# EOF"). It stops short of to: blocks reaching past the
// live server's start would make it drop the first live samples as out of
// bounds.
func (m Model) OpenMetrics(from, to time.Time, step time.Duration) string {
	var times []time.Time
	var snaps []map[string]float64
	for t := from; t.Before(to); t = t.Add(step) {
		times = append(times, t)
		snaps = append(snaps, m(t))
	}
	var b strings.Builder
	if len(snaps) > 0 {
		for _, k := range slices.Sorted(maps.Keys(snaps[0])) {
			for i, t := range times {
				fmt.Fprintf(&b, "%s %g %d\n", k, snaps[i][k], t.Unix())
			}
		}
	}
	b.WriteString("# EOF\n")
	return b.String()
}
