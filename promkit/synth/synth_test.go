package synth

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The history and the live page of one model meet on the same line: each
// series' samples together and in time order, stopping one step short of the
// live start, where the page continues.
func TestHistoryMeetsThePage(t *testing.T) {
	start := time.Unix(1795321130, 0)
	m := Model(func(t time.Time) map[string]float64 {
		return map[string]float64{
			`b_total{job="x"}`: CounterAt(start, t, 2),
			`a{job="x"}`:       7,
		}
	})
	om := m.OpenMetrics(start.Add(-time.Minute), start, 15*time.Second)
	lines := strings.Split(strings.TrimSuffix(om, "# EOF\n"), "\n")
	lines = lines[:len(lines)-1]
	if len(lines) != 8 || !strings.HasSuffix(om, "# EOF\n") {
		t.Fatalf("%d lines:\n%s", len(lines), om)
	}
	last := map[string]int64{}
	for _, l := range lines {
		f := strings.Fields(l)
		ts, _ := strconv.ParseInt(f[2], 10, 64)
		if prev, ok := last[f[0]]; ok && ts != prev+15 {
			t.Errorf("%s: %d after %d", f[0], ts, prev)
		}
		last[f[0]] = ts
	}
	if last[`b_total{job="x"}`] != start.Unix()-15 {
		t.Errorf("the history ends at %d, want one step before the start", last[`b_total{job="x"}`])
	}
	if !strings.Contains(om, `b_total{job="x"} 999880 `+strconv.FormatInt(start.Unix()-60, 10)) {
		t.Errorf("the counter is not on its line 60s before the start:\n%s", om)
	}
	if page := m.Page(start.Add(10 * time.Second)); page != "a{job=\"x\"} 7\nb_total{job=\"x\"} 1.00002e+06\n" {
		t.Errorf("page %q", page)
	}
}

// What the job-level groups record follows from a service's rates.
func TestRecorded(t *testing.T) {
	j := Job{Req: 4, CPU: 0.5, Alloc: 1 << 20}
	got := map[string]float64{}
	for _, r := range append(j.Recorded(), j.Sampled(false)...) {
		got[r.Name+"/"+r.Half] = r.Value
	}
	want := map[string]float64{
		"job:requests:rate5m/": 4, "job:cpu_seconds:rate5m/": 0.5, "job:alloc_bytes:rate5m/": 1 << 20,
		"job:cpu_seconds_per_request:ratio_rate5m/": 0.125, "job:alloc_bytes_per_request:ratio_rate5m/": 1 << 18,
		"job:cpu_seconds_times_requests:rate5m/": 2, "job:requests_squared:rate5m/": 16,
		"job:requests:rate5m_sampled/": 4, "job:requests:rate5m_by_half/lower": 4,
		"job:cpu_seconds:rate5m_by_half/lower": 0.5, "job:alloc_bytes:rate5m_by_half/lower": 1 << 20,
		"job:cpu_seconds:baseline_residual_sampled/": 1, "job:alloc_bytes:baseline_residual_sampled/": 1,
	}
	if len(got) != len(want) {
		t.Errorf("%v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %g, want %g", k, got[k], v)
		}
	}
	if r := j.Sampled(true); r[1].Half != "upper" {
		t.Errorf("upper half: %+v", r[1])
	}
	if len(Upstream(10, false)) != 1 || len(Upstream(10, true)) != 2 {
		t.Error("the upstream ratio's sampled copy only when sampled")
	}
}

// The load fits' slope: the cost line's per-request part where traffic
// swung, nothing where it held still.
func TestLoadSlope(t *testing.T) {
	var swung, still []Job
	for i := 0; i < 180; i++ {
		req := 2.0 + float64(i%60)/3 // 2 to 21.7 req/s
		cpu, _ := Typical.At(req)
		swung = append(swung, Job{Req: req, CPU: cpu})
		still = append(still, Job{Req: 20 + float64(i%2), CPU: 1})
	}
	if s, ok := LoadSlope(swung); !ok || math.Abs(s-Typical.CPUPerRequest) > 1e-12 {
		t.Errorf("swung: %g %v, want %g", s, ok, Typical.CPUPerRequest)
	}
	if s, ok := LoadSlope(still); ok {
		t.Errorf("still traffic (cv 0.02): slope %g recorded", s)
	}
	if _, ok := LoadSlope(nil); ok {
		t.Error("an empty window: a slope recorded")
	}
}

// RealShapes' expected request rates are what its request counters add up
// to per job: the numbers the tests assert come from the series they serve.
func TestRealShapesExpectedRequests(t *testing.T) {
	job := regexp.MustCompile(`job="([^"]+)"`)
	sum := map[string]float64{}
	for _, s := range RealShapes(time.Now()).Series {
		if s.Name == "http_requests_total" {
			sum[job.FindStringSubmatch(s.Labels)[1]] += s.Rate
		}
	}
	// the jobs counting in http_requests_total; the others count in the
	// other sources' counters (sources.go), and the real-Prometheus tests
	// read them back
	for j, got := range sum {
		if want, ok := ExpectedRequests[j]; !ok || got != want {
			t.Errorf("%s: the series add up to %g req/s, ExpectedRequests says %g", j, got, want)
		}
	}
	if len(sum) != 9 {
		t.Errorf("%d jobs count in http_requests_total, want 9: %v", len(sum), sum)
	}
}
