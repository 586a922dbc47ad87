package thanos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// dashboardsThroughQuery opens every shipped dashboard on Query as Grafana
// would: the cluster, namespace and job variables from their label_values()
// (the cluster list must be both clusters: on Thanos the cluster comes from
// the external labels), then every panel and annotation query, as an instant
// and a range query, with us1's api picked. None may fail; most must show data.
func dashboardsThroughQuery(t *testing.T, q *harness.Prometheus) {
	files, err := filepath.Glob(filepath.Join(harness.RepoRoot(), "dashboards", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("dashboards: %v %v", files, err)
	}
	labelValues := regexp.MustCompile(`^label_values\((.*),\s*(\w+)\)$`)
	pick := map[string]string{"cluster": "us1", "namespace": "shop", "job": "api"}
	for _, f := range files {
		var d struct {
			Templating struct {
				List []map[string]any `json:"list"`
			} `json:"templating"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		vals := map[string]string{"__rate_interval": "1m", "__interval": "1m", "__range": "1h"}
		for _, v := range d.Templating.List {
			name, _ := v["name"].(string)
			if v["type"] != "query" {
				vals[name] = "ds"
				continue
			}
			def, _ := v["definition"].(string)
			m := labelValues.FindStringSubmatch(def)
			if m == nil {
				t.Fatalf("%s: variable %s: not label_values(): %q", f, name, def)
			}
			got := labelValuesOf(t, q, substitute(m[1], vals), m[2])
			if name == "cluster" && strings.Join(got, ",") != "eu1,us1" {
				t.Errorf("%s: $cluster offers %v through Query, want eu1,us1", filepath.Base(f), got)
			}
			// us1's api where the dashboard offers it; the throttling
			// dashboard's namespaces are the throttled containers'.
			switch {
			case slices.Contains(got, pick[name]):
				vals[name] = pick[name]
			case len(got) > 0:
				vals[name] = got[0]
			case v["includeAll"] == true: // Grafana's "All" (the throttled namespace runs no service)
				vals[name], _ = v["allValue"].(string)
			case fromProfileRows.MatchString(m[1]):
				// The functions and endpoints come from hotpath-profile-metrics'
				// rows, which this fleet does not export: Grafana leaves the
				// variable empty and their panels show no data.
				vals[name] = ""
				t.Logf("%s: $%s offers nothing through Query (no profile-metrics rows in this fleet)", filepath.Base(f), name)
			default:
				t.Errorf("%s: $%s offers nothing through Query", filepath.Base(f), name)
			}
		}
		var exprs []string
		eachExpr(json.RawMessage(b), func(e string) { exprs = append(exprs, substitute(e, vals)) })
		withData, asked := 0, len(exprs)
		for _, e := range exprs {
			s, err := q.Query(t.Context(), e)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
				continue
			}
			switch {
			case len(s) > 0:
				withData++
			case fromProfileRows.MatchString(e):
				asked-- // a panel of the rows this fleet lacks, counted neither way
			}
			r := v1Range(t, q, e)
			if r != nil {
				t.Errorf("%s: range %s: %v", filepath.Base(f), e, r)
			}
		}
		t.Logf("%s: %d queries through Query (%d without profile rows), %d with data for %v", filepath.Base(f), len(exprs), asked, withData, vals)
		if withData*2 < asked {
			t.Errorf("%s: only %d of %d queries show data through Query", filepath.Base(f), withData, asked)
		}
	}
}

// The series recorded from hotpath-profile-metrics' function and endpoint rows.
var fromProfileRows = regexp.MustCompile(`\b(job_function|job_endpoint|instance_endpoint|job:endpoint)_?[a-z_]*:`)

// eachExpr calls f with every "expr" string of a dashboard (panel targets,
// annotations) that parses as PromQL once Grafana's variables are filled.
func eachExpr(raw json.RawMessage, f func(string)) {
	var v any
	_ = json.Unmarshal(raw, &v)
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, c := range x {
				if s, ok := c.(string); ok && k == "expr" && s != "" {
					f(s)
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
}

func labelValuesOf(t *testing.T, q *harness.Prometheus, selector, label string) []string {
	if _, err := parser.ParseMetricSelector(selector); err != nil {
		t.Fatalf("label_values selector %q: %v", selector, err)
	}
	vs, _, err := q.API.LabelValues(t.Context(), label, []string{selector}, time.Now().Add(-time.Hour), time.Now())
	if err != nil {
		t.Fatalf("label values %s of %s through Query: %v", label, selector, err)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	sort.Strings(out)
	return out
}

func v1Range(t *testing.T, q *harness.Prometheus, expr string) error {
	now := time.Now()
	_, _, err := q.API.QueryRange(t.Context(), expr, rangeOf(now.Add(-time.Hour), now, 15*time.Second))
	return err
}

var varRef = regexp.MustCompile(`\$\{(\w+)(?::\w+)?\}|\$(\w+)`)

// substitute fills Grafana's variable references it has a value for
// (label_replace's $1 stays).
func substitute(expr string, vals map[string]string) string {
	return varRef.ReplaceAllStringFunc(expr, func(s string) string {
		m := varRef.FindStringSubmatch(s)
		name := m[1] + m[2]
		if v, ok := vals[name]; ok {
			return v
		}
		return s
	})
}

func rangeOf(from, to time.Time, step time.Duration) v1.Range {
	return v1.Range{Start: from, End: to, Step: step}
}
