package playground

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/load"
	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
)

// History is the synthetic day of normal traffic the playground backfills
// before it starts, so the rule pack's baselines have the history they need
// (a day for the cost model, 6h at least, the upstream ratio's median, the
// recent fit's previous window) without weakening any alert.
//
// Each instance's request rate is its live load shape (the same spec the
// load generator runs, phase-aligned with it) times a day/night curve that is
// 1 at the end (the live level) and 0.1 twelve hours earlier (the nightly
// 10x low). Its counters integrate that rate through the calibrated cost
// lines: CPU = fixed + marginal * req/s, allocations likewise, the api's
// service-graph edge per request, the cache's requests from the api's, and
// for each cgroup cAdvisor's usage and CFS periods, with no throttling, and
// kube-state-metrics' image of each pod (one version all day).
// Every series carries exactly the labels the live scrape gives it.
type History struct {
	World *World
	Cal   *Calibration
	// End is the live Prometheus's start: the history ends one scrape
	// interval before it. LoadStart anchors the load shapes' phase.
	End, LoadStart time.Time
	Length         time.Duration // 24h
	Step           time.Duration // the scrape interval
	Seed           uint64
	// Functions are the bridge's rows measured live (historyfunctions.go);
	// nil: the history has no function series.
	Functions *FunctionCosts
}

// Diurnal is the day/night factor d hours before the end: 1 at the end, 0.1
// at the night's low 12h earlier.
func Diurnal(before time.Duration) float64 {
	return 0.55 + 0.45*math.Cos(2*math.Pi*before.Hours()/24)
}

// shapeAt is a load spec's rate at elapsed time e, for any e (the history
// runs before the load generator's start: periodic shapes wrap).
func shapeAt(spec string, e time.Duration) (float64, error) {
	r, err := load.ParseRate(spec)
	if err != nil {
		return 0, err
	}
	parts := strings.Split(spec, ":")
	if len(parts) == 4 {
		p, _ := time.ParseDuration(parts[3])
		e = ((e % p) + p) % p
	}
	return r(e), nil
}

type histSeries struct {
	key    string // name{labels}
	values []float64
}

