//go:build bench

package rules

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/tsdb"
)

// A synthetic fleet: services of 10 instances; each instance exports 12 input
// series (4 request counters by code and method, process CPU, Go
// allocations, and 6 cAdvisor series of its container), and each service calls
// two others (service-graph edges). Besides them, the bridge's function rows
// (functions.go), not counted in inputSeries: the fleet's size is its
// services' own series, as before the function rules.
const (
	instancesPerService = 10
	seriesPerInstance   = 12
	scrape              = 15 * time.Second
)

type synthetic struct{ services int }

func newSynthetic(inputSeries int) synthetic {
	return synthetic{services: int(math.Round(float64(inputSeries) / (instancesPerService*seriesPerInstance + 2)))}
}

func (f synthetic) inputSeries() int { return f.services * (instancesPerService*seriesPerInstance + 2) }

func (f synthetic) scope(s int) (cluster, namespace, job string) {
	return fmt.Sprintf("c%d", s%2), fmt.Sprintf("ns%d", s%20), fmt.Sprintf("svc%d", s)
}

// scale is service s's share of the diurnal day (synth.Diurnal): its
// instances' req/s at t are DiurnalAt(t) x scale.
func scale(s int) float64 { return (1 + float64(s%7)) / 4 }

func (f synthetic) req(s int, t time.Time) float64 { return synth.DiurnalAt(t) * scale(s) }

// cost is every instance's cost line: 0.05 cores + 1/200 per req/s.
var cost = synth.CostModel{FixedCPU: 0.05, CPUPerRequest: 1.0 / 200, FixedAlloc: 1 << 20, AllocPerRequest: 1 << 15}

func cpuOf(req float64) float64 {
	cpu, _ := cost.At(req)
	return cpu
}

func allocOf(req float64) float64 {
	_, alloc := cost.At(req)
	return alloc
}

// counter is one input counter: its labels and per-second rate.
type counter struct {
	labels labels.Labels
	rate   float64
}

func (f synthetic) counters(t time.Time) []counter {
	var out []counter
	for s := 0; s < f.services; s++ {
		cl, ns, job := f.scope(s)
		r := f.req(s, t)
		for i := 0; i < instancesPerService; i++ {
			inst := fmt.Sprintf("10.%d.%d.%d:8080", s/250, s%250, i)
			pod := fmt.Sprintf("%s-%d", job, i)
			base := []string{"cluster", cl, "namespace", ns, "job", job, "instance", inst, "pod", pod}
			for _, code := range []string{"200", "500"} {
				for _, method := range []string{"GET", "POST"} {
					share := 0.45
					if code == "500" {
						share = 0.05
					}
					out = append(out, counter{labels.FromStrings(append([]string{"__name__", "http_requests_total", "code", code, "method", method}, base...)...), r * share})
				}
			}
			out = append(out, counter{labels.FromStrings(append([]string{"__name__", "process_cpu_seconds_total"}, base...)...), cpuOf(r)})
			out = append(out, counter{labels.FromStrings(append([]string{"__name__", "go_memstats_alloc_bytes_total"}, base...)...), allocOf(r)})
			c := []string{"cluster", cl, "namespace", ns, "pod", pod, "container", "app", "job", "kubelet", "instance", "node"}
			throttled := 0.0
			if s%50 == 0 { // 2% of services throttled: their alerts pending
				throttled = 0.3
			}
			out = append(out,
				counter{labels.FromStrings(append([]string{"__name__", "container_cpu_usage_seconds_total"}, c...)...), cpuOf(r)},
				counter{labels.FromStrings(append([]string{"__name__", "container_cpu_cfs_periods_total"}, c...)...), 10},
				counter{labels.FromStrings(append([]string{"__name__", "container_cpu_cfs_throttled_periods_total"}, c...)...), 10 * throttled},
				counter{labels.FromStrings(append([]string{"__name__", "container_cpu_cfs_throttled_seconds_total"}, c...)...), throttled},
			)
		}
		for _, to := range []int{(s + 1) % f.services, (s + 7) % f.services} {
			_, _, server := f.scope(to)
			out = append(out, counter{labels.FromStrings("__name__", "traces_service_graph_request_total", "client", job, "server", server, "connection_type", "", "job", "tempo", "instance", "tempo:3200"), 1})
		}
	}
	return out
}

// gauges are the cAdvisor limits (quota, period) of every container.
func (f synthetic) gauges() []counter {
	var out []counter
	for s := 0; s < f.services; s++ {
		cl, ns, job := f.scope(s)
		for i := 0; i < instancesPerService; i++ {
			c := []string{"cluster", cl, "namespace", ns, "pod", fmt.Sprintf("%s-%d", job, i), "container", "app", "job", "kubelet", "instance", "node"}
			out = append(out,
				counter{labels.FromStrings(append([]string{"__name__", "container_spec_cpu_quota"}, c...)...), 50000},
				counter{labels.FromStrings(append([]string{"__name__", "container_spec_cpu_period"}, c...)...), 100000})
		}
	}
	return out
}

