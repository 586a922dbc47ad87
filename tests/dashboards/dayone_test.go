package dashboards

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/hotpath/hotpath/tests/harness"
)

// hotpath on its first day on a cluster (synth.DayOne): Java, Python,
// Node.js, Ruby and .NET services without process metrics or request
// counters of their own, their requests counted by Istio's sidecars (one by
// OpenTelemetry through a Collector), their CPU from cAdvisor, their profiles
// from an eBPF profiler through hotpath-profile-metrics. The pack is the
// shipped one with the one line that turns Istio on
// (testdata/dayone.jsonnet; its groups' intervals shortened and the alerts'
// `for:` set to 0, nothing else). On it: every service gets its requests and
// CPU; recommend's +50% CPU per request fires CPUPerRequestRegression, and
// FunctionCostPerRequestRegression names its culprit; catalog's doubled
// traffic fires nothing, nor does any other service; and every dashboard
// query returns data, but for the few that read what this fleet does not
// export (dayOneWithout says which and why; they must return nothing).
func TestDayOneFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus with a backfilled day of history")
	}
	out := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "dashboards", "testdata", "dayone.jsonnet"))
	ruleFiles := harness.RuleFiles(out)
	ruleFiles[1] = withoutForDurations(t, ruleFiles[1])

	p, live := harness.ServeHistory(t, ruleFiles, dayOneHistory, dayOneRawHistory, newDayOneCounters)
	ctx := context.Background()

	// Every alert seen while the test runs, polled every second: "stays
	// silent" is about all of them, not the last look.
	seen, watchedFrom := watchAlerts(t, p), time.Now()

	// recommend's rollout, once its first image tag is recorded live (a
	// deploy for the versions group to date and the dashboards to mark)
	harness.WaitFor(t, 60*time.Second, "recommend's first image tag recorded", func() (bool, string) {
		s, err := p.Query(ctx, `job:version:info{job="recommend", version="1.4.2"}`)
		return err == nil && len(s) == 1, fmt.Sprintf("%v %v", s, err)
	})
	live.rolledOut.Store(true)

	t.Run("every service gets its requests from the sidecars (checkout from OpenTelemetry) and its CPU from its pods", func(t *testing.T) {
		// what a 5m rate reads back: the live rates' mean over the last
		// 5 minutes (the traffic swings), checked once the rules have
		// evaluated the live samples
		var problems []string
		harness.WaitFor(t, 60*time.Second, "job:requests:rate5m and job:cpu_seconds:rate5m of the fleet, as its counters grow", func() (bool, string) {
			wantReq, wantCPU := map[string]float64{}, map[string]float64{}
			now := time.Now()
			for _, s := range synth.DayOneFleet {
				for i := 0; i < 300; i++ {
					r, c := s.Rates(now.Add(-time.Duration(i)*time.Second), true)
					wantReq[s.Job] += r / 300
					wantCPU[s.Job] += c / 300
				}
			}
			req, err := vectorByJob(p, `job:requests:rate5m{namespace="store"}`)
			if err != nil {
				return false, err.Error()
			}
			cpu, err := vectorByJob(p, `job:cpu_seconds:rate5m{namespace="store"}`)
			if err != nil {
				return false, err.Error()
			}
			problems = append(labelled(harness.CompareRates(req, wantReq), "requests"), labelled(harness.CompareRates(cpu, wantCPU), "CPU")...)
			return len(problems) == 0, strings.Join(problems, "; ")
		})
		harness.RulesHealthy(t, p)
	})

	t.Run("recommend's +50% fires CPUPerRequestRegression, and the function alert names the culprit", func(t *testing.T) {
		harness.WaitFor(t, 90*time.Second, "recommend's regression alerts", func() (bool, string) {
			s, err := p.Query(ctx, `ALERTS{alertstate="firing", job="recommend"}`)
			if err != nil {
				return false, err.Error()
			}
			var got []string
			for _, a := range s {
				got = append(got, a.Metric["alertname"]+"/"+a.Metric["function"])
			}
			sort.Strings(got)
			want := []string{"CPUPerRequestRegression/", "FunctionCostPerRequestRegression/" + synth.DayOneCulprit}
			return slices.Equal(got, want), fmt.Sprintf("firing for recommend: %v, want %v", got, want)
		})
	})

	t.Run("every dashboard query returns data, but for what this fleet does not export", func(t *testing.T) {
		plain, _ := shipped(t)
		// recommend, its culprit for the function variable
		values := func(d dashboard) map[string]string {
			vals := sampleValues(d, "2m")
			for k, v := range vals {
				if v == sampleService {
					vals[k] = "recommend"
				}
				if k == "function" {
					vals[k] = synth.DayOneCulprit
				}
			}
			return vals
		}
		answered := map[string]bool{}
		for key := range plain {
			for _, q := range plain[key].queries(t) {
				if dayOneWithout(key+" "+q.where) != "" {
					answered[key+" "+q.where] = true
				}
			}
		}
		harness.WaitFor(t, 2*time.Minute, "every dashboard query returns data", func() (bool, string) {
			pending := queriesWithoutData(t, p, plain, values, answered)
			return len(pending) == 0, fmt.Sprintf("%d queries without data:\n  %s", len(pending), strings.Join(pending, "\n  "))
		})
		// and those that read what the fleet lacks return nothing: the
		// list above holds only what it must
		for _, name := range sortedKeys(plain) {
			d := plain[name]
			for _, q := range d.queries(t) {
				key := name + " " + q.where
				if why := dayOneWithout(key); why != "" {
					if n, err := countSeries(p, substitute(q.expr, values(d)), q.instant); err != nil || n > 0 {
						t.Errorf("%s: listed as without data (%s), but it returns %d series (%v)", key, why, n, err)
					}
				}
			}
		}
	})

	t.Run("catalog's doubled traffic fires nothing, nor does any healthy service", func(t *testing.T) {
		// the alerts seen since Prometheus started, at every poll, over at
		// least a minute of the alert rules' evaluations (every 5s, `for:`
		// 0): recommend's two, its throttled pod's, and nothing else
		if wait := time.Until(watchedFrom.Add(time.Minute)); wait > 0 {
			time.Sleep(wait)
		}
		for _, a := range seen.list() {
			// recommend's two, and its throttled pod's (not an efficiency
			// alert: a CPU limit too low for it)
			if a == "CPUPerRequestRegression/recommend/" || a == "FunctionCostPerRequestRegression/recommend/"+synth.DayOneCulprit || a == "CPUThrottlingSustained//" {
				continue
			}
			t.Errorf("alert %s: the fleet's other services are healthy (catalog's traffic doubled, its CPU followed)", a)
		}
		if t.Failed() { // what the function alert judged by
			for _, q := range []string{"job_function:cpu_seconds_excess_share:smoothed", "job_function:cpu_seconds_per_request:reference_marginal", "job_function:cpu_seconds:reference_fixed", "job_function:cpu_seconds:rate5m", "sum by (job) (job:requests:rate5m)", "job_function:cpu_seconds:half_quantile", "job:requests:function_half_quantile", "job:requests:baseline_median"} {
				r, err := p.Query(ctx, q)
				t.Logf("%s: %v %v", q, r, err)
			}
		}
	})
}

