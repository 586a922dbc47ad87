// Package dashboards tests the generated Grafana dashboards: their structure,
// that every query parses with the real Prometheus parser, and that every
// query returns data from the real Prometheus running the generated rules.
package dashboards

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// The shipped dashboards, by file name, and the uid each must keep (alerts
// link to them).
var wantUIDs = map[string]string{
	"hotpath-overview.json":   "hotpath-overview",
	"hotpath-service.json":    "hotpath-service",
	"hotpath-throttling.json": "hotpath-throttling",
}

type dashboard map[string]any

// load reads every dashboard JSON in dir (not recursing).
func load(t *testing.T, dir string) map[string]dashboard {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in %s (run `make generate`): %v", dir, err)
	}
	out := map[string]dashboard{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d dashboard
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = d
	}
	return out
}

// shipped loads dashboards/ (provisioning flavour) and dashboards-import/.
func shipped(t *testing.T) (plain, imported map[string]dashboard) {
	root := harness.RepoRoot()
	return load(t, filepath.Join(root, "dashboards")), load(t, filepath.Join(root, "dashboards-import"))
}

func (d dashboard) panels() []map[string]any {
	var out []map[string]any
	var walk func(list any)
	walk = func(list any) {
		ps, _ := list.([]any)
		for _, p := range ps {
			pm := p.(map[string]any)
			out = append(out, pm)
			walk(pm["panels"]) // collapsed rows hold their panels
		}
	}
	walk(d["panels"])
	return out
}

func (d dashboard) variables() []map[string]any {
	var out []map[string]any
	for _, v := range d["templating"].(map[string]any)["list"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}

// query is one PromQL expression of a dashboard and where it sits.
type query struct {
	where   string
	expr    string
	instant bool
}

var labelValues = regexp.MustCompile(`^label_values\((.*),\s*(\w+)\)$`)

// queries lists every PromQL expression: panel targets on a Prometheus
// datasource, annotations, and the series selector of label_values()
// variables.
func (d dashboard) queries(t *testing.T) []query {
	t.Helper()
	var out []query
	for _, p := range d.panels() {
		ts, _ := p["targets"].([]any)
		for _, tg := range ts {
			tm := tg.(map[string]any)
			ds, _ := tm["datasource"].(map[string]any)
			if ds["type"] != "prometheus" {
				continue
			}
			instant, _ := tm["instant"].(bool)
			out = append(out, query{
				where:   p["title"].(string) + " / " + tm["refId"].(string),
				expr:    tm["expr"].(string),
				instant: instant,
			})
		}
	}
	for _, a := range d["annotations"].(map[string]any)["list"].([]any) {
		am := a.(map[string]any)
		out = append(out, query{where: "annotation " + am["name"].(string), expr: am["expr"].(string)})
	}
	for _, v := range d.variables() {
		if v["type"] != "query" {
			continue
		}
		m := labelValues.FindStringSubmatch(v["definition"].(string))
		if m == nil {
			t.Fatalf("variable %s: not a label_values() query: %q", v["name"], v["definition"])
		}
		out = append(out, query{where: "variable " + v["name"].(string), expr: m[1], instant: true})
	}
	return out
}

// The sample values the tests put in for Grafana's variables: the service
// variable gets a real service of the scenario, multi-value variables
// their "All" value.
const sampleService = "api"

// sampleFunction is the function the `function` variable picks: one of
// api's rows in the scenario.
const sampleFunction = "main.(*Server).handle"

// sampleEndpoint is the endpoint the `endpoint` variable picks: one of api's
// routes in the scenario.
const sampleEndpoint = "/search"

func sampleValues(d dashboard, rateInterval string) map[string]string {
	vals := map[string]string{"__rate_interval": rateInterval, "__interval": "1m", "__range": "1h"}
	for _, v := range d.variables() {
		name := v["name"].(string)
		switch {
		case v["type"] == "datasource":
			vals[name] = "ds"
		case v["includeAll"] == true:
			vals[name] = v["allValue"].(string)
		case name == "function":
			vals[name] = sampleFunction
		case name == "endpoint":
			vals[name] = sampleEndpoint
		default:
			vals[name] = sampleService
		}
	}
	return vals
}

// varRef matches $name, ${name}, ${name:format} and [[name]].
var varRef = regexp.MustCompile(`\$\{(\w+)(?::[\w]+)?\}|\$(\w+)|\[\[(\w+)\]\]`)

func refName(m []string) string {
	for _, g := range m[1:] {
		if g != "" {
			return g
		}
	}
	return ""
}

// substitute replaces every variable reference it has a value for; others
// (label_replace's $1) stay.
func substitute(expr string, vals map[string]string) string {
	return varRef.ReplaceAllStringFunc(expr, func(s string) string {
		if v, ok := vals[refName(varRef.FindStringSubmatch(s))]; ok {
			return v
		}
		return s
	})
}

// strings walks any decoded JSON value and calls f for each string in it,
// with the key path that leads there.
func eachString(v any, path string, f func(path, s string)) {
	switch x := v.(type) {
	case string:
		f(path, x)
	case map[string]any:
		for k, c := range x {
			eachString(c, path+"."+k, f)
		}
	case []any:
		for _, c := range x {
			eachString(c, path+"[]", f)
		}
	}
}

func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
