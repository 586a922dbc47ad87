// Package thanos proves the rule pack gives on Thanos (sidecar, Query, Ruler)
// the answers it gives in Prometheus, in the topologies Thanos users run.
package thanos

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
)

// Two clusters, each with the incidents realrules uses: a service that
// regressed (twice its CPU, since regressedFor before the start), an api
// spending 10x the CPU per request of the cache it calls, a throttled
// container, and a healthy service. Only eu1's api also calls a db: the
// service-graph edge that must not leak into us1 (us1 has no db).
//
// Live counters grow at constant rates, exactly on a line (each sample is
// stamped with the time its value was computed at): two Prometheus servers
// scraping the same exporter at different moments hold different samples of
// the same lines, and rate() reads back the same rate from both (to float
// rounding). A rate that changed while the two are compared would not.
var clusters = []string{"us1", "eu1"}

const namespace = "shop"

// Costs follow the typical cost line (synth.Typical).

// historyTraffic is the recorded history's req/s (times each service's
// scale), hour by hour back from the start: the spread the baseline fits its
// marginal cost on; liveTraffic is the live req/s.
//
// Why these values: the two sides do not hold the same live records in the
// windows that read recorded series back (the baseline's day-long
// quantiles and mean, the cost model's 30m and 3h averages). They never
// evaluate at the same instant, and the ruler records from its first
// evaluation on, while the reference Prometheus drops its own records
// until the raw history backfilled rawAhead past the start ends (they are
// older than its newest block: "out of bounds"), so the ruler holds some 40
// more live records of each 2s group (about 20 of the 4s baseline group).
// The sides give the same answer only where more or fewer samples of the
// live value change nothing, and where no live value sits on a threshold
// that float rounding could tip either way:
//   - quantiles: the median (10) and the upper half's lower quartile (10)
//     lie inside a long run of 10s, and the live rate (12) is clear of both;
//   - means (job:requests:baseline_mean, the day's avg_over_time of the
//     req/s): the history's mean is the live rate, 12 (an average of 12s
//     and 12 is 12, however many);
//   - the 3h least-squares fit (job:cpu_seconds_per_request:long_slope):
//     every point of its window lies on the service's one cost line, live
//     ones too, so the slope is that line's, however many live points (see
//     regressedFor for the service whose cost changed);
//   - the last hour of history is already at the live rate (the 30m fit
//     sees no swing, as live).
var historyTraffic = []float64{12, 10, 30, 20, 2, 2, 10, 10}

// regressedFor: the regressed service's CPU doubled this long before the
// start (and stays doubled live). Longer than loadFitLongWindow (3h), so
// every 3h fit sees the regressed cost line only: a regression that began
// inside the window would tilt the fit towards the live points, by how many
// the side holds (the 3h slope read 0.025 on one side and 0.015 on the
// other, and the ruler alone fired CPUNotTrackingLoad). Short enough that
// the day's baseline still predicts the old cost, so CPUPerRequestRegression
// fires: the lower quartile of its upper half's CPU is hours 6 and 7's (10
// req/s at the old cost, the lowest third of that half, live included).
const regressedFor = 4 * time.Hour

const liveTraffic = 12

type service struct {
	job   string
	scale float64 // of historyTraffic and liveTraffic
	// CPU cores and allocated bytes/s at req/s; regressed tells the
	// samples since the regressed service's onset (regressedFor before the
	// start, and live) from the older history.
	cost func(req float64, regressed bool) (cpu, alloc float64)
}

// rates are a service's req/s, CPU and allocations: live, or in the
// recorded history `ago` before the start.
func (s service) rates(live bool, ago time.Duration) (req, cpu, alloc float64) {
	req = liveTraffic * s.scale
	if !live {
		req = historyTraffic[int(ago.Hours())%len(historyTraffic)] * s.scale
	}
	cpu, alloc = s.cost(req, live || ago < regressedFor)
	return req, cpu, alloc
}