// page is the scraped exposition at t: counters grown since start.
func (f synthetic) page(start, t time.Time) string {
	var b strings.Builder
	for _, c := range append(f.counters(start), f.functionCounters(start)...) {
		fmt.Fprintf(&b, "%s %g\n", exposition(c.labels), synth.CounterAt(start, t, c.rate))
	}
	for _, g := range f.gauges() {
		fmt.Fprintf(&b, "%s %g\n", exposition(g.labels), g.rate)
	}
	return b.String()
}

// exposition writes a series as the text format does: name{label="value",...}.
func exposition(ls labels.Labels) string {
	var b strings.Builder
	b.WriteString(ls.Get("__name__"))
	b.WriteByte('{')
	first := true
	ls.Range(func(l labels.Label) {
		if l.Name == "__name__" {
			return
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%s=%q", l.Name, l.Value)
	})
	b.WriteByte('}')
	return b.String()
}

// backfill writes one TSDB block into dir: the raw inputs over the hour
// before start (every 15s, ending where the live counters begin), a day of
// the job-level series the rules record every minute (every 5m for the
// baseline's gated series), as if the pack had run for a day, and the
// function groups' history (functionHistory: two days of it).
func (f synthetic) backfill(dir string, start time.Time) error {
	w, err := tsdb.NewBlockWriter(slog.New(slog.NewTextHandler(io.Discard, nil)), dir, int64(110*time.Hour/time.Millisecond)) // appends reach back half of it
	if err != nil {
		return err
	}
	defer w.Close()
	ctx := context.Background()
	app := w.Appender(ctx)
	n := 0
	add := func(l labels.Labels, t time.Time, v float64) error {
		if _, err := app.Append(0, l, t.UnixMilli(), v); err != nil {
			return err
		}
		if n++; n%500000 == 0 { // keep each commit small
			if err := app.Commit(); err != nil {
				return err
			}
			app = w.Appender(ctx)
		}
		return nil
	}
	for _, c := range append(f.counters(start), f.functionCounters(start)...) {
		for t := start.Add(-time.Hour); t.Before(start); t = t.Add(scrape) {
			if err := add(c.labels, t, synth.CounterAt(start, t, c.rate)); err != nil {
				return err
			}
		}
	}
	for _, g := range f.gauges() {
		for t := start.Add(-time.Hour); t.Before(start); t = t.Add(scrape) {
			if err := add(g.labels, t, g.rate); err != nil {
				return err
			}
		}
	}
	for s := 0; s < f.services; s++ {
		cl, ns, job := f.scope(s)
		series := func(name string, extra ...string) labels.Labels {
			return labels.FromStrings(append([]string{"__name__", name, "cluster", cl, "namespace", ns, "job", job}, extra...)...)
		}
		for t := start.Add(-24 * time.Hour); t.Before(start); t = t.Add(time.Minute) {
			r := f.req(s, t) * instancesPerService
			c, a := cpuOf(r/instancesPerService)*instancesPerService, allocOf(r/instancesPerService)*instancesPerService
			j := synth.Job{Req: r, CPU: c, Alloc: a}
			records := j.Recorded()
			if t.Minute()%5 == 0 {
				for _, rec := range j.Sampled(f.req(s, t) >= synth.DiurnalMedian*scale(s)) {
					// the noise model samples every 15m (regressionNoiseInterval): its day reads 96 samples
					if !strings.HasSuffix(rec.Name, ":baseline_residual_sampled") || t.Minute()%15 == 0 {
						records = append(records, rec)
					}
				}
			}
			for _, rec := range records {
				var extra []string
				if rec.Half != "" {
					extra = []string{"half", rec.Half}
				}
				if err := add(series(rec.Name, extra...), t, rec.Value); err != nil {
					return err
				}
			}
			for _, to := range []int{(s + 1) % f.services, (s + 7) % f.services} {
				_, _, server := f.scope(to)
				for _, rec := range synth.Upstream(1, t.Minute()%5 == 0) {
					if err := add(series(rec.Name, "upstream", server), t, rec.Value); err != nil {
						return err
					}
				}
			}
		}
	}
	if err := f.functionHistory(start, func(l labels.Labels, t time.Time, v float64) error { return add(l, t, v) }); err != nil {
		return err
	}
	if err := app.Commit(); err != nil {
		return err
	}
	_, err = w.Flush(ctx)
	return err
}
