package mixin

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hotpath/hotpath/tests/harness"
)

// The extra labels and annotations of testdata/extra.jsonnet (keep in step).
var (
	extraLabels      = map[string]string{"team": "platform", "page": "false"}
	extraAnnotations = map[string]string{"slack_channel": "#perf-{{ $labels.namespace }}", "playbooks": "https://wiki.example.com/perf"}
)

// alertExtraLabels and alertExtraAnnotations reach every alert, in the rule
// files and in the PrometheusRule, and nothing else: with them taken off
// the alerts, every rendered file equals the shipped configuration's.
func TestAlertExtraLabelsAndAnnotations(t *testing.T) {
	plain := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "mixin", "testdata", "plain.jsonnet"))
	extra := harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "mixin", "testdata", "extra.jsonnet"))
	files := renderedFiles(t, plain)
	if got := renderedFiles(t, extra); !slices.Equal(got, files) {
		t.Fatalf("rendered files %v, the plain mixin renders %v", got, files)
	}
	alerts := 0
	for _, f := range files {
		a, b := readFile(t, filepath.Join(plain, f)), readFile(t, filepath.Join(extra, f))
		if filepath.Ext(f) != ".yaml" {
			if a != b {
				t.Errorf("%s differs from the plain mixin's: the extras leaked there", f)
			}
			continue
		}
		var want, got any
		must(t, yaml.Unmarshal([]byte(a), &want), f)
		must(t, yaml.Unmarshal([]byte(b), &got), f)
		n := takeExtras(t, f, got)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with the extras taken off the alerts, it differs from the plain mixin's", f)
		}
		if f == "rules/hotpath-alerts.yaml" {
			alerts = n
		}
	}
	if want := len(harness.CatalogueAlerts(t)); alerts != want {
		t.Errorf("rules/hotpath-alerts.yaml: %d alerts carry the extras, the catalogue lists %d", alerts, want)
	}
}

// takeExtras walks a rule file or a PrometheusRule for rules, checks that
// every alert carries the extras with their values and that no recording
// rule carries any, removes them (dropping a map they leave empty) and
// returns how many alerts it saw.
func takeExtras(t *testing.T, file string, doc any) int {
	t.Helper()
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if rules, ok := v["rules"].([]any); ok {
				for _, r := range rules {
					r := r.(map[string]any)
					name, isAlert := r["alert"].(string)
					if !isAlert {
						name, _ = r["record"].(string)
					}
					for key, extra := range map[string]map[string]string{"labels": extraLabels, "annotations": extraAnnotations} {
						m, _ := r[key].(map[string]any)
						for k, want := range extra {
							switch got, ok := m[k]; {
							case isAlert && got != want:
								t.Errorf("%s: %s: %s %s = %v, want %q", file, name, key, k, got, want)
							case !isAlert && ok:
								t.Errorf("%s: recording rule %s has %s %s", file, name, key, k)
							}
							delete(m, k)
						}
						if m != nil && len(m) == 0 {
							delete(r, key)
						}
					}
					if isAlert {
						n++
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return n
}

func renderedFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	must(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	}), dir)
	slices.Sort(out)
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err, path)
	return string(b)
}

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
