package dashboards

import (
	"regexp"
	"strings"
	"testing"
)

// descriptions maps each dashboard to its panel descriptions by title.
func descriptions(set map[string]dashboard) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, d := range set {
		out[name] = map[string]string{}
		for _, p := range d.panels() {
			out[name][str(p["title"])] = str(p["description"])
		}
	}
	return out
}

// A description that quotes a threshold quotes the knob, not its default: with
// every such knob moved (testdata/thresholds.jsonnet) the text moves too.
func TestDescriptionsQuoteTheKnobs(t *testing.T) {
	plain, _ := render(t, "thresholds.jsonnet")
	got := descriptions(plain)
	shipped, _ := shipped(t)
	defaults := descriptions(shipped)
	cases := []struct {
		dashboard, panel string
		want, notWant    []string
	}{
		{"hotpath-overview.json", "Services by CPU", []string{"3× is a regression"}, []string{"1.5×"}},
		{"hotpath-overview.json", "CPU vs baseline: top 10", []string{"fires at 3× for 20m"}, []string{"1.5×", "15m"}},
		{"hotpath-service.json", "CPU per request vs its baseline band", []string{"fitted on 2d of history up to 3d ago", "(3× the prediction)"}, []string{"1d", "1.5×"}},
		{"hotpath-service.json", "Does CPU track load?", []string{"over the last 45m", "the last 2d of 4h fits", "fires from 70%"}, []string{"30m", "3h", "80%"}},
		{"hotpath-service.json", "Instances vs the sibling median", []string{"at 2.5× or more for 25m", "at least 5 instances"}, []string{"1.5×", "15m", "3 instances"}},
		{"hotpath-service.json", "Throttled periods by container", []string{"at least 30% of periods and 0.05 s/s"}, []string{"25%", "0.1 s/s"}},
		{"hotpath-service.json", "CPU usage vs limit", []string{"within 50ms periods"}, []string{"100"}},
		{"hotpath-service.json", "Bytes allocated per request vs baseline", []string{"fires at 4× the baseline"}, []string{"2×"}},
		{"hotpath-throttling.json", "Top 10 throttled containers", []string{"within 50ms periods"}, []string{"100"}},
	}
	for _, c := range cases {
		t.Run(c.panel, func(t *testing.T) {
			desc, ok := got[c.dashboard][c.panel]
			if !ok {
				t.Fatalf("%s has no panel %q", c.dashboard, c.panel)
			}
			if desc == defaults[c.dashboard][c.panel] {
				t.Errorf("the description did not change with the knobs: %q", desc)
			}
			for _, w := range c.want {
				if !strings.Contains(desc, w) {
					t.Errorf("description lacks %q: %q", w, desc)
				}
			}
			for _, n := range c.notWant {
				if strings.Contains(desc, n) {
					t.Errorf("description still says the default %q: %q", n, desc)
				}
			}
		})
	}
}

// Text a user reads (titles, descriptions, tooltips) names no project
// bookkeeping: story and issue numbers, or the design notes, mean nothing in Grafana.
func TestUserTextNamesNoBookkeeping(t *testing.T) {
	bookkeeping := regexp.MustCompile(`(?i)\bstor(y|ies)\b|\bissue \d|DESIGN\.md|shared/seeds`)
	plain, imported := shipped(t)
	for flavour, set := range map[string]map[string]dashboard{"": plain, "dashboards-import/": imported} {
		for name, d := range set {
			eachString(map[string]any(d), flavour+name, func(path, s string) {
				if bookkeeping.MatchString(s) {
					t.Errorf("%s: %q", path, s)
				}
			})
		}
	}
}
