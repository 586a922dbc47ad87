package thanos

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/prometheus/common/model"

	"github.com/hotpath/hotpath/tests/harness"
)

// The same inputs (history backfilled, live counters scraped) in two
// deployments: (reference) Prometheus evaluating the rule files itself, and
// (thanos) Prometheus behind a sidecar, Thanos Query over it, and Thanos
// Ruler evaluating the same files through Query. Each sample the reference
// recorded is paired with the ruler's nearest one (compareSamples says why
// they never share a timestamp).
//
// compareWindow of live evaluations is compared once both sides have
// evaluated every rule without an error for settle.
const (
	settle        = 6 * time.Second
	compareWindow = 30 * time.Second
	minPairs      = 5               // per series: the baseline group runs every 4s
	maxSkew       = 4 * time.Second // the longest group interval of the overlay
)

// The incidents' alerts (pending: the overlay keeps the 15m `for`), per
// cluster; nothing for the healthy service, no baseline alert for the api
// (it always spent 10x its cache).
func wantAlerts() []string {
	var out []string
	for _, c := range clusters {
		out = append(out, wantAlertsIn(c)...)
	}
	sort.Strings(out)
	return out
}

func wantAlertsIn(cluster string) []string {
	return []string{
		"CPUPerRequestAboveUpstream/" + cluster + "/api/cache",
		"CPUPerRequestRegression/" + cluster + "/regressed/",
		"CPUThrottlingSustained/" + cluster + "//",
	}
}

func alertKeys(as map[string]alert) []string {
	var out []string
	for k := range as {
		m := parseLabels(k)
		out = append(out, fmt.Sprintf("%s/%s/%s/%s", m["alertname"], m["cluster"], m["job"], m["upstream"]))
	}
	sort.Strings(out)
	return out
}

// cpuRecord is the service's CPU, the operand of the fit's readers that
// subtract the fit from it.
const cpuRecord = "job:cpu_seconds:rate5m"

// fitFloors are the scales, per series, that a reader of the long fit is
// judged against when what it holds is smaller: the fixed part is the CPU
// less the fit's part of it (CPU - slope x req/s), so a slope fitRelTol apart
// moves it by up to fitRelTol of the service's CPU however little is left,
// and its share of the CPU by up to fitRelTol of the whole. cpu is the same
// side's CPU records (cpuRecord).
func fitFloors(name string, cpu samples) map[string]float64 {
	out := map[string]float64{}
	for k, v := range cpu {
		switch name {
		case "job:cpu_seconds:long_fixed":
			for _, x := range v {
				out[k] = math.Max(out[k], math.Abs(x))
			}
		case "job:cpu_seconds:long_fixed_share":
			out[k] = 1
		}
	}
	return out
}

