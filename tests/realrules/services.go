// Package realrules runs the rule pack in the real, pinned Prometheus.
package realrules

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/hotpath/hotpath/tests/harness"
)

// The services the test scrapes: every service in cluster eu1, namespace shop,
// on the typical cost line (synth.Typical) over a diurnal day (synth.Diurnal:
// 2 req/s at night, 20 at the peak).

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
	cpu, alloc = synth.Typical.At(r)
	return r, cpu, alloc
}

var services = []service{
	{"healthy", func(t time.Time, _ bool) (float64, float64, float64) { return costModel(synth.DiurnalAt(t)) }},
	{"regressed", func(t time.Time, live bool) (float64, float64, float64) {
		req, cpu, alloc := costModel(synth.DiurnalAt(t))
		if live { // everything costs twice the CPU, day and night
			cpu *= 2
		}
		return req, cpu, alloc
	}},
	{"api", func(time.Time, bool) (float64, float64, float64) { return 16, 0.3125, synth.Typical.FixedAlloc }},    // 10x its cache (the CPU of profileRows)
	{"cache", func(time.Time, bool) (float64, float64, float64) { return 16, 0.03125, synth.Typical.FixedAlloc }}, // per request
	{"swing", func(t time.Time, _ bool) (float64, float64, float64) { return costModel(swing(t)) }},
	// a small bad deploy: one function adds 20% to the service's CPU per
	// request, under the service regressions' floors
	{"checkout", func(_ time.Time, live bool) (float64, float64, float64) {
		rows := profileRows("checkout", live)
		return 16, rows[checkoutFunction][0] + rows["other"][0], synth.Typical.FixedAlloc
	}},
}

// The functions hotpath-profile-metrics exports rows for.
const (
	apiFunction      = "main.(*Server).handle"
	checkoutFunction = "checkout.render"
)

// profileRows are hotpath-profile-metrics' rows of a service (CPU cores and
// allocated bytes/s per function, "other" the rest of its profile, so they
// sum to the service's own), nil for a service the bridge does not see. api
// spends 60% in one function, always; checkout's render costs 10% of its CPU
// in the history and 30% live (0.05 -> 0.15 cores: +20% of the service).
func profileRows(job string, live bool) map[string][2]float64 {
	switch job {
	case "api":
		cpu, alloc := 0.3125, synth.Typical.FixedAlloc
		return map[string][2]float64{apiFunction: {0.6 * cpu, 0.6 * alloc}, "other": {0.4 * cpu, 0.4 * alloc}}
	case "checkout":
		render := 0.05
		if live {
			render += 0.1
		}
		alloc := synth.Typical.FixedAlloc
		return map[string][2]float64{checkoutFunction: {render, 0.1 * alloc}, "other": {0.45, 0.9 * alloc}}
	}
	return nil
}

// checkout's routes (OpenTelemetry's http_route) and the bridge's endpoint
// rows of its profile: /render is the route whose code regresses (its
// render), 4 req/s at 1/80 s a request in the history and 3/80 s live;
// /cart, 12 req/s, holds its cost. Each row is [route req/s, CPU cores,
// allocated bytes/s]; other and unlabelled have no requests of their own,
// and the rows sum to the service's own CPU and allocations.
func endpointRows(job string, live bool) map[string][3]float64 {
	if job != "checkout" {
		return nil
	}
	render := 0.05
	if live {
		render += 0.1
	}
	alloc := synth.Typical.FixedAlloc
	return map[string][3]float64{
		"/render":    {4, render, 0.1 * alloc},
		"/cart":      {12, 0.35, 0.7 * alloc},
		"other":      {0, 0.05, 0.1 * alloc},
		"unlabelled": {0, 0.05, 0.1 * alloc},
	}
}

// endpointLabels are a bridge endpoint row's labels.
func endpointLabels(job, endpoint string) string {
	return fmt.Sprintf("job=%q,endpoint=%q", job, endpoint)
}

// profileLabels are a bridge row's labels: the service label and the
// function only (the bridge knows neither cluster nor namespace).
func profileLabels(job, function string) string {
	return fmt.Sprintf("job=%q,function=%q", job, function)
}

func labels(job string, extra ...string) string {
	return strings.Join(append([]string{`cluster="eu1"`, `namespace="shop"`, fmt.Sprintf("job=%q", job)}, extra...), ",")
}

