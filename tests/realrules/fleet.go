// Package realrules runs the rule pack in the real, pinned Prometheus.
package realrules

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// The fleet the test scrapes: every service in cluster eu1, namespace shop.
// Costs follow CPU = 0.25 + req/s / 32 cores and allocations = 1 MiB/s +
// 64 KiB per request, over a diurnal day (2 req/s at night, 20 at the peak).
const (
	fixedCPU      = 0.25
	marginalCPU   = 1.0 / 32
	fixedAlloc    = 1 << 20
	marginalAlloc = 1 << 16
)

var diurnal = [24]float64{6, 4, 2, 2, 2, 2, 4, 8, 12, 16, 20, 20, 20, 20, 20, 20, 20, 20, 16, 12, 10, 8, 8, 6}

// The median of a diurnal day's req/s: what splits its two halves.
const diurnalMedian = 10

func traffic(t time.Time) float64 { return diurnal[t.UTC().Hour()] }

// swing is a square wave, 4 and 48 req/s, 5 minutes each: traffic that
// swings within the recent fit's 30m window.
func swing(t time.Time) float64 {
	if (t.Unix()/300)%2 == 0 {
		return 4
	}
	return 48
}

type service struct {
	job string
	// req/s, CPU cores and allocated bytes/s at time t; live tells the
	// scraped counters from the history.
	rates func(t time.Time, live bool) (req, cpu, alloc float64)
}

func costModel(r float64) (req, cpu, alloc float64) {
	return r, fixedCPU + marginalCPU*r, fixedAlloc + marginalAlloc*r
}

var fleet = []service{
	{"healthy", func(t time.Time, _ bool) (float64, float64, float64) { return costModel(traffic(t)) }},
	{"regressed", func(t time.Time, live bool) (float64, float64, float64) {
		req, cpu, alloc := costModel(traffic(t))
		if live { // everything costs twice the CPU, day and night
			cpu *= 2
		}
		return req, cpu, alloc
	}},
	{"api", func(time.Time, bool) (float64, float64, float64) { return 16, 0.3125, fixedAlloc }},    // 10x its cache
	{"cache", func(time.Time, bool) (float64, float64, float64) { return 16, 0.03125, fixedAlloc }}, // per request
	{"swing", func(t time.Time, _ bool) (float64, float64, float64) { return costModel(swing(t)) }},
}

func labels(job string, extra ...string) string {
	return strings.Join(append([]string{`cluster="eu1"`, `namespace="shop"`, fmt.Sprintf("job=%q", job)}, extra...), ",")
}

// counters integrates the live rates into the scraped counters: each update
// adds rate * elapsed, so the counters stay monotonic when a rate changes
// (the hour turns) and rate() reads back the live rates. They start at 1e6;
// rawHistory writes the minutes before, so rate windows are full at once.
type counters struct {
	last   time.Time
	values map[string]float64
}

func newCounters(now time.Time) *counters { return &counters{last: now, values: map[string]float64{}} }

// page advances the counters to `now` and renders the scraped page.
func (c *counters) page(now time.Time) string {
	dt := now.Sub(c.last).Seconds()
	c.last = now
	var b strings.Builder
	each(now, func(key string, perSecond float64) {
		c.values[key] += perSecond * dt
		fmt.Fprintf(&b, "%s %g\n", key, 1e6+c.values[key])
	})
	ct := `cluster="eu1",namespace="ci",pod="ci-operator-1",container="app"`
	fmt.Fprintf(&b, "container_spec_cpu_quota{%s} 30000\n", ct)
	fmt.Fprintf(&b, "container_spec_cpu_period{%s} 100000\n", ct)
	return b.String()
}

// rawHistory is the scraped counters over [from, start), every 15s, ending
// where the live ones begin (1e6 at start): integrated backwards from start,
// each 15s step at its own rates.
func rawHistory(from, start time.Time) string {
	const step = 15 * time.Second
	value := map[string]float64{}
	lines := map[string][]string{}
	var keys []string
	for t := start.Add(-step); !t.Before(from); t = t.Add(-step) {
		each(t, func(key string, perSecond float64) {
			if _, ok := value[key]; !ok {
				value[key] = 1e6
				keys = append(keys, key)
			}
			value[key] -= perSecond * step.Seconds()
			lines[key] = append([]string{fmt.Sprintf("%s %g %d", key, value[key], t.Unix())}, lines[key]...)
		})
	}
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(strings.Join(lines[k], "\n") + "\n")
	}
	return b.String()
}

