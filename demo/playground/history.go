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
// 5760 points per series, about 60 series). The noise is drawn in one fixed
// order (requests, the services' counters, the bridge's rows), so a seed gives
// one history.
func (h *History) series() ([]histSeries, error) {
	b := &historyBuilder{h: h, n: int(h.Length / h.Step), step: h.Step.Seconds(), rng: rand.New(rand.NewPCG(h.Seed, 42)),
		reqPerStep: map[string][]float64{}, routeReq: map[string][]float64{}, jobReq: map[string][]float64{}, cpuPerStep: map[string][]float64{}}
	if err := b.requests(); err != nil {
		return nil, err
	}
	for _, svc := range h.World.Services {
		if err := b.service(svc); err != nil {
			return nil, err
		}
	}
	b.out = append(b.out, h.functionSeries(b.reqPerStep, b.rng)...)
	b.out = append(b.out, h.endpointSeries(b.reqPerStep, b.routeReq, b.rng)...)
	b.cadvisor()
	// kube-state-metrics: each pod's image as it runs at the start.
	for _, s := range h.World.PodInfo() {
		b.gauge(withTarget(s, KubeStateJob, h.World.KubeStateAddr(), nil), s.Value)
	}
	return b.out, nil
}

// historyBuilder holds what the history's series are built from as they are
// built: the requests per step, by instance and by job, and the CPU per step
// by job (cAdvisor's usage).
type historyBuilder struct {
	h          *History
	n          int     // points per series
	step       float64 // seconds
	rng        *rand.Rand
	reqPerStep map[string][]float64 // by instance
	routeReq   map[string][]float64 // by instance and route ("127.0.0.1:9110 /search")
	jobReq     map[string][]float64
	cpuPerStep map[string][]float64 // by job
	out        []histSeries
}

func (b *historyBuilder) noisy(v, sd float64) float64 {
	return math.Max(0, v*(1+sd*b.rng.NormFloat64()))
}

// counter adds a counter that grows by perStep(k) at each point k.
func (b *historyBuilder) counter(key string, perStep func(k int) float64) {
	vals := make([]float64, b.n)
	total := 0.0
	for k := range b.n {
		total += perStep(k)
		vals[k] = total
	}
	b.out = append(b.out, histSeries{key, vals})
}

// gauge adds a series that keeps the value v.
func (b *historyBuilder) gauge(key string, v float64) {
	vals := make([]float64, b.n)
	for k := range vals {
		vals[k] = v
	}
	b.out = append(b.out, histSeries{key, vals})
}