func modelled(req float64, _ bool) (float64, float64) { return synth.Typical.At(req) }

// perRequest costs cpu seconds per request and nothing fixed.
func perRequest(cpu float64) func(float64, bool) (float64, float64) {
	return func(req float64, _ bool) (float64, float64) {
		_, alloc := synth.Typical.At(req)
		return cpu * req, alloc
	}
}

func servicesIn(cluster string) []service {
	s := []service{
		{"healthy", 1, modelled},
		{"regressed", 1, func(req float64, regressed bool) (float64, float64) {
			cpu, alloc := modelled(req, regressed)
			if regressed { // every request and the idle work cost twice the CPU
				cpu *= 2
			}
			return cpu, alloc
		}},
		{"api", 1.6, perRequest(0.3125 / 16)},    // 10x its cache per request
		{"cache", 1.6, perRequest(0.03125 / 16)}, //
	}
	if cluster == "eu1" {
		s = append(s, service{"db", 1.6, perRequest(0.125 / 16)}) // eu1's api: 2.5x its db
	}
	return s
}

// edges are each cluster's service-graph edges, client -> server.
func edges(cluster string) [][2]string {
	if cluster == "eu1" {
		return [][2]string{{"api", "cache"}, {"api", "db"}}
	}
	return [][2]string{{"api", "cache"}}
}

// labels renders a series' labels; cluster is left out when "" (the
// cluster is then only the scraping Prometheus's external label).
func labels(cluster string, kv ...string) string {
	if cluster != "" {
		kv = append([]string{"cluster", cluster}, kv...)
	}
	return synth.Labels(kv...)
}

// counters calls f with every scraped counter of one cluster and its live
// rate: the services, the service-graph edges and a throttled container.
// Every series names its own job and instance (as a scrape with
// honor_labels keeps them), so the backfilled history and the live scrape
// are one series.
func counters(cluster, clusterLabel string, f func(series string, perSecond float64)) {
	for _, s := range servicesIn(cluster) {
		req, cpu, alloc := s.rates(true, 0)
		l := labels(clusterLabel, "namespace", namespace, "job", s.job, "instance", "i1")
		f("http_requests_total{"+l+"}", req)
		f("process_cpu_seconds_total{"+l+"}", cpu)
		f("go_memstats_alloc_bytes_total{"+l+"}", alloc)
	}
	for _, e := range edges(cluster) {
		f("traces_service_graph_request_total{"+labels(clusterLabel, "job", "tempo", "instance", "tempo-1", "client", e[0], "server", e[1], "connection_type", "")+"}", 16)
	}
	ct := labels(clusterLabel, "job", "cadvisor", "instance", "node-1", "namespace", "ci", "pod", "ci-operator-1", "container", "app")
	f("container_cpu_cfs_periods_total{"+ct+"}", 10)
	f("container_cpu_cfs_throttled_periods_total{"+ct+"}", 5)
	f("container_cpu_cfs_throttled_seconds_total{"+ct+"}", 0.5)
	f("container_cpu_usage_seconds_total{"+ct+"}", 0.25)
}

// page is one cluster's scraped page at now (its series without a cluster
// label: the scraping Prometheus adds it, as a target or external label),
// every sample stamped with now in ms.
func page(cluster string, start, now time.Time) string {
	now = now.Truncate(time.Millisecond)
	var b strings.Builder
	counters(cluster, "", func(series string, perSecond float64) {
		fmt.Fprintf(&b, "%s %s %d\n", series, fmtFloat(synth.CounterAt(start, now, perSecond)), now.UnixMilli())
	})
	// each service's resident memory (a gauge, as client_golang's process collector exports it)
	for _, s := range servicesIn(cluster) {
		fmt.Fprintf(&b, "process_resident_memory_bytes{%s} 6e+07 %d\n", labels("", "namespace", namespace, "job", s.job, "instance", "i1"), now.UnixMilli())
	}
	ct := labels("", "job", "cadvisor", "instance", "node-1", "namespace", "ci", "pod", "ci-operator-1", "container", "app")
	fmt.Fprintf(&b, "container_spec_cpu_quota{%s} 30000 %d\n", ct, now.UnixMilli())
	fmt.Fprintf(&b, "container_spec_cpu_period{%s} 100000 %d\n", ct, now.UnixMilli())
	return b.String()
}

