package realrules

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/evaluate"
	"github.com/hotpath/hotpath/tests/harness"
)

// The benchmarks record the rule pack over days of generated history in
// their own process (promkit/evaluate); the playground and the other tests
// backfill it with promtool through a Prometheus server. Both must record
// the same series with the same values at the same times: here, the shipped
// recording rules over ten hours of these services' counters, each recorded
// series read back minute by minute from both. Ten hours: every level of
// the pack records something by then (the baselines need 6h), and each of
// promtool's passes starts a server, which is most of its time.
func TestInProcessRecordingMatchesPromtool(t *testing.T) {
	if testing.Short() {
		t.Skip("backfills ten hours of history twice")
	}
	ctx := context.Background()
	end := time.Now().Truncate(time.Hour).Add(-time.Hour)
	from := end.Add(-10 * time.Hour)
	om := rawHistory(from, end, 15*time.Second) + "# EOF\n"
	ruleFile := filepath.Join(harness.RepoRoot(), "rules", "hotpath-rules.yaml")
	groups := harness.ParseRules(t, []string{ruleFile})

	dataDir := harness.DataDir(t)
	began := time.Now()
	harness.BackfillOpenMetrics(t, dataDir, om)
	harness.BackfillRules(t, dataDir, []string{ruleFile}, from, end)
	t.Logf("promtool: %s", time.Since(began).Round(time.Second))
	p := harness.StartPrometheus(t, harness.PromConfig{DataDir: dataDir, Args: harness.LeaveOverlappingBlocks})

	began = time.Now()
	h, err := evaluate.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.WriteOpenMetrics(ctx, []byte(om)); err != nil {
		t.Fatal(err)
	}
	if err := h.Record(ctx, groups, from, end, evaluate.Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	t.Logf("in process: %s", time.Since(began).Round(time.Second))

	compared := 0
	for _, name := range promkit.RecordedNames(groups) {
		want, err := p.QueryRange(ctx, name, from, end, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.QueryRange(ctx, name, from, end, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if diff := compareSeries(got, want); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
		if len(want) > 0 {
			compared++
		}
	}
	// most of the pack records within ten hours; the noise groups need more
	if n := len(promkit.RecordedNames(groups)); compared < n/2 {
		t.Errorf("only %d of %d recorded names had series to compare", compared, n)
	}
	t.Logf("%d recorded names compared", compared)
}

// compareSeries is "" when both hold the same series with the same points
// (values within a relative 1e-9), else the first difference.
func compareSeries(got, want []promkit.Series) string {
	index := func(ss []promkit.Series) (map[string]promkit.Series, []string) {
		out := map[string]promkit.Series{}
		var keys []string
		for _, s := range ss {
			k := promkit.FormatLabels(s.Metric)
			out[k] = s
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return out, keys
	}
	g, gk := index(got)
	w, wk := index(want)
	if len(gk) != len(wk) {
		return fmt.Sprintf("%d series in process, %d by promtool (%v vs %v)", len(gk), len(wk), gk, wk)
	}
	for _, k := range wk {
		a, ok := g[k]
		if !ok {
			return fmt.Sprintf("series {%s} missing in process", k)
		}
		b := w[k]
		if len(a.Points) != len(b.Points) {
			return fmt.Sprintf("{%s}: %d points in process, %d by promtool", k, len(a.Points), len(b.Points))
		}
		for i := range b.Points {
			x, y := a.Points[i], b.Points[i]
			if x[0] != y[0] || !(x[1] == y[1] || math.Abs(x[1]-y[1]) <= 1e-9*math.Max(math.Abs(x[1]), math.Abs(y[1])) || (math.IsNaN(x[1]) && math.IsNaN(y[1]))) {
				return fmt.Sprintf("{%s} at %s: %g in process, %g by promtool", k, time.Unix(int64(y[0]), 0).UTC().Format(time.RFC3339), x[1], y[1])
			}
		}
	}
	return ""
}
