package realrules

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
	"github.com/prometheus/prometheus/model/rulefmt"
)

// The versions group in the real Prometheus, scraping a service whose
// version changes: a rollout in which both versions run is one deploy, dated
// when the new version first ran and never again; the old version's series
// ends with Prometheus's staleness marker and is held for versionHold; a
// rollback is a second deploy.
func TestVersionsInRealPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus and waits for a rollout and a rollback")
	}
	var versions []rulefmt.RuleGroup
	for _, g := range harness.ParseRules(t, harness.FastRuleFiles(t, "versions-fast.jsonnet")[:1]) {
		if g.Name == "hotpath-versions" {
			versions = append(versions, g)
		}
	}
	if len(versions) != 1 {
		t.Fatalf("no hotpath-versions group in the overlay's rules")
	}
	page := func(vs ...string) string {
		s := ""
		for _, v := range vs {
			s += fmt.Sprintf("shop_build_info{version=%q} 1\n", v)
		}
		return s
	}
	exp := harness.NewExporter(t, page("1.41"))
	p := harness.StartPrometheus(t, harness.PromConfig{RuleFiles: []string{harness.WriteRules(t, versions, "versions.yaml")}, Targets: []string{exp.Addr}})
	ctx := context.Background()
	query := func(q string) []promkit.Sample {
		s, err := p.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	// the versions job:version:info holds, sorted
	running := func() []string {
		var vs []string
		for _, s := range query(`job:version:info{job="scrape"}`) {
			vs = append(vs, s.Metric["version"])
		}
		slices.Sort(vs)
		return vs
	}
	// the deploy recorded for version v, and when it began (unix s); "" when none
	deploy := func(v string) (previous string, at float64) {
		for _, s := range query(fmt.Sprintf(`job:version:rollout_timestamp{job="scrape", version=%q}`, v)) {
			return s.Metric["previous_version"], s.Value
		}
		return "", 0
	}
	waitRunning := func(want ...string) {
		harness.WaitFor(t, 60*time.Second, fmt.Sprintf("running %v", want), func() (bool, string) {
			got := running()
			return slices.Equal(got, want), fmt.Sprintf("running %v", got)
		})
	}

	waitRunning("1.41")
	if prev, _ := deploy("1.41"); prev != "" {
		t.Errorf("a deploy before any change: 1.41 from %s", prev)
	}

	rolloutBegan := time.Now()
	exp.Set(page("1.41", "1.42"))
	waitRunning("1.41", "1.42")
	prev, rollout := deploy("1.42")
	if prev != "1.41" || rollout < float64(rolloutBegan.Unix()-5) || rollout > float64(time.Now().Unix()+1) {
		t.Fatalf("during the rollout: deploy of 1.42 from %q at %.0f, want from 1.41 at about %d", prev, rollout, rolloutBegan.Unix())
	}

	exp.Set(page("1.42"))
	waitRunning("1.42")
	if p, at := deploy("1.42"); p != "1.41" || at != rollout {
		t.Errorf("after the rollout: deploy of 1.42 from %q at %.0f, want the same deploy (from 1.41 at %.0f)", p, at, rollout)
	}

	// 1.41 away for longer than versionHold and the start's gap: its return is a deploy
	time.Sleep(8 * time.Second)
	exp.Set(page("1.41"))
	harness.WaitFor(t, 60*time.Second, "a rollback to 1.41 recorded", func() (bool, string) {
		p, at := deploy("1.41")
		return p == "1.42" && at > rollout, fmt.Sprintf("deploy of 1.41 from %q at %.0f", p, at)
	})

	window := fmt.Sprintf("[%ds]", int(time.Since(rolloutBegan).Seconds())+10)
	if n := len(query(`last_over_time(job:version:rollout_timestamp{job="scrape"}` + window + `)`)); n != 2 {
		t.Errorf("%d deploys recorded over the run, want 2 (the rollout and the rollback)", n)
	}
	if s := query(`max_over_time(job:version:rollout_timestamp{job="scrape", version="1.42"}` + window + `) - min_over_time(job:version:rollout_timestamp{job="scrape", version="1.42"}` + window + `)`); len(s) != 1 || s[0].Value != 0 {
		t.Errorf("the rollout's deploy time moved while it was recorded: %v", s)
	}
	failures := promkit.ValuesBy(p.SelfMetrics(t)["prometheus_rule_evaluation_failures_total"], "rule_group")
	for group, v := range failures {
		if v != 0 {
			t.Errorf("%s: %g failed evaluations", group, v)
		}
	}
}