// labelled prefixes each problem with what it is about.
func labelled(problems []string, what string) []string {
	var out []string
	for _, p := range problems {
		out = append(out, what+": "+p)
	}
	return out
}

// dayOneWithout says why a dashboard query has no data on the day-one
// fleet: it reads a signal such a fleet does not export. "" for every other.
func dayOneWithout(key string) string {
	const goRuntime = "Go's runtime metrics: no Go service (another runtime's: allocMetric, heapMetric, gcDurationMetric)"
	const serviceGraph = "a service graph (Tempo's or Alloy's, from traces) or staticUpstreams"
	const allocProfiles = "allocation profiles: an eBPF profiler samples CPU only"
	const endpoints = "profiles by endpoint: an eBPF profiler's samples carry no route (endpointProfileLabels), nor do the sidecars count per route (endpointRequestSources)"
	return map[string]string{
		"hotpath-service.json Endpoints: CPU per request (top 10) / A":             endpoints,
		"hotpath-service.json Endpoints: the request mix / A":                      endpoints,
		"hotpath-service.json Endpoints or mix? / A":                               endpoints,
		"hotpath-service.json Endpoints or mix? / B":                               endpoints,
		"hotpath-service.json Endpoints or mix? / C":                               endpoints,
		"hotpath-service.json Endpoints: bytes allocated per request (top 10) / A": endpoints,
		"hotpath-service.json The named endpoint: CPU per request / A":             endpoints,
		"hotpath-service.json The named endpoint: CPU per request / B":             endpoints,
		"hotpath-service.json The named endpoint: bytes allocated per request / A": endpoints,
		"hotpath-service.json The named endpoint: bytes allocated per request / B": endpoints,
		"hotpath-service.json CPU per request with its flame graph / G":            endpoints,
		"hotpath-service.json variable endpoint":                                   endpoints,
		"hotpath-service.json Bytes allocated per request vs baseline / A":         goRuntime,
		"hotpath-service.json Bytes allocated per request vs baseline / B":         goRuntime,
		"hotpath-service.json Allocation rate / A":                                 goRuntime,
		"hotpath-service.json Heap in use / A":                                     goRuntime,
		"hotpath-service.json GC cycles / A":                                       goRuntime,
		"hotpath-service.json GC stop-the-world pause / A":                         goRuntime,
		"hotpath-service.json GOMAXPROCS vs CPU limit / A":                         goRuntime,
		"hotpath-service.json Cost a month at the current rate / B":                "process_resident_memory_bytes (memoryMetric): no process metrics",
		"hotpath-service.json CPU per request relative to each upstream / A":       serviceGraph,
		"hotpath-service.json CPU per request relative to each upstream / B":       serviceGraph,
		"hotpath-service.json Functions: bytes allocated per request (top 10) / A": allocProfiles,
		"hotpath-service.json The named function: bytes allocated per request / A": allocProfiles,
		"hotpath-service.json The named function: bytes allocated per request / B": allocProfiles,
		"hotpath-service.json The named function: bytes allocated per request / C": allocProfiles,
		"hotpath-overview.json Services by CPU / G":                                serviceGraph,
		"hotpath-overview.json CPU per request vs upstream: top 10 / A":            serviceGraph,
	}[key]
}

