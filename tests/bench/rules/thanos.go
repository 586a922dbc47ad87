//go:build bench

package rules

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/tests/harness"
)

// baselineGroup is the group whose cost on Thanos the bench reports: the
// day-long baselines are what users move to Thanos for, and every one of its
// rules reads recorded series over hours, the ruler's worst case through Query.
const baselineGroup = "hotpath-baseline"

// thanosBaseline evaluates the baseline group on Thanos Ruler through Thanos
// Query, over a sidecar on p (the Prometheus just measured, still recording
// every other group, so the baseline reads the same series on both), and
// returns the group's durations over about 10 evaluations: what a user who
// moves the pack to the ruler pays for it, beside Prometheus's own figure.
func thanosBaseline(t *testing.T, p *harness.Prometheus, dataDir string, ruleFiles []string) ([]float64, string) {
	// the binary built from the module proxy carries no version (no release ldflags): the pin says it
	mod, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "tools", "thanos", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`github\.com/thanos-io/thanos (v\S+)`).FindSubmatch(mod)
	if version == nil {
		t.Fatal("tools/thanos/go.mod pins no github.com/thanos-io/thanos")
	}
	file := groupFile(t, ruleFiles, baselineGroup)
	sidecar := harness.StartSidecar(t, p, dataDir)
	queryAddr := harness.FreeAddr(t)
	ruler := harness.StartRuler(t, harness.RulerConfig{RuleFiles: []string{file}, QueryURL: "http://" + queryAddr, EvalInterval: scrape})
	defer ruler.Stop()
	q := harness.StartQuery(t, harness.QueryConfig{Endpoints: []string{sidecar.GRPC, ruler.GRPC}, Addr: queryAddr})
	defer q.Stop()
	// the ruler's first evaluations ran before Query was up and failed: wait
	// for one where every rule is healthy, then collect
	harness.WaitFor(t, 2*time.Minute, "the ruler's baseline group evaluating without errors", func() (bool, string) {
		rules, err := ruler.Rules(context.Background())
		if err != nil {
			return false, err.Error()
		}
		for _, r := range rules {
			if r.Health != "ok" {
				return false, r.Name + ": " + r.Health + " " + r.LastError
			}
		}
		return len(rules) > 0, "no rules yet"
	})
	var durations []float64
	eachEvaluation(t, ruler.Prometheus, func(group string, seconds float64) {
		if group == baselineGroup {
			durations = append(durations, seconds)
		}
	})
	return durations, "Thanos " + string(version[1]) + ", pinned in tools/thanos/go.mod"
}

// groupFile writes the named group of the rule files, unchanged, to a file
// of its own.
func groupFile(t *testing.T, ruleFiles []string, group string) string {
	for _, g := range harness.ParseRules(t, ruleFiles) {
		if g.Name == group {
			return harness.WriteRules(t, []rulefmt.RuleGroup{g}, group+".yaml")
		}
	}
	t.Fatalf("no group %s in %v", group, ruleFiles)
	return ""
}
