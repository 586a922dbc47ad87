package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
)

// ServeModel backfills a model's last 6 minutes, every second as scraped,
// serves its page and starts the real Prometheus on it with ruleFiles
// loaded.
func ServeModel(t testing.TB, m synth.Model, ruleFiles []string) *Prometheus {
	t.Helper()
	now := time.Now().Truncate(time.Second)
	dataDir := DataDir(t)
	BackfillOpenMetrics(t, dataDir, m.OpenMetrics(now.Add(-6*time.Minute), now, time.Second))
	exp := NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, m.Page)
	return startRulesAfterFirstScrape(t, PromConfig{DataDir: dataDir, Targets: []string{exp.Addr}, Args: LeaveOverlappingBlocks}, ruleFiles)
}

// A Live is a test's services from the start of its live run on: the page
// an exporter serves at each scrape, continuing the counters of its history.
type Live interface{ Page(now time.Time) string }

// ServeHistory starts the real Prometheus with ruleFiles on a test's
// services: history's 1m samples (OpenMetrics, "# EOF" last) over the 25
// hours up to the minute, raw's samples as scraped (without "# EOF") over
// the 15 minutes up to start (now, to the scrape interval), and from start on the page
// of newLive(start), which it returns. raw's samples are a scrape interval
// apart, as the live ones: a rate window holding 15s samples and 1s ones
// has an average interval so short that a window starting up to 15s before
// its first sample is extrapolated only half an interval back, and the
// service's rate reads up to 4% low while its window crosses the seam.
func ServeHistory[L Live](t testing.TB, ruleFiles []string, history func(from, to time.Time) string, raw func(from, to time.Time, step time.Duration) string, newLive func(start time.Time) L) (*Prometheus, L) {
	t.Helper()
	now := time.Now().Truncate(time.Minute)
	start := time.Now().Truncate(DefaultScrapeInterval)
	dataDir := DataDir(t)
	om := history(now.Add(-25*time.Hour), now)
	BackfillOpenMetrics(t, dataDir, strings.TrimSuffix(om, "# EOF\n")+raw(start.Add(-15*time.Minute), start, DefaultScrapeInterval)+"# EOF\n")
	live := newLive(start)
	exp := NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, live.Page)
	return startRulesAfterFirstScrape(t, PromConfig{DataDir: dataDir, Targets: []string{exp.Addr}}, ruleFiles), live
}

// startRulesAfterFirstScrape starts the real Prometheus on a backfilled
// c.DataDir and loads ruleFiles once its first scrape of c.Targets is in.
// A rule evaluated before then reads the backfill's last samples, as old
// as the backfill and the start-up took (10 to 30 seconds), and a 5m rate
// extrapolates only half a scrape interval past them: it reads 3 to 10%
// low, and every fit over the day keeps that point.
func startRulesAfterFirstScrape(t testing.TB, c PromConfig, ruleFiles []string) *Prometheus {
	t.Helper()
	stage := t.TempDir()
	c.RuleFiles = []string{filepath.Join(stage, "*.yaml")}
	p := StartPrometheus(t, c)
	WaitFor(t, time.Minute, "the first scrape of every target", func() (bool, string) {
		s, err := p.Query(context.Background(), fmt.Sprintf(`up{job=%q} == 1`, ScrapeJob))
		return err == nil && len(s) == len(c.Targets), fmt.Sprintf("%v %v", s, err)
	})
	for i, f := range ruleFiles {
		b, err := os.ReadFile(f)
		must(t, err, "read rule file")
		must(t, os.WriteFile(filepath.Join(stage, fmt.Sprintf("%02d.yaml", i)), b, 0o644), "stage rule file")
	}
	p.Reload(t)
	if n, err := p.RuleGroups(context.Background()); err != nil || n == 0 {
		t.Fatalf("after loading %v: %d rule groups (%v)", ruleFiles, n, err)
	}
	return p
}

// ServeRealShapes serves synth's label shapes of real fleets (begun an hour
// ago) to the real Prometheus, with the shipped rules under overlay
// (FastRuleFiles) loaded.
func ServeRealShapes(t testing.TB, overlay string) *Prometheus {
	t.Helper()
	return ServeModel(t, synth.RealShapes(time.Now().Add(-time.Hour)).At, FastRuleFiles(t, overlay))
}

// RulesHealthy fails the test for every rule with an error and every group
// with a failed evaluation.
func RulesHealthy(t *testing.T, p *Prometheus) {
	t.Helper()
	rules, err := p.Rules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.Health == "err" || r.LastError != "" {
			t.Errorf("%s/%s: %s %s", r.Group, r.Name, r.Health, r.LastError)
		}
	}
	for group, v := range promkit.ValuesBy(p.SelfMetrics(t)["prometheus_rule_evaluation_failures_total"], "rule_group") {
		if v != 0 {
			t.Errorf("%s: %g failed evaluations", group, v)
		}
	}
}

// WaitForJobRates waits up to timeout (what says for what) until query
// returns as many jobs as want has, each series keyed by its job label, then
// fails the test for every rate CompareRates finds off.
func WaitForJobRates(t *testing.T, p *Prometheus, timeout time.Duration, what, query string, want map[string]float64) {
	t.Helper()
	var got map[string]float64
	WaitFor(t, timeout, what, func() (bool, string) {
		s, err := p.Query(context.Background(), query)
		if err != nil {
			return false, err.Error()
		}
		got = map[string]float64{}
		for _, x := range s {
			got[x.Metric["job"]] = x.Value
		}
		return len(got) >= len(want), fmt.Sprint(got)
	})
	for _, problem := range CompareRates(got, want) {
		t.Errorf("%s: %s", query, problem)
	}
}

// CompareRates checks rates read back from Prometheus against the model's: the
// same services, each at its rate. Every rate is read over a 5m window that
// holds the same gap (the server's start, between the backfill and the
// first scrape), which lowers all of them by one factor: Compare finds that
// factor, accepts it between 0.8 and 1.02, and wants every value within 1%
// of want x factor. A wrong join (a service counted twice, or given another's
// value) is off by far more.
func CompareRates(got, want map[string]float64) []string {
	var problems []string
	var ratios []float64
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: missing, want %g", k, w))
		case w > 0:
			ratios = append(ratios, g/w)
		case g != 0:
			problems = append(problems, fmt.Sprintf("%s = %g, want 0", k, g))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			problems = append(problems, fmt.Sprintf("%s = %g, want no such series", k, g))
		}
	}
	if len(ratios) == 0 {
		return problems
	}
	sort.Float64s(ratios)
	factor := ratios[len(ratios)/2]
	if factor < 0.8 || factor > 1.02 {
		problems = append(problems, fmt.Sprintf("rates at %.3fx the model's", factor))
	}
	for k, w := range want {
		if g, ok := got[k]; ok && w > 0 && (g/w < factor*0.99 || g/w > factor*1.01) {
			problems = append(problems, fmt.Sprintf("%s = %g, want %g (x %.3f)", k, g, w, factor))
		}
	}
	sort.Strings(problems)
	return problems
}
