package mixin

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hotpath/hotpath/tests/harness"
)

// versionSources adds the versions group, the version annotations of the
// efficiency alerts and the function alert (and of no other alert), and the deploys annotation of the
// service dashboard: in the shipped configuration (kube-state-metrics' image
// tags) and with sources of one's own (tests/rules/overlays/versions.jsonnet);
// `versionSources: []` has none of them.
func TestVersionSources(t *testing.T) {
	plain := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "mixin", "testdata", "plain.jsonnet"))
	off := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "mixin", "testdata", "versions-off.jsonnet"))
	versions := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "rules", "overlays", "versions.jsonnet"))
	keys := []string{"version", "previous_version", "rollout_time"}

	for dir, on := range map[string]bool{plain: true, off: false, versions: true} {
		var alerts struct {
			Groups []struct {
				Name  string
				Rules []struct {
					Alert       string
					Annotations map[string]string
				}
			}
		}
		must(t, yaml.Unmarshal([]byte(readFile(t, filepath.Join(dir, "rules", "hotpath-alerts.yaml"))), &alerts), "alerts")
		efficiency := 0
		for _, g := range alerts.Groups {
			for _, r := range g.Rules {
				want := on && (g.Name == "hotpath-efficiency" || g.Name == "hotpath-function-alerts" || g.Name == "hotpath-endpoint-alerts")
				if want && g.Name == "hotpath-efficiency" {
					efficiency++
				}
				for _, k := range keys {
					if _, got := r.Annotations[k]; got != want {
						t.Errorf("%s: %s has annotation %s: %v, want %v", filepath.Base(dir), r.Alert, k, got, want)
					}
				}
			}
		}
		if on && efficiency != 5 {
			t.Errorf("%d efficiency alerts carry the versions, want 5", efficiency)
		}

		rules := readFile(t, filepath.Join(dir, "rules", "hotpath-rules.yaml"))
		if got := strings.Contains(rules, "name: \"hotpath-versions\""); got != on {
			t.Errorf("%s: the versions group rendered: %v, want %v", filepath.Base(dir), got, on)
		}

		var dash struct {
			Annotations struct {
				List []map[string]any
			}
		}
		must(t, json.Unmarshal([]byte(readFile(t, filepath.Join(dir, "dashboards", "hotpath-service.json"))), &dash), "service dashboard")
		var deploys []map[string]any
		for _, a := range dash.Annotations.List {
			if a["name"] == "deploys" {
				deploys = append(deploys, a)
			}
		}
		if !on {
			if len(deploys) != 0 {
				t.Errorf("%s: the service dashboard has a deploys annotation", filepath.Base(dir))
			}
			continue
		}
		if len(deploys) != 1 {
			t.Fatalf("the service dashboard has %d deploys annotations, want 1", len(deploys))
		}
		d := deploys[0]
		if d["expr"] != `job:version:rollout_timestamp{cluster=~"$cluster", namespace=~"$namespace", job="$job"} * 1000` || d["useValueForTime"] != true || d["textFormat"] != "{{previous_version}} → {{version}}" {
			t.Errorf("deploys annotation: %v", d)
		}
	}
}
