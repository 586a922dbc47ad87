//go:build bench

package rules

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

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
	seen := 0.0
	deadline := time.Now().Add(150 * time.Second)
	for time.Now().Before(deadline) {
		last, d := groupTimes(t, ruler.Prometheus)
		if at := last[baselineGroup]; at != seen {
			seen = at
			durations = append(durations, d[baselineGroup])
		}
		time.Sleep(2 * time.Second)
	}
	return durations, "Thanos " + string(version[1]) + ", pinned in tools/thanos/go.mod"
}

// groupFile writes the named group of the rule files, unchanged, to a file
// of its own.
func groupFile(t *testing.T, ruleFiles []string, group string) string {
	for _, f := range ruleFiles {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Groups []yaml.Node `yaml:"groups"`
		}
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, g := range doc.Groups {
			var head struct{ Name string }
			if err := g.Decode(&head); err != nil {
				t.Fatal(err)
			}
			if head.Name != group {
				continue
			}
			out, err := yaml.Marshal(map[string][]*yaml.Node{"groups": {&g}})
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), group+".yaml")
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("no group %s in %v", group, ruleFiles)
	return ""
}
