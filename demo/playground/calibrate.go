package playground

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/promkit"
)

// Cost is a linear cost model: Fixed per second plus PerRequest per request.
type Cost struct{ Fixed, PerRequest float64 }

// At is the cost per second at r requests per second.
func (c Cost) At(r float64) float64 { return c.Fixed + c.PerRequest*r }

// fit is the line through two (req/s, cost/s) points, kept non-negative.
func fit(r1, c1, r2, c2 float64) Cost {
	if r2-r1 < 1e-9 {
		return Cost{Fixed: (c1 + c2) / 2}
	}
	m := (c2 - c1) / (r2 - r1)
	f := c1 - m*r1
	switch {
	case m < 0: // noise: no marginal cost seen
		return Cost{Fixed: (c1 + c2) / 2}
	case f < 0: // noise: no fixed cost seen
		return Cost{PerRequest: (c1 + c2) / (r1 + r2)}
	}
	return Cost{Fixed: f, PerRequest: m}
}

// InstanceCost is one instance's calibrated costs.
type InstanceCost struct {
	Job      string
	Instance string // host:port, its instance label
	Rates    [2]float64
	CPU      Cost // cores
	Alloc    Cost // bytes/s
	// Edges is service-graph calls per request (the api counts its calls to the cache).
	Edges float64
	// Samples are the instance's series seen at the end of calibration: the
	// history continues exactly these label sets.
	Samples []promkit.Metric
}

// Calibration is what the history is built from: every instance's costs
// measured on the live processes at two request rates, so the live series
// continue the history at the same level.
type Calibration struct {
	Instances map[string]*InstanceCost // by instance label
	// Periods is the CFS periods per second of each cgroup (pod and
	// container level) as a function of its service's req/s.
	Periods map[string]Cost
	// Exporter is cAdvisor's page at the end of calibration.
	Exporter []promkit.Metric
	// UpstreamShare is the cache's requests per api request.
	UpstreamShare float64
	Took          time.Duration
}

// loHi are the two calibration rates of a load spec: the low and high of a
// sine or square, half and all of a constant rate.
func loHi(spec string) (float64, float64, error) {
	parts := strings.Split(spec, ":")
	if len(parts) == 1 {
		v, err := strconv.ParseFloat(spec, 64)
		return v / 2, v, err
	}
	if len(parts) != 4 {
		return 0, 0, fmt.Errorf("rate %q", spec)
	}
	lo, err1 := strconv.ParseFloat(parts[1], 64)
	hi, err2 := strconv.ParseFloat(parts[2], 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("rate %q", spec)
	}
	return math.Max(lo, 1), hi, nil
}

type snapshot struct {
	at      time.Time
	metrics map[string][]promkit.Metric // by instance
	cgroups map[string]cgroup.Stat
}

// Calibrate drives every load target (with the load generator) at its low
// rate and then at its high rate (settle, then measure for each) and fits each instance's CPU and
// allocation cost lines from /metrics deltas, and each cgroup's CFS periods
// from cpu.stat. groups maps cgroup names (pod and pod/container) to their
// service's job; cg is nil without cgroups.
func Calibrate(ctx context.Context, w *World, sup *Supervisor, loadgen string, cg *cgroup.Manager, groups map[string]string, settle, measure time.Duration, logf func(string, ...any)) (*Calibration, error) {
	began := time.Now()
	c := &calibrator{w: w, sup: sup, loadgen: loadgen, cg: cg, groups: groups, targets: w.LoadTargets(), phase: settle + measure}
	for _, t := range c.targets {
		lo, hi, err := loHi(t.Rate)
		if err != nil {
			return nil, err
		}
		c.rates = append(c.rates, [2]float64{lo, hi})
	}
	ctx, cancel := context.WithTimeout(ctx, 2*c.phase+30*time.Second)
	defer cancel()
	snaps, err := c.measure(ctx, settle, logf)
	if err != nil {
		return nil, err
	}
	cal := &Calibration{Instances: map[string]*InstanceCost{}, Periods: map[string]Cost{}}
	reqRate := cal.fitInstances(w, snaps, logf)
	if api, cache := reqRate["api"], reqRate["cache"]; api[0]+api[1] > 0 {
		cal.UpstreamShare = (cache[0] + cache[1]) / (api[0] + api[1])
	}
	cal.fitPeriods(groups, reqRate, snaps, logf)
	cal.Took = time.Since(began)
	return cal, nil
}

// calibrator runs the calibration's load and reads what it costs.
type calibrator struct {
	w       *World
	sup     *Supervisor
	loadgen string
	cg      *cgroup.Manager
	groups  map[string]string
	targets []LoadTarget
	rates   [][2]float64 // each target's low and high rate
	phase   time.Duration
}

// load starts the load generator the live phase runs, with the same
// client, at every target's low or high rate.
func (c *calibrator) load(hi bool) (*Proc, error) {
	argv := []string{c.loadgen, "-duration", (c.phase + 10*time.Second).String(), "-report", "0"}
	name, which := "loadgen-calibration-low", 0
	if hi {
		name, which = "loadgen-calibration-high", 1
	}
	for i, t := range c.targets {
		argv = append(argv, "-target", fmt.Sprintf("%s=%s@%g", t.Name, t.URL, c.rates[i][which]))
	}
	return c.sup.Start(name, false, nil, argv...)
}