// counters integrates the live rates into the scraped counters: each update
// adds rate * elapsed, so the counters stay monotonic when a rate changes
// (the hour turns) and rate() reads back the live rates. They start at
// synth.CounterBase;
// rawHistory writes the minutes before, so rate windows are full at once.
type counters struct {
	last   time.Time
	values map[string]float64
	// rolledOut: the throttled container's image is ciOperatorNext (set by
	// the test once the first tag is recorded), else ciOperatorFirst
	rolledOut atomic.Bool
}

// The throttled container's image tags in kube-state-metrics, before and
// after its rollout.
const ciOperatorFirst, ciOperatorNext = "2.2", "2.3"

// swingRoute is the route counter of swing that has no history.
var swingRoute = "http_server_request_duration_seconds_count{" + labels("swing", `instance="i1"`, `http_route="/swing"`) + "}"

func newCounters(now time.Time) *counters { return &counters{last: now, values: map[string]float64{}} }

// Page advances the counters to `now` and renders the scraped page.
func (c *counters) Page(now time.Time) string {
	dt := now.Sub(c.last).Seconds()
	c.last = now
	var b strings.Builder
	each(now, func(key string, perSecond float64) {
		c.values[key] += perSecond * dt
		fmt.Fprintf(&b, "%s %g\n", key, synth.CounterBase+c.values[key])
	})
	// swing's route counter, live only: no counter 15m before the live start
	// reads as a new instance, which the endpoint costs leave out of its
	// service's for endpointWarmUp (instance:route_requests:restarted)
	c.values[swingRoute] += swing(now) * dt
	fmt.Fprintf(&b, "%s %g\n", swingRoute, c.values[swingRoute])
	// each service's resident memory (a gauge, as client_golang's process collector exports it)
	for _, s := range services {
		fmt.Fprintf(&b, "process_resident_memory_bytes{%s} 6e+07\n", labels(s.job, `instance="i1"`))
	}
	ct := `cluster="eu1",namespace="ci",pod="ci-operator-1",container="app"`
	fmt.Fprintf(&b, "container_spec_cpu_quota{%s} 30000\n", ct)
	fmt.Fprintf(&b, "container_spec_cpu_period{%s} 100000\n", ct)
	// kube-state-metrics' CPU request of the same container
	fmt.Fprintf(&b, "kube_pod_container_resource_requests{%s,resource=\"cpu\",unit=\"core\"} 0.1\n", ct)
	// kube-state-metrics' images of its pod, a mesh sidecar beside it: the
	// versions group's default source
	tag := ciOperatorFirst
	if c.rolledOut.Load() {
		tag = ciOperatorNext
	}
	fmt.Fprintf(&b, "kube_pod_container_info{%s,image=\"registry.example.com/ci/operator:%s\"} 1\n", ct, tag)
	fmt.Fprintf(&b, "kube_pod_container_info{cluster=\"eu1\",namespace=\"ci\",pod=\"ci-operator-1\",container=\"istio-proxy\",image=\"docker.io/istio/proxyv2:1.21.0\"} 1\n")
	return b.String()
}

// rawHistory is the scraped counters over [from, start), every step, ending
// where the live ones begin.
func rawHistory(from, start time.Time, step time.Duration) string {
	return harness.RawHistory(from, start, step, func(t time.Time, counter, _ func(string, float64)) { each(t, counter) })
}

// each calls f with every scraped counter and its live rate at t: the
// services, their profile rows, the service-graph edge api -> cache, and a
// throttled container.
func each(now time.Time, f func(key string, perSecond float64)) {
	counter := func(name, ls string, perSecond float64) { f(name+"{"+ls+"}", perSecond) }
	for _, s := range services {
		req, cpu, alloc := s.rates(now, true)
		l := labels(s.job, `instance="i1"`)
		counter("http_requests_total", l, req)
		counter("process_cpu_seconds_total", l, cpu)
		counter("go_memstats_alloc_bytes_total", l, alloc)
		// the bridge's rows, with the instance label its scrape adds (the
		// history's raw samples and the live ones are then one series)
		for function, r := range profileRows(s.job, true) {
			bl := profileLabels(s.job, function) + `,instance="profile-metrics"`
			counter("hotpath_profile_cpu_seconds_total", bl, r[0])
			counter("hotpath_profile_alloc_bytes_total", bl, r[1])
		}
		for endpoint, r := range endpointRows(s.job, true) {
			el := endpointLabels(s.job, endpoint) + `,instance="profile-metrics"`
			counter("hotpath_profile_endpoint_cpu_seconds_total", el, r[1])
			counter("hotpath_profile_endpoint_alloc_bytes_total", el, r[2])
			if r[0] > 0 {
				counter("http_server_request_duration_seconds_count", labels(s.job, `instance="i1"`, fmt.Sprintf("http_route=%q", endpoint)), r[0])
			}
		}
	}
	counter("traces_service_graph_request_total", `client="api",server="cache",connection_type=""`, 16)
	ct := `cluster="eu1",namespace="ci",pod="ci-operator-1",container="app"`
	counter("container_cpu_cfs_periods_total", ct, 10)
	counter("container_cpu_cfs_throttled_periods_total", ct, 5)
	counter("container_cpu_cfs_throttled_seconds_total", ct, 0.5)
	counter("container_cpu_usage_seconds_total", ct, 0.25)
	// the throttled container's pod serves requests too: its throttled time per request
	counter("http_requests_total", `cluster="eu1",namespace="ci",job="ci-operator",instance="i1",pod="ci-operator-1"`, 5)
}