func TestThanosParity(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus and Thanos sidecar, Query and Ruler")
	}
	w0 := newWorld(t)
	names := promkit.RecordedNames(harness.ParseRules(t, w0.ruleFiles[:1]))
	groups := harness.ParseRules(t, w0.ruleFiles)
	mem := memoriesOf(t, groups)
	fit := readersOf(t, groups, "job:cpu_seconds_per_request:long_slope")
	tol := func(name string) float64 {
		if fit[name] {
			return fitRelTol
		}
		return relTol
	}
	nRules := 0
	for _, g := range groups {
		nRules += len(g.Rules)
	}

	// One Prometheus holding both clusters (each series with its own
	// cluster label) against the ruler over the same data.
	t.Run("one Prometheus holding both clusters", func(t *testing.T) {
		w := newWorld(t)
		raw := w.raw("", true)
		sidecar := w.sidecarOver(t, w.dataDir(t, raw), clusters, true, map[string]string{harness.ReplicaLabel: "b"})
		th := w.startThanos(t, []*harness.Sidecar{sidecar}, w.recorded("", true))
		ref := harness.StartPrometheus(t, harness.PromConfig{
			DataDir:         w.dataDir(t, raw+w.recorded("", true)),
			RuleFiles:       w.ruleFiles,
			RuleQueryOffset: queryOffset,
			ExtraConfig:     w.scrapeConfig(clusters, true),
			Args:            harness.LeaveOverlappingBlocks,
		})
		// A second ruler on the same sidecar with no recorded history:
		// the first day of a ruler (its own Query, so it cannot read the
		// first ruler's history).
		fresh := w.startThanos(t, []*harness.Sidecar{sidecar}, "")

		at := waitLive(t, w, nRules, []*harness.Prometheus{ref, th.ruler.Prometheus, fresh.ruler.Prometheus})
		t.Run("every recorded series and value", func(t *testing.T) {
			refShort, thShort := scrapeGaps(t, ref, w.live(), at, ""), scrapeGaps(t, th.query.Prometheus, w.live(), at, "")
			t.Logf("short rate windows since %s: the reference %v; thanos %v", w.live().UTC().Format("15:04:05"), refShort, thShort)
			cpu := rawSamples(t, ref, cpuRecord, at, compareWindow)
			for _, name := range names {
				p := compareSamples(t, name, rawSamples(t, ref, name, at, compareWindow), rawSamples(t, th.query.Prometheus, name, at, compareWindow), refShort, thShort, mem.afterRate(name), minPairs, maxSkew, tol(name), fitFloors(name, cpu))
				t.Logf("%-62s %3d series %5d pairs, max rel. diff %.2g", name, p.series, p.pairs, p.maxRel)
			}
		})
		t.Run("the same alerts", func(t *testing.T) {
			want := alerts(t, ref, nil)
			compareAlerts(t, want, alerts(t, th.ruler.Prometheus, nil))
			if got, w := alertKeys(want), wantAlerts(); strings.Join(got, " ") != strings.Join(w, " ") {
				t.Errorf("alerts %v, want %v", got, w)
			}
		})
		t.Run("first day on a new ruler: baselines absent, no baseline alert", func(t *testing.T) {
			firstDay(t, fresh)
		})
	})

	// As Thanos users run it: one Prometheus per cluster, its series
	// without `cluster`, which is only each Prometheus's external label;
	// the ruler evaluates globally through one Query over both. Each
	// cluster's Prometheus also evaluates the pack itself (the other
	// deployment: rules inside Prometheus, sidecar for the global view).
	t.Run("one Prometheus per cluster, cluster only an external label", func(t *testing.T) {
		w := newWorld(t)
		var sidecars []*harness.Sidecar
		for _, c := range clusters {
			sidecars = append(sidecars, w.sidecarOver(t, w.dataDir(t, w.raw(c, false)), []string{c}, false, map[string]string{"cluster": c, harness.ReplicaLabel: "b"}))
		}
		th := w.startThanos(t, sidecars, w.recorded("", true))
		own := map[string]*harness.Prometheus{}
		for _, c := range clusters {
			own[c] = harness.StartPrometheus(t, harness.PromConfig{
				DataDir:         w.dataDir(t, w.raw(c, false)+w.recorded(c, false)),
				RuleFiles:       w.ruleFiles,
				RuleQueryOffset: queryOffset,
				ExtraConfig:     w.scrapeConfig([]string{c}, false),
				ExternalLabels:  map[string]string{"cluster": c},
				Args:            harness.LeaveOverlappingBlocks,
			})
		}
		at := waitLive(t, w, nRules, []*harness.Prometheus{own["us1"], own["eu1"], th.ruler.Prometheus})
		t.Run("each cluster's series equal its own Prometheus's, plus cluster", func(t *testing.T) {
			ownShort, thShort := shortWindows{}, scrapeGaps(t, th.query.Prometheus, w.live(), at, "")
			for _, c := range clusters {
				maps.Copy(ownShort, scrapeGaps(t, own[c], w.live(), at, c))
			}
			t.Logf("short rate windows since %s: the clusters' own %v; thanos %v", w.live().UTC().Format("15:04:05"), ownShort, thShort)
			cpu := map[string]samples{}
			for _, c := range clusters {
				cpu[c] = rawSamples(t, own[c], cpuRecord, at, compareWindow).withLabel("cluster", c)
			}
			for _, name := range names {
				got := rawSamples(t, th.query.Prometheus, name, at, compareWindow)
				if none := got.only("cluster", ""); len(none) > 0 {
					t.Errorf("%s: recorded without cluster: %v", name, keys(none))
				}
				for _, c := range clusters {
					want := rawSamples(t, own[c], name, at, compareWindow).withLabel("cluster", c)
					p := compareSamples(t, fmt.Sprintf("%s{cluster=%q}", name, c), want, got.only("cluster", c), ownShort, thShort, mem.afterRate(name), minPairs, maxSkew, tol(name), fitFloors(name, cpu[c]))
					t.Logf("%-62s %-3s %3d series %5d pairs, max rel. diff %.2g", name, c, p.series, p.pairs, p.maxRel)
				}
			}
		})
		t.Run("service-graph edges stay within their cluster", func(t *testing.T) {
			got := keys(rawSamples(t, th.query.Prometheus, "job_upstream:edges:group", at, compareWindow))
			var want []string
			for _, c := range clusters {
				for _, e := range edges(c) {
					want = append(want, model.LabelSet{"cluster": model.LabelValue(c), "job": model.LabelValue(e[0]), "upstream": model.LabelValue(e[1])}.String())
				}
			}
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("job_upstream:edges:group: %v, want %v", got, want)
			}
		})
		t.Run("the same alerts, naming their cluster in both deployments", func(t *testing.T) {
			want := map[string]alert{}
			for _, c := range clusters {
				for k, a := range alerts(t, own[c], model.LabelSet{"cluster": model.LabelValue(c)}) {
					want[k] = a
					if !strings.Contains(a.Description, "(cluster "+c+")") || !strings.Contains(a.DashboardURL, "var-cluster="+c+"&") {
						t.Errorf("%s in %s's own Prometheus: description %q, link %q do not name cluster %s", k, c, a.Description, a.DashboardURL, c)
					}
				}
			}
			compareAlerts(t, want, alerts(t, th.ruler.Prometheus, nil))
			if got, w := alertKeys(want), wantAlerts(); strings.Join(got, " ") != strings.Join(w, " ") {
				t.Errorf("alerts %v, want %v", got, w)
			}
		})
		t.Run("the ruler reads its own ALERTS through Query (the regression alerts' hold)", func(t *testing.T) {
			q := `count by (cluster) (ALERTS{alertname="CPUPerRequestRegression", job="regressed"})`
			got, err := th.query.Query(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			var in []string
			for _, s := range got {
				in = append(in, s.Metric["cluster"])
			}
			sort.Strings(in)
			if want := strings.Join(slices.Sorted(slices.Values(clusters)), " "); strings.Join(in, " ") != want {
				t.Errorf("%s through Query: clusters %v, want %s", q, in, want)
			}
		})
		t.Run("dashboards through Query", func(t *testing.T) {
			dashboardsThroughQuery(t, th.query.Prometheus)
		})
	})
}