// each calls f with every scraped counter and its live rate at t: the
// services, the service-graph edge api -> cache, and a throttled container.
func each(now time.Time, f func(key string, perSecond float64)) {
	counter := func(name, ls string, perSecond float64) { f(name+"{"+ls+"}", perSecond) }
	for _, s := range fleet {
		req, cpu, alloc := s.rates(now, true)
		l := labels(s.job, `instance="i1"`)
		counter("http_requests_total", l, req)
		counter("process_cpu_seconds_total", l, cpu)
		counter("go_memstats_alloc_bytes_total", l, alloc)
	}
	counter("traces_service_graph_request_total", `client="api",server="cache",connection_type=""`, 16)
	ct := `cluster="eu1",namespace="ci",pod="ci-operator-1",container="app"`
	counter("container_cpu_cfs_periods_total", ct, 10)
	counter("container_cpu_cfs_throttled_periods_total", ct, 5)
	counter("container_cpu_cfs_throttled_seconds_total", ct, 0.5)
	counter("container_cpu_usage_seconds_total", ct, 0.25)
}

// history is what the 1m groups would have recorded over [from, to): the
// series the baseline and the recent fit read back over their windows. It is
// written directly rather than replayed with `promtool tsdb
// create-blocks-from rules`, which needs one pass per dependency level (minutes).
func history(from, to time.Time) string {
	series := map[string][]string{} // name -> lines
	add := func(name, ls string, v float64, t time.Time) {
		series[name] = append(series[name], fmt.Sprintf("%s{%s} %g %d", name, ls, v, t.Unix()))
	}
	for _, s := range fleet {
		l := labels(s.job)
		for t := from; t.Before(to); t = t.Add(time.Minute) {
			req, cpu, alloc := s.rates(t, false)
			add("job:requests:rate5m", l, req, t)
			add("job:cpu_seconds:rate5m", l, cpu, t)
			add("job:alloc_bytes:rate5m", l, alloc, t)
			add("job:cpu_seconds_per_request:ratio_rate5m", l, cpu/req, t)
			add("job:alloc_bytes_per_request:ratio_rate5m", l, alloc/req, t)
			add("job:cpu_seconds_times_requests:rate5m", l, cpu*req, t)
			add("job:requests_squared:rate5m", l, req*req, t)
			if t.Sub(from)%(5*time.Minute) == 0 { // the baseline group's interval
				add("job:requests:rate5m_sampled", l, req, t)
				half := "lower"
				if req >= diurnalMedian {
					half = "upper"
				}
				hl := l + fmt.Sprintf(",half=%q", half)
				add("job:requests:rate5m_by_half", hl, req, t)
				add("job:cpu_seconds:rate5m_by_half", hl, cpu, t)
				add("job:alloc_bytes:rate5m_by_half", hl, alloc, t)
			}
		}
	}
	for t := from; t.Before(to); t = t.Add(time.Minute) {
		add("job:cpu_seconds_per_request:ratio_to_upstream", labels("api", `upstream="cache"`), 10, t)
		if t.Sub(from)%(5*time.Minute) == 0 {
			add("job:cpu_seconds_per_request:ratio_to_upstream_sampled", labels("api", `upstream="cache"`), 10, t)
		}
	}
	names := make([]string, 0, len(series))
	for n := range series {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "# TYPE %s gauge\n", n)
		lines := series[n]
		sort.SliceStable(lines, func(i, j int) bool { return seriesKey(lines[i]) < seriesKey(lines[j]) })
		for _, line := range lines {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("# EOF\n")
	return b.String()
}

// seriesKey is a line's series (name and labels), to group a series' samples.
func seriesKey(line string) string {
	return line[:strings.LastIndex(line[:strings.LastIndex(line, " ")], " ")]
}