// longFitMinutes are the 1m records in the long load fit's window (3h).
const longFitMinutes = 180

// history is what the 1m groups would have recorded over [from, to)
// (synth.Job), the long load fit's slopes (every 5m: synth.LoadSlope), and
// the noise groups' samples of the functions' costs and the endpoints' cost
// per request, ending in "# EOF".
func history(from, to time.Time) string {
	series := map[string][]string{} // name -> lines
	add := func(r synth.Record, ls string, t time.Time) {
		if r.Half != "" {
			ls += fmt.Sprintf(",half=%q", r.Half)
		}
		series[r.Name] = append(series[r.Name], fmt.Sprintf("%s{%s} %g %d", r.Name, ls, r.Value, t.Unix()))
	}
	for _, s := range services {
		l := labels(s.job)
		var window []synth.Job // the long fit's: its last longFitMinutes
		for t := from; t.Before(to); t = t.Add(time.Minute) {
			req, cpu, alloc := s.rates(t, false)
			j := synth.Job{Req: req, CPU: cpu, Alloc: alloc}
			for _, r := range j.Recorded() {
				add(r, l, t)
			}
			if window = append(window, j); len(window) > longFitMinutes {
				window = window[1:]
			}
			if t.Sub(from)%(5*time.Minute) == 0 { // the baseline group's interval
				for _, r := range j.Sampled(req >= synth.DiurnalMedian) {
					add(r, l, t)
				}
				if slope, ok := synth.LoadSlope(window); ok && len(window) == longFitMinutes {
					add(synth.Record{Name: "job:cpu_seconds_per_request:long_slope", Value: slope}, l, t)
				}
				// the function cost models' inputs, sampled as often: each
				// row's cost in its traffic half (the fit's points) and its
				// excess over its model (none: the history is its normal)
				half := "lower"
				if req >= synth.DiurnalMedian {
					half = "upper"
				}
				for function, r := range profileRows(s.job, false) {
					fl := profileLabels(s.job, function)
					add(synth.Record{Name: "job_function:cpu_seconds:by_half", Value: r[0], Half: half}, fl, t)
					add(synth.Record{Name: "job_function:alloc_bytes:by_half", Value: r[1], Half: half}, fl, t)
					add(synth.Record{Name: "job_function:cpu_seconds_excess_share:smoothed_sampled", Value: 0}, fl, t)
					add(synth.Record{Name: "job_function:alloc_bytes_excess_share:smoothed_sampled", Value: 0}, fl, t)
				}
				// the endpoint noise model's input: each route's cost per
				// request of its own requests
				for endpoint, r := range endpointRows(s.job, false) {
					if r[0] > 0 {
						el := endpointLabels(s.job, endpoint)
						add(synth.Record{Name: "job_endpoint:cpu_seconds_per_request:smoothed_sampled", Value: r[1] / r[0]}, el, t)
						add(synth.Record{Name: "job_endpoint:alloc_bytes_per_request:smoothed_sampled", Value: r[2] / r[0]}, el, t)
					}
				}
			}
		}
	}
	for t := from; t.Before(to); t = t.Add(time.Minute) {
		for _, r := range synth.Upstream(10, t.Sub(from)%(5*time.Minute) == 0) {
			add(r, labels("api", `upstream="cache"`), t)
		}
	}
	return promkit.OpenMetricsGauges(series) + "# EOF\n"
}

// meanRequestRate is s's live request rate averaged over the window before
// now, a second at a time: what a rate over that window reads back.
func meanRequestRate(s service, now time.Time, window time.Duration) float64 {
	var sum float64
	n := int(window / time.Second)
	for i := 0; i < n; i++ {
		req, _, _ := s.rates(now.Add(-time.Duration(i)*time.Second), true)
		sum += req
	}
	return sum / float64(n)
}