// waitLive waits until every server lists nRules rules, all healthy, and
// the live scrapes have taken over, then for settle and a compareWindow of
// live evaluations, and returns the
// moment to compare at (a little in the past: evaluations at it are done).
func waitLive(t *testing.T, w *world, nRules int, servers []*harness.Prometheus) time.Time {
	t.Helper()
	// Until the raw history backfilled ahead of the start ends, a server
	// with that history drops its own records as "out of bounds": no rule of
	// it can be healthy before live(). The 90s wait starts from there, not
	// from whenever the servers came up (a quick start once left the wait
	// ending on the first healthy evaluation's heels).
	time.Sleep(time.Until(w.live()))
	for _, p := range servers {
		harness.WaitFor(t, 90*time.Second, p.URL+": every rule evaluated without an error", func() (bool, string) {
			return rulesHealthy(p, nRules)
		})
	}
	from := time.Now()
	if w.live().After(from) { // compare live scrapes, not the backfilled minute ahead
		from = w.live()
	}
	at := from.Add(settle + compareWindow)
	// Records stamped up to at come from evaluations up to queryOffset later.
	time.Sleep(time.Until(at.Add(queryOffset + 2*time.Second)))
	for _, p := range servers {
		if ok, msg := rulesHealthy(p, nRules); !ok {
			t.Errorf("%s: %s", p.URL, msg)
		}
	}
	return at
}

// firstDay: a ruler that starts without the pack's recorded history (the
// real migration) records every live series, but the baselines stay absent
// until 6h of history are there (baseline_history_seconds), so no alert
// judged against a baseline fires; the absolute ones (an api at 10x its
// upstream, throttling) do.
func firstDay(t *testing.T, fresh thanosSide) {
	for _, name := range []string{
		"job:cpu_seconds_per_request:baseline_ratio",
		"job:cpu_seconds_per_request:baseline_marginal",
		"job:cpu_seconds:baseline_fixed",
		"job:cpu_seconds:baseline_predicted",
		"job:alloc_bytes_per_request:baseline_ratio",
		"job:alloc_bytes:baseline_predicted",
		"job:cpu_seconds_per_request:ratio_to_upstream_baseline_median",
		"job:cpu_seconds_per_request:recent_slope",
	} {
		s, err := fresh.query.Query(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 0 {
			t.Errorf("%s on a ruler without history: %v, want none", name, s)
		}
	}
	// What it has: the live series. (The history it counts,
	// baseline_history_seconds, steps every 30m: absent, or below 6h.)
	for _, name := range []string{"job:cpu_seconds_per_request:ratio_rate5m", "job:cpu_seconds_per_request:ratio_to_upstream"} {
		s, err := fresh.query.Query(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) == 0 {
			t.Errorf("%s: no series on a fresh ruler", name)
		}
	}
	s, err := fresh.query.Query(t.Context(), "job:requests:baseline_history_seconds >= 21600")
	if err != nil || len(s) > 0 {
		t.Errorf("a fresh ruler counts 6h of history: %v %v", s, err)
	}
	got := alertKeys(alerts(t, fresh.ruler.Prometheus, nil))
	want := []string{
		"CPUPerRequestAboveUpstream/eu1/api/cache", "CPUThrottlingSustained/eu1//",
		"CPUPerRequestAboveUpstream/us1/api/cache", "CPUThrottlingSustained/us1//",
	}
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("alerts on a ruler without history: %v, want only the absolute ones %v", got, want)
	}
}