// series builds every series of the history, in memory (a day at 15s is
// 5760 points per series, about 60 series).
func (h *History) series() ([]histSeries, error) {
	n := int(h.Length / h.Step)
	times := make([]time.Time, n)
	for k := range n {
		times[k] = h.End.Add(-time.Duration(n-k) * h.Step)
	}
	rng := rand.New(rand.NewPCG(h.Seed, 42))
	noisy := func(v, sd float64) float64 { return math.Max(0, v*(1+sd*rng.NormFloat64())) }

	// Requests per step of every instance, and per job.
	reqPerStep := map[string][]float64{}
	jobReq := map[string][]float64{}
	for _, t := range h.World.LoadTargets() {
		in := t.Service.Instances[t.Instance].Addr()
		xs := make([]float64, n)
		for k, at := range times {
			r, err := shapeAt(t.Rate, at.Sub(h.LoadStart))
			if err != nil {
				return nil, err
			}
			xs[k] = noisy(r*Diurnal(h.End.Sub(at)), 0.05) * h.Step.Seconds()
		}
		reqPerStep[in] = xs
		jr := jobReq[t.Service.Job]
		if jr == nil {
			jr = make([]float64, n)
		}
		for k := range xs {
			jr[k] += xs[k]
		}
		jobReq[t.Service.Job] = jr
	}
	// The cache serves the api's calls.
	if cache := h.World.Service("cache"); cache != nil && jobReq["api"] != nil {
		xs := make([]float64, n)
		for k, v := range jobReq["api"] {
			xs[k] = v * h.Cal.UpstreamShare / float64(len(cache.Instances))
		}
		for _, in := range cache.Instances {
			reqPerStep[in.Addr()] = xs
		}
		jobReq["cache"] = xs
	}

	var out []histSeries
	counter := func(key string, perStep func(k int) float64) {
		vals := make([]float64, n)
		total := 0.0
		for k := range n {
			total += perStep(k)
			vals[k] = total
		}
		out = append(out, histSeries{key, vals})
	}
	gauge := func(key string, v float64) {
		vals := make([]float64, n)
		for k := range vals {
			vals[k] = v
		}
		out = append(out, histSeries{key, vals})
	}
	withTarget := func(s promkit.Metric, job, instance string, extra map[string]string) string {
		l := map[string]string{}
		for k, v := range extra {
			l[k] = v
		}
		for k, v := range s.Labels {
			l[k] = v
		}
		l["job"], l["instance"] = job, instance
		return s.Name + "{" + promkit.FormatLabels(l) + "}"
	}
	cpuPerStep := map[string][]float64{} // by job, for cAdvisor's usage
	step := h.Step.Seconds()
	for _, svc := range h.World.Services {
		jc := make([]float64, n)
		for _, in := range svc.Instances {
			ic := h.Cal.Instances[in.Addr()]
			if ic == nil {
				return nil, fmt.Errorf("no calibration for %s %s", svc.Job, in.Addr())
			}
			req := reqPerStep[in.Addr()]
			if req == nil {
				return nil, fmt.Errorf("no requests for %s %s", svc.Job, in.Addr())
			}
			cpu := make([]float64, n)
			for k := range n {
				cpu[k] = noisy(ic.CPU.At(req[k]/step)*step, 0.03)
				jc[k] += cpu[k]
			}
			// The busiest request series gets the traffic; others stay flat.
			var main string
			best := -1.0
			for _, s := range Named(ic.Samples, "http_requests_total") {
				if s.Value > best {
					main, best = s.Key(), s.Value
				}
			}
			for _, s := range ic.Samples {
				key := withTarget(s, svc.Job, in.Addr(), svc.Labels)
				switch s.Name {
				case "http_requests_total":
					if s.Key() == main {
						counter(key, func(k int) float64 { return req[k] })
					}
				case "process_cpu_seconds_total":
					counter(key, func(k int) float64 { return cpu[k] })
				case "go_memstats_alloc_bytes_total":
					counter(key, func(k int) float64 { return noisy(ic.Alloc.At(req[k]/step)*step, 0.03) })
				case "traces_service_graph_request_total":
					counter(key, func(k int) float64 { return req[k] * ic.Edges })
				}
			}
		}
		cpuPerStep[svc.Job] = jc
	}
	out = append(out, h.functionSeries(reqPerStep, rng)...)

	// cAdvisor: the cgroup'ed services' usage and CFS periods, never throttled.
	exporter := fmt.Sprintf("127.0.0.1:%d", h.World.Ports.Exporter)
	podJob := map[string]*Service{}
	for _, s := range h.World.Services {
		if s.Cgroup != nil {
			podJob[s.Cgroup.Pod] = s
		}
	}
	for _, s := range h.Cal.Exporter {
		svc := podJob[s.Labels["pod"]]
		if svc == nil || s.Labels["namespace"] != h.World.Namespace {
			continue
		}
		key := withTarget(s, "cadvisor", exporter, nil)
		group := svc.Cgroup.Pod
		if s.Labels["container"] != "" {
			group = svc.Cgroup.Name()
		}
		jr, jc := jobReq[svc.Job], cpuPerStep[svc.Job]
		switch s.Name {
		case "container_cpu_usage_seconds_total":
			counter(key, func(k int) float64 { return jc[k] })
		case "container_cpu_cfs_periods_total":
			p := h.Cal.Periods[group]
			counter(key, func(k int) float64 { return math.Min(p.At(jr[k]/step), 10) * step })
		case "container_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_seconds_total":
			counter(key, func(int) float64 { return 0 })
		case "container_spec_cpu_quota", "container_spec_cpu_period":
			gauge(key, s.Value)
		}
	}
	// kube-state-metrics: each pod's image as it runs at the start.
	for _, s := range h.World.PodInfo() {
		gauge(withTarget(s, KubeStateJob, h.World.KubeStateAddr(), nil), s.Value)
	}
	return out, nil
}

// WriteOpenMetrics writes the history as OpenMetrics text for `promtool tsdb
// create-blocks-from openmetrics` (through synth.Model, as the tests'
// histories are written). It returns the series and sample counts.
func (h *History) WriteOpenMetrics(path string) (int, int, error) {
	series, err := h.series()
	if err != nil {
		return 0, 0, err
	}
	n := int(h.Length / h.Step)
	first := h.End.Add(-time.Duration(n) * h.Step)
	model := synth.Model(func(t time.Time) map[string]float64 {
		k := int(t.Sub(first) / h.Step)
		at := make(map[string]float64, len(series))
		for _, s := range series {
			at[s.key] = s.values[k]
		}
		return at
	})
	if err := os.WriteFile(path, []byte(model.OpenMetrics(first, h.End, h.Step)), 0o644); err != nil {
		return 0, 0, err
	}
	return len(series), n * len(series), nil
}