// withTarget is a sample's series key with the labels the live scrape gives
// it: the target's extra labels, its own, then job and instance.
func withTarget(s promkit.Metric, job, instance string, extra map[string]string) string {
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

// requests fills the requests per step of every route of every instance
// (its load shape times the day/night curve), their sums by instance and by
// job; the cache serves the api's calls.
func (b *historyBuilder) requests() error {
	h := b.h
	times := make([]time.Time, b.n)
	for k := range b.n {
		times[k] = h.End.Add(-time.Duration(b.n-k) * h.Step)
	}
	add := func(m map[string][]float64, key string, xs []float64) {
		sum := m[key]
		if sum == nil {
			sum = make([]float64, b.n)
			m[key] = sum
		}
		for k := range xs {
			sum[k] += xs[k]
		}
	}
	for _, t := range h.World.LoadTargets() {
		in := t.Service.Instances[t.Instance].Addr()
		xs := make([]float64, b.n)
		for k, at := range times {
			r, err := shapeAt(t.Rate, at.Sub(h.LoadStart))
			if err != nil {
				return err
			}
			xs[k] = b.noisy(r*Diurnal(h.End.Sub(at)), 0.05) * b.step
		}
		b.routeReq[in+" "+t.Route] = xs
		add(b.reqPerStep, in, xs)
		add(b.jobReq, t.Service.Job, xs)
	}
	if cache := h.World.Service("cache"); cache != nil && b.jobReq["api"] != nil {
		xs := make([]float64, b.n)
		for k, v := range b.jobReq["api"] {
			xs[k] = v * h.Cal.UpstreamShare / float64(len(cache.Instances))
		}
		for _, in := range cache.Instances {
			b.reqPerStep[in.Addr()] = xs
		}
		b.jobReq["cache"] = xs
	}
	return nil
}

// service adds the counters of each of a service's instances through its
// calibrated cost lines, and sums its CPU per step.
func (b *historyBuilder) service(svc *Service) error {
	jc := make([]float64, b.n)
	for _, in := range svc.Instances {
		ic := b.h.Cal.Instances[in.Addr()]
		if ic == nil {
			return fmt.Errorf("no calibration for %s %s", svc.Job, in.Addr())
		}
		req := b.reqPerStep[in.Addr()]
		if req == nil {
			return fmt.Errorf("no requests for %s %s", svc.Job, in.Addr())
		}
		cpu := make([]float64, b.n)
		for k := range b.n {
			cpu[k] = b.noisy(ic.CPU.At(req[k]/b.step)*b.step, 0.03)
			jc[k] += cpu[k]
		}
		b.instance(svc, in, ic, req, cpu)
	}
	b.cpuPerStep[svc.Job] = jc
	return nil
}

// instance adds one instance's counters, with its live labels.
func (b *historyBuilder) instance(svc *Service, in Instance, ic *InstanceCost, req, cpu []float64) {
	// The busiest request series of each route gets the route's traffic
	// (of a service of one route, or none of its own: the instance's);
	// others stay flat.
	routeReq := func(s promkit.Metric, label string) []float64 {
		if len(svc.OtherRoutes) == 0 {
			return req
		}
		return b.routeReq[in.Addr()+" "+s.Labels[label]]
	}
	busiest := func(name, label string) map[string]string {
		main, best := map[string]string{}, map[string]float64{}
		for _, s := range Named(ic.Samples, name) {
			r := ""
			if len(svc.OtherRoutes) > 0 {
				r = s.Labels[label]
			}
			if _, ok := main[r]; !ok || s.Value > best[r] {
				main[r], best[r] = s.Key(), s.Value
			}
		}
		out := map[string]string{}
		for _, k := range main {
			out[k] = k
		}
		return out
	}
	mainReq := busiest("http_requests_total", "handler")
	mainRoute := busiest(routeRequestsMetric, routeLabel)
	for _, s := range ic.Samples {
		key := withTarget(s, svc.Job, in.Addr(), svc.Labels)
		switch s.Name {
		case "http_requests_total":
			if xs := routeReq(s, "handler"); mainReq[s.Key()] != "" && xs != nil {
				b.counter(key, func(k int) float64 { return xs[k] })
			}
		case routeRequestsMetric:
			if xs := routeReq(s, routeLabel); svc.Endpoints && mainRoute[s.Key()] != "" && xs != nil {
				b.endingAtZero(key, xs)
			}
		case "process_cpu_seconds_total":
			b.counter(key, func(k int) float64 { return cpu[k] })
		case "go_memstats_alloc_bytes_total":
			b.counter(key, func(k int) float64 { return b.noisy(ic.Alloc.At(req[k]/b.step)*b.step, 0.03) })
		case "traces_service_graph_request_total":
			b.counter(key, func(k int) float64 { return req[k] * ic.Edges })
		}
	}
}

// endingAtZero adds a counter that grows by perStep[k] at each point k and
// reaches 0 at the history's end: the live counter starts near 0 from its
// process's start, so the two meet without a decrease. The endpoint rules
// read a decrease of the per-route request counters as a restart and leave
// the instance out for 15 minutes (endpointWarmUp), which at the history's
// end would blank the service's endpoint costs for the live start.
// Prometheus' rate takes a counter below 0 as it is (it only stops the
// extrapolation at 0 for a counter that starts at or above it).
func (b *historyBuilder) endingAtZero(key string, perStep []float64) {
	vals := make([]float64, b.n)
	for k := b.n - 1; k > 0; k-- {
		vals[k-1] = vals[k] - perStep[k]
	}
	b.out = append(b.out, histSeries{key, vals})
}

// cadvisor adds the cgroup'ed services' usage and CFS periods, never
// throttled, and their quota as it is live.
func (b *historyBuilder) cadvisor() {
	h := b.h
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
		jr, jc := b.jobReq[svc.Job], b.cpuPerStep[svc.Job]
		switch s.Name {
		case "container_cpu_usage_seconds_total":
			b.counter(key, func(k int) float64 { return jc[k] })
		case "container_cpu_cfs_periods_total":
			p := h.Cal.Periods[group]
			b.counter(key, func(k int) float64 { return math.Min(p.At(jr[k]/b.step), 10) * b.step })
		case "container_cpu_cfs_throttled_periods_total", "container_cpu_cfs_throttled_seconds_total":
			b.counter(key, func(int) float64 { return 0 })
		case "container_spec_cpu_quota", "container_spec_cpu_period":
			b.gauge(key, s.Value)
		}
	}
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
