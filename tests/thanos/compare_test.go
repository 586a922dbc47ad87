package thanos

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hotpath/hotpath/tests/harness"
)

// samples is one recorded name's series over a window: label set (without
// the name) -> timestamp (ms) -> value.
type samples map[string]map[int64]float64

// rawSamples reads every sample of name over (at-window, at] as stored,
// with the timestamps it was recorded at (a range selector, not a range
// query: a range query would resample both sides at its own steps).
func rawSamples(t *testing.T, p *harness.Prometheus, name string, at time.Time, window time.Duration) samples {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), harness.APITimeout)
	defer cancel()
	v, _, err := p.API.Query(ctx, fmt.Sprintf("%s[%dms]", name, window.Milliseconds()), at)
	if err != nil {
		t.Fatalf("%s: %s: %v", p.URL, name, err)
	}
	m, ok := v.(model.Matrix)
	if !ok {
		t.Fatalf("%s: %s: %T, want a matrix", p.URL, name, v)
	}
	out := samples{}
	for _, s := range m {
		delete(s.Metric, model.MetricNameLabel)
		vals := map[int64]float64{}
		for _, x := range s.Values {
			vals[int64(x.Timestamp)] = float64(x.Value)
		}
		out[s.Metric.String()] = vals
	}
	return out
}

// withLabel is s with every label set given label=value (a cluster's own
// Prometheus records without `cluster`; through Query it carries it).
func (s samples) withLabel(label, value string) samples {
	out := samples{}
	for k, v := range s {
		m := parseLabels(k)
		m[model.LabelName(label)] = model.LabelValue(value)
		out[m.String()] = v
	}
	return out
}

// only keeps the series whose label equals value.
func (s samples) only(label, value string) samples {
	out := samples{}
	for k, v := range s {
		if string(parseLabels(k)[model.LabelName(label)]) == value {
			out[k] = v
		}
	}
	return out
}