func fmtFloat(v float64) string { return fmt.Sprintf("%.17g", v) }

// eachCluster calls f with each cluster in only ("" for all) and the
// cluster label its series carry: itself with withCluster (one Prometheus
// holding both clusters, or a global ruler's records), else "".
func eachCluster(only string, withCluster bool, f func(c, cl string)) {
	for _, c := range clusters {
		if only != "" && c != only {
			continue
		}
		cl := ""
		if withCluster {
			cl = c
		}
		f(c, cl)
	}
}

// rawHistory is the scraped series of the clusters in only ("" for all) over
// [from, until) every second (as scraped: a rate window then reaches its
// bounds on both sides, and reads the line's exact slope), on the same lines the live page continues, in
// OpenMetrics (without "# EOF"). With withCluster the series carry their
// cluster label (one Prometheus holding both clusters).
func rawHistory(from, until, start time.Time, only string, withCluster bool) string {
	lines := map[string][]string{}
	var keys []string
	eachCluster(only, withCluster, func(c, cl string) {
		for t := from; t.Before(until); t = t.Add(time.Second) {
			counters(c, cl, func(series string, perSecond float64) {
				if _, ok := lines[series]; !ok {
					keys = append(keys, series)
				}
				lines[series] = append(lines[series], fmt.Sprintf("%s %s %d", series, fmtFloat(synth.CounterAt(start, t, perSecond)), t.Unix()))
			})
		}
	})
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(strings.Join(lines[k], "\n") + "\n")
	}
	return b.String()
}

// recordedHistory is what the pack's groups would have recorded over [from, start): the series the
// baseline and the recent fit read back over their windows. It is written
// directly, as `promtool tsdb create-blocks-from rules` would write it in one
// pass per dependency level (minutes). With withCluster the series carry
// their cluster (recorded globally, or in one Prometheus holding both).
func recordedHistory(from, start time.Time, only string, withCluster bool) string {
	series := map[string][]string{}
	add := func(r synth.Record, ls string, t time.Time) {
		if r.Half != "" {
			ls += fmt.Sprintf(",half=%q", r.Half)
		}
		series[r.Name] = append(series[r.Name], fmt.Sprintf("%s{%s} %s %d", r.Name, ls, fmtFloat(r.Value), t.Unix()))
	}
	eachCluster(only, withCluster, func(c, cl string) {
		median := sortedMedian(historyTraffic)
		for _, s := range servicesIn(c) {
			l := labels(cl, "namespace", namespace, "job", s.job)
			for t := from; t.Before(start); t = t.Add(time.Minute) {
				req, cpu, alloc := s.rates(false, start.Sub(t))
				j := synth.Job{Req: req, CPU: cpu, Alloc: alloc}
				for _, r := range j.Recorded() {
					add(r, l, t)
				}
				// The baseline group's copies, every minute (the shipped
				// group runs every 5m): a denser history keeps the day-long
				// quantiles where they are when one side holds a few more
				// live records than the other.
				for _, r := range j.Sampled(req >= median*s.scale) {
					add(r, l, t)
				}
			}
		}
		ratios := map[string]float64{"cache": 10, "db": 2.5}
		for _, e := range edges(c) {
			l := labels(cl, "namespace", namespace, "job", e[0], "upstream", e[1])
			for t := from; t.Before(start); t = t.Add(time.Minute) {
				for _, r := range synth.Upstream(ratios[e[1]], t.Sub(from)%(5*time.Minute) == 0) {
					add(r, l, t)
				}
			}
		}
	})
	return promkit.OpenMetricsGauges(series)
}

func sortedMedian(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
