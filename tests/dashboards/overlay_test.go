package dashboards

import (
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// The default label names an overlay renames; none may survive in the
// rendered dashboards' queries, legends, variables or links.
var defaultLabels = []string{"job", "instance", "cluster", "namespace", "pod", "container"}

// render renders a jsonnet entry point (tests/dashboards/testdata) the way
// `make generate` does and loads its dashboards, both flavours.
func render(t *testing.T, entry string) (plain, imported map[string]dashboard) {
	t.Helper()
	root := harness.RepoRoot()
	out := t.TempDir()
	cmd := exec.Command(filepath.Join(root, "tools", "render-mixin.sh"), filepath.Join(root, "tests", "dashboards", "testdata", entry), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("render %s: %v\n%s", entry, err, b)
	}
	return load(t, filepath.Join(out, "dashboards")), load(t, filepath.Join(out, "dashboards-import"))
}

func TestOverlayRenamesEveryLabel(t *testing.T) {
	plain, imported := render(t, "overlay.jsonnet")
	uids := map[string]string{"hotpath-overview.json": "fleet-cpu", "hotpath-service.json": "svc-cpu", "hotpath-throttling.json": "cfs"}
	want := []string{"service", "k8s_cluster", "k8s_namespace", "k8s_pod", "k8s_container", "target"}
	seen := map[string]bool{}
	for flavour, set := range map[string]map[string]dashboard{"": plain, "dashboards-import/": imported} {
		for name, d := range set {
			t.Run(flavour+name, func(t *testing.T) {
				checkStructure(t, uids[name], d)
				for _, l := range labelNames(t, name, d) {
					seen[l.name] = true
					for _, def := range defaultLabels {
						if l.name == def {
							t.Errorf("%s: default label %q left in the overlay", l.where, def)
						}
					}
				}
				for _, link := range linkTargets(t, d) {
					if !contains(sortedValues(uids), link) {
						t.Errorf("links to /d/%s, not to an overlay uid %v", link, sortedValues(uids))
					}
				}
			})
		}
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("the overlay label %q is used nowhere: the overlay did not take", w)
		}
	}
	if d := plain["hotpath-service.json"]; !strings.Contains(mustJSON(d), `{service_name=\"$service\"}`) {
		t.Error("the profile label selector does not use the overlay's service variable")
	}
}

func TestOverlayWithoutClusterLabel(t *testing.T) {
	plain, _ := render(t, "overlay-no-cluster.jsonnet")
	for name, d := range plain {
		t.Run(name, func(t *testing.T) {
			checkStructure(t, wantUIDs[name], d)
			for _, l := range labelNames(t, name, d) {
				if l.name == "cluster" {
					t.Errorf("%s: cluster label used though clusterLabel is ''", l.where)
				}
			}
		})
	}
}

type labelUse struct{ where, name string }

var legendLabel = regexp.MustCompile(`\{\{\s*(\w+)\s*\}\}`)

// labelNames lists every label name a dashboard uses, from the parsed
// queries (matchers, by/without, on/ignoring, group_left/right,
// label_replace), the legends, the variables and the data links.
func labelNames(t *testing.T, name string, d dashboard) []labelUse {
	var out []labelUse
	add := func(where string, names ...string) {
		for _, n := range names {
			out = append(out, labelUse{where, n})
		}
	}
	for where, expr := range parseAll(t, name, d) {
		parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
			switch n := node.(type) {
			case *parser.VectorSelector:
				for _, m := range n.LabelMatchers {
					if m.Name != "__name__" {
						add(where, m.Name)
					}
				}
			case *parser.AggregateExpr:
				add(where, n.Grouping...)
			case *parser.BinaryExpr:
				if n.VectorMatching != nil {
					add(where, n.VectorMatching.MatchingLabels...)
					add(where, n.VectorMatching.Include...)
				}
			case *parser.Call:
				if n.Func.Name == "label_replace" {
					add(where, stringArg(n, 1), stringArg(n, 3))
				}
			}
			return nil
		})
	}
	for _, p := range d.panels() {
		ts, _ := p["targets"].([]any)
		for _, tg := range ts {
			legend, _ := tg.(map[string]any)["legendFormat"].(string)
			for _, m := range legendLabel.FindAllStringSubmatch(legend, -1) {
				add(p["title"].(string)+" legend", m[1])
			}
		}
	}
	for _, v := range d.variables() {
		add("variable "+v["name"].(string), v["name"].(string))
		if m := labelValues.FindStringSubmatch(str(v["definition"])); m != nil {
			add("variable "+v["name"].(string), m[2])
		}
	}
	for _, u := range dataLinks(d) {
		parsed, err := url.Parse(u)
		if err != nil {
			t.Errorf("data link %q: %v", u, err)
			continue
		}
		for k, vs := range parsed.Query() {
			if strings.HasPrefix(k, "var-") {
				add("data link", strings.TrimPrefix(k, "var-"))
			}
			for _, v := range vs {
				if f := strings.TrimSuffix(strings.TrimPrefix(v, "${__data.fields."), "}"); f != v {
					add("data link", f)
				}
			}
		}
	}
	return out
}

func stringArg(c *parser.Call, i int) string {
	if s, ok := c.Args[i].(*parser.StringLiteral); ok {
		return s.Val
	}
	return ""
}

// dataLinks lists the URLs of the panels' data links.
func dataLinks(d dashboard) []string {
	var out []string
	eachString(map[string]any(d), "", func(path, s string) {
		if strings.HasSuffix(path, ".links[].url") && strings.Contains(path, "fieldConfig") {
			out = append(out, s)
		}
	})
	return out
}

// linkTargets lists the dashboard uids that dashboard links and data links
// point to (/d/<uid>).
func linkTargets(t *testing.T, d dashboard) []string {
	var out []string
	re := regexp.MustCompile(`^/d/([^/?]+)`)
	eachString(map[string]any(d), "", func(path, s string) {
		if strings.HasSuffix(path, ".url") {
			m := re.FindStringSubmatch(s)
			if m == nil {
				t.Errorf("%s: link %q is not to a dashboard uid", path, s)
				return
			}
			out = append(out, m[1])
		}
	})
	return out
}

func str(v any) string { s, _ := v.(string); return s }

func sortedValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func mustJSON(d dashboard) string {
	b, _ := json.Marshal(d)
	return string(b)
}