// measure runs the low rates, then the high ones, and takes a snapshot
// when each has settled and when each phase ends.
func (c *calibrator) measure(ctx context.Context, settle time.Duration, logf func(string, ...any)) ([4]snapshot, error) {
	var snaps [4]snapshot
	current, err := c.load(false)
	if err != nil {
		return snaps, err
	}
	defer func() {
		if current != nil { // nil when the high rates' load did not start
			c.sup.Stop(current, 5*time.Second)
		}
	}()
	start := time.Now()
	for i, at := range []time.Duration{settle, c.phase, c.phase + settle, 2 * c.phase} {
		select {
		case <-ctx.Done():
			return snaps, fmt.Errorf("calibration: %w", ctx.Err())
		case <-time.After(time.Until(start.Add(at))):
		}
		if snaps[i], err = c.snapshot(ctx); err != nil {
			return snaps, err
		}
		if i == 1 {
			c.sup.Stop(current, 5*time.Second)
			if current, err = c.load(true); err != nil {
				return snaps, err
			}
			start = time.Now().Add(-c.phase)
		}
		logf("  calibration: %s rates measured", [...]string{"low: settled,", "low", "high: settled,", "high"}[i])
	}
	return snaps, nil
}

// snapshot scrapes every instance's /metrics and reads every cgroup's cpu.stat.
func (c *calibrator) snapshot(ctx context.Context) (snapshot, error) {
	s := snapshot{at: time.Now(), metrics: map[string][]promkit.Metric{}, cgroups: map[string]cgroup.Stat{}}
	for _, svc := range c.w.Services {
		for _, in := range svc.Instances {
			m, err := promkit.Scrape(ctx, in.URL()+"/metrics")
			if err != nil {
				return s, fmt.Errorf("calibration: %s: %w", svc.Job, err)
			}
			s.metrics[in.Addr()] = m
		}
	}
	if c.cg == nil {
		return s, nil
	}
	for name := range c.groups {
		g, err := c.cg.Open(name)
		if err != nil {
			return s, err
		}
		if s.cgroups[name], err = g.Stat(); err != nil {
			return s, err
		}
	}
	return s, nil
}

// fitInstances fits every instance's cost lines between the low phase
// (snaps 0 to 1) and the high one (2 to 3); it returns each job's request
// rate in both, summed over its instances.
func (cal *Calibration) fitInstances(w *World, snaps [4]snapshot, logf func(string, ...any)) map[string][2]float64 {
	perSec := func(a, b snapshot, addr, name string) float64 {
		return (Sum(b.metrics[addr], name) - Sum(a.metrics[addr], name)) / b.at.Sub(a.at).Seconds()
	}
	both := func(addr, name string) (float64, float64) {
		return perSec(snaps[0], snaps[1], addr, name), perSec(snaps[2], snaps[3], addr, name)
	}
	reqRate := map[string][2]float64{} // by job, summed over instances
	for _, svc := range w.Services {
		for _, in := range svc.Instances {
			a := in.Addr()
			r1, r2 := both(a, "http_requests_total")
			c1, c2 := both(a, "process_cpu_seconds_total")
			m1, m2 := both(a, "go_memstats_alloc_bytes_total")
			e1, e2 := both(a, "traces_service_graph_request_total")
			ic := &InstanceCost{
				Job: svc.Job, Instance: a, Rates: [2]float64{r1, r2},
				CPU: fit(r1, c1, r2, c2), Alloc: fit(r1, m1, r2, m2),
				Samples: snaps[3].metrics[a],
			}
			if r1+r2 > 0 {
				ic.Edges = (e1 + e2) / (r1 + r2)
			}
			cal.Instances[a] = ic
			rr := reqRate[svc.Job]
			reqRate[svc.Job] = [2]float64{rr[0] + r1, rr[1] + r2}
			logf("  %-8s %-16s %5.1f / %5.1f req/s: CPU %.4f cores + %.3f ms/req, allocations %.0f KB/s + %.1f KB/req",
				svc.Job, a, r1, r2, ic.CPU.Fixed, ic.CPU.PerRequest*1e3, ic.Alloc.Fixed/1e3, ic.Alloc.PerRequest/1e3)
		}
	}
	return reqRate
}

// fitPeriods fits each cgroup's CFS periods per second against its
// service's request rate.
func (cal *Calibration) fitPeriods(groups map[string]string, reqRate map[string][2]float64, snaps [4]snapshot, logf func(string, ...any)) {
	secs := func(a, b snapshot) float64 { return b.at.Sub(a.at).Seconds() }
	for name, job := range groups {
		r := reqRate[job]
		p1 := float64(snaps[1].cgroups[name].Periods-snaps[0].cgroups[name].Periods) / secs(snaps[0], snaps[1])
		p2 := float64(snaps[3].cgroups[name].Periods-snaps[2].cgroups[name].Periods) / secs(snaps[2], snaps[3])
		cal.Periods[name] = fit(r[0], p1, r[1], p2)
		t1 := snaps[1].cgroups[name].ThrottledPeriods - snaps[0].cgroups[name].ThrottledPeriods
		t2 := snaps[3].cgroups[name].ThrottledPeriods - snaps[2].cgroups[name].ThrottledPeriods
		logf("  cgroup %-15s CFS periods %.1f/s at %.1f req/s, %.1f/s at %.1f req/s (throttled periods: %d, %d)", name, p1, r[0], p2, r[1], t1, t2)
	}
}