func parseLabels(s string) model.LabelSet {
	m := model.LabelSet{}
	for _, kv := range regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`).FindAllStringSubmatch(s, -1) {
		v, _ := strconv.Unquote(`"` + kv[2] + `"`)
		m[model.LabelName(kv[1])] = model.LabelValue(v)
	}
	return m
}

// parity is what one recorded name compared: how many series and pairs of
// samples, the largest difference.
type parity struct {
	series, pairs int
	maxRel        float64
}

// The two sides compute the same float64 operations on samples of the same
// lines; what is left is rounding: relTol relative, and absTol for values
// that are 0 but for rounding (a variance of a constant rate, under a sqrt).
const (
	relTol = 1e-9
	absTol = 1e-6
	// fitRelTol is for the 3h least-squares fit
	// (job:cpu_seconds_per_request:long_slope) and what reads it. The two
	// sides hold different numbers of live records in the fit's window (the
	// ruler keeps those the reference drops before its live scrapes,
	// clusters.go), a live record lies on the service's cost line only to
	// the rounding of two extrapolated rates read by different processes,
	// and a slope through the window's points moves with the points it is
	// given: 0.24% and 1.5% on a machine whose cores were busy with other
	// work. 3% is still far under what moves the alert that reads the fit
	// (CPUNotTrackingLoad: a fixed share of 80%).
	fitRelTol = 0.03
)

// compareSamples fails when want and got differ in their label sets, when a
// series has fewer than minPairs samples paired, or in a value of a pair
// (by more than rel of the larger of the two, or of the series' floor when
// that is larger, and absTol).
// A pair is a sample of want and the sample of got nearest in time, within
// maxSkew: Prometheus and Thanos Ruler place the same group at different
// offsets within its interval (a hash of the group's name and file, which
// differs between Prometheus's default label layout and the slicelabels one
// Thanos is built with), so their timestamps never coincide; with the live
// inputs' constant rates, the records of neighbouring evaluations are equal.
//
// A pair whose values differ where either side's records read a short window
// of its scrapes (wantShort, gotShort: scrapeGaps) up to after before it
// (the name's memory past the rate window: a 3h average holds a short rate
// record for 3h) is left out and logged with the reason: the two sides read
// different inputs there. A name whose pairs were all left out so is logged
// as not compared in this run, not failed: its inputs differed throughout.
func compareSamples(t *testing.T, name string, want, got samples, wantShort, gotShort shortWindows, after time.Duration, minPairs int, maxSkew time.Duration, rel float64, floor map[string]float64) parity {
	t.Helper()
	var res parity
	if a, b := keys(want), keys(got); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("%s: series differ:\n  reference: %v\n  thanos:    %v", name, a, b)
		return res
	}
	for _, k := range keys(want) {
		res.series++
		cluster := string(parseLabels(k)["cluster"])
		pairs, left := 0, 0
		var gts []int64
		for ts := range got[k] {
			gts = append(gts, ts)
		}
		sort.Slice(gts, func(i, j int) bool { return gts[i] < gts[j] })
		for ts, w := range want[k] {
			i := sort.Search(len(gts), func(i int) bool { return gts[i] >= ts })
			best := int64(-1)
			for _, j := range []int{i - 1, i} {
				if j >= 0 && j < len(gts) && (best < 0 || abs64(gts[j]-ts) < abs64(best-ts)) {
					best = gts[j]
				}
			}
			if best < 0 || abs64(best-ts) > maxSkew.Milliseconds() {
				continue
			}
			g := got[k][best]
			d := math.Abs(w - g)
			scale := math.Max(math.Max(math.Abs(w), math.Abs(g)), floor[k])
			if d > rel*scale+absTol {
				why := wantShort.excuse("the reference", cluster, ts, after)
				if why == "" {
					why = gotShort.excuse("thanos", cluster, best, after)
				}
				if why != "" {
					left++
					t.Logf("%s%s: pair at %s / %s (%v, %v) left out: %s", name, k, clock(ts), clock(best), w, g, why)
					continue
				}
				t.Errorf("%s%s: reference %v at %s, thanos %v at %s (difference %.3g)", name, k, w, clock(ts), g, clock(best), d)
			}
			pairs++
			if d > 0 && scale > 0 {
				res.maxRel = math.Max(res.maxRel, d/scale)
			}
		}
		switch {
		case pairs < minPairs && left > 0 && pairs+left >= minPairs:
			t.Logf("%s%s: not compared in this run: %d of %d pairs read short windows", name, k, left, pairs+left)
		case pairs < minPairs:
			t.Errorf("%s%s: %d samples paired (reference %d samples, thanos %d, %d pairs left out for short windows), want >= %d", name, k, pairs, len(want[k]), len(got[k]), left, minPairs)
		}
		res.pairs += pairs
	}
	return res
}

func clock(ms int64) string { return time.UnixMilli(ms).UTC().Format("15:04:05.000") }

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// alert is one alert instance as both APIs list it, its times left out of
// the links (each side renders them at its own last evaluation).
type alert struct {
	State, Description, Summary, DashboardURL string
	Value                                     float64
}

var linkTimes = regexp.MustCompile(`(from|to|hotpath-at)=\d+`)

// alerts lists p's alerts (Prometheus's or the ruler's /api/v1/alerts) by
// label set, each label set given extra labels first.
func alerts(t *testing.T, p *harness.Prometheus, extra model.LabelSet) map[string]alert {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), harness.APITimeout)
	defer cancel()
	res, err := p.API.Alerts(ctx)
	if err != nil {
		t.Fatalf("%s alerts: %v", p.URL, err)
	}
	out := map[string]alert{}
	for _, a := range res.Alerts {
		ls := a.Labels.Merge(extra)
		v, err := strconv.ParseFloat(a.Value, 64)
		if err != nil {
			t.Fatalf("alert %s: value %q", ls, a.Value)
		}
		out[ls.String()] = alert{
			State:        string(a.State),
			Description:  string(a.Annotations["description"]),
			Summary:      string(a.Annotations["summary"]),
			DashboardURL: linkTimes.ReplaceAllString(string(a.Annotations["dashboard_url"]), "$1=T"),
			Value:        v,
		}
	}
	return out
}

// compareAlerts fails when the two sides' alert instances differ in labels,
// state, annotations or value (relTol).
func compareAlerts(t *testing.T, want, got map[string]alert) {
	t.Helper()
	if a, b := keys(want), keys(got); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("alerts differ:\n  reference: %v\n  thanos:    %v", a, b)
		return
	}
	for _, k := range keys(want) {
		w, g := want[k], got[k]
		if math.Abs(w.Value-g.Value) > relTol*math.Abs(w.Value)+absTol {
			t.Errorf("alert %s: value reference %v, thanos %v", k, w.Value, g.Value)
		}
		w.Value, g.Value = 0, 0
		if w != g {
			t.Errorf("alert %s:\n  reference %+v\n  thanos    %+v", k, w, g)
		}
	}
}

// rulesHealthy fails on any rule of p's /api/v1/rules that is not ok.
func rulesHealthy(p *harness.Prometheus, want int) (bool, string) {
	ctx, cancel := context.WithTimeout(context.Background(), harness.APITimeout)
	defer cancel()
	rules, err := p.Rules(ctx)
	if err != nil {
		return false, err.Error()
	}
	if len(rules) != want {
		return false, fmt.Sprintf("%d rules, want %d", len(rules), want)
	}
	for _, r := range rules {
		if r.Health != "ok" {
			return false, fmt.Sprintf("%s/%s: health %q %s", r.Group, r.Name, r.Health, r.LastError)
		}
	}
	return true, ""
}