// alertsSeen collects alertname/job/function of every alert series seen.
type alertsSeen struct {
	mu  sync.Mutex
	set map[string]bool
}

func (a *alertsSeen) list() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Sorted(maps.Keys(a.set))
}

func watchAlerts(t *testing.T, p *harness.Prometheus) *alertsSeen {
	a := &alertsSeen{set: map[string]bool{}}
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				s, err := p.Query(context.Background(), `ALERTS`)
				if err != nil {
					continue
				}
				a.mu.Lock()
				for _, x := range s {
					a.set[x.Metric["alertname"]+"/"+x.Metric["job"]+"/"+x.Metric["function"]] = true
				}
				a.mu.Unlock()
			}
		}
	}()
	return a
}

// dayOneCounters integrates the fleet's live rates into its scraped
// counters, each from synth.CounterBase at start (dayOneRawHistory writes
// the minutes before, ending there).
type dayOneCounters struct {
	mu        sync.Mutex
	last      time.Time
	values    map[string]float64
	rolledOut atomic.Bool // recommend runs 1.4.3
}

func newDayOneCounters(start time.Time) *dayOneCounters {
	return &dayOneCounters{last: start, values: map[string]float64{}}
}

// key is a series as the text format and OpenMetrics write it, without the
// spaces after commas the synth shapes carry.
func textKey(series string) string { return strings.ReplaceAll(series, ", ", ",") }

// Page advances the counters to now and renders the scraped page.
func (c *dayOneCounters) Page(now time.Time) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	dt := now.Sub(c.last).Seconds()
	c.last = now
	var b strings.Builder
	rates := synth.DayOneCounters(now, true)
	for _, k := range slices.Sorted(maps.Keys(rates)) {
		c.values[k] += rates[k] * dt
		fmt.Fprintf(&b, "%s %g\n", textKey(k), synth.CounterBase+c.values[k])
	}
	gauges := synth.DayOneGauges(c.rolledOut.Load())
	for _, k := range slices.Sorted(maps.Keys(gauges)) {
		fmt.Fprintf(&b, "%s %g\n", textKey(k), gauges[k])
	}
	return b.String()
}

// dayOneRawHistory is the counters and gauges over [from, start), every
// step, at their live rates, ending where the live counters begin.
func dayOneRawHistory(from, start time.Time, step time.Duration) string {
	return harness.RawHistory(from, start, step, func(t time.Time, counter, gauge func(string, float64)) {
		for k, perSecond := range synth.DayOneCounters(t, true) {
			counter(textKey(k), perSecond)
		}
		for k, v := range synth.DayOneGauges(false) {
			gauge(textKey(k), v)
		}
	})
}

// dayOneHistory is what the 1m groups would have recorded over [from, to)
// from the fleet before today (every service healthy, at its usual traffic),
// and the noise groups' samples of the functions' costs, ending in "# EOF".
func dayOneHistory(from, to time.Time) string {
	series := map[string][]string{}
	add := func(r synth.Record, ls string, t time.Time) {
		if r.Half != "" {
			ls += fmt.Sprintf(",half=%q", r.Half)
		}
		series[r.Name] = append(series[r.Name], fmt.Sprintf("%s{%s} %g %d", r.Name, ls, r.Value, t.Unix()))
	}
	for _, s := range synth.DayOneFleet {
		l := fmt.Sprintf(`cluster="eu1",namespace=%q,job=%q`, synth.DayOneNamespace, s.Job)
		for t := from; t.Before(to); t = t.Add(time.Minute) {
			req, cpu := s.Rates(t, false)
			j := synth.Job{Req: req, CPU: cpu}
			for _, r := range j.Recorded() {
				if !strings.HasPrefix(r.Name, "job:alloc_bytes") {
					add(r, l, t)
				}
			}
			if t.Sub(from)%(5*time.Minute) != 0 { // the baseline group's interval
				continue
			}
			for _, r := range j.Sampled(req >= synth.DiurnalMedian) {
				if !strings.HasPrefix(r.Name, "job:alloc_bytes") {
					add(r, l, t)
				}
			}
			// the function cost models' inputs: each row's cost in its
			// traffic half (the fit's points) and its excess over its model
			// (none: the history is its normal)
			half := "lower"
			if req >= synth.DiurnalMedian {
				half = "upper"
			}
			for f, v := range s.Rows(t, false) {
				fl := fmt.Sprintf("job=%q,function=%q", s.Job, f)
				add(synth.Record{Name: "job_function:cpu_seconds:by_half", Value: v, Half: half}, fl, t)
				add(synth.Record{Name: "job_function:cpu_seconds_excess_share:smoothed_sampled", Value: 0}, fl, t)
			}
		}
	}
	return promkit.OpenMetricsGauges(series) + "# EOF\n"
}
