package dashboards

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hotpath/hotpath/tests/harness"
)

// panelData is one panel's query results, sent to grafana-frames.mjs, which
// applies the panel's transformations with Grafana's own code to the frames
// Grafana's Prometheus datasource makes of them.
type panelData struct {
	Key             string                  `json:"key"`
	Format          string                  `json:"format"` // "table": instant queries as tables
	Transformations any                     `json:"transformations"`
	Results         map[string][]promSeries `json:"results"` // by refId
}

// promSeries is one series as Prometheus's HTTP API returns it.
type promSeries struct {
	Metric map[string]string `json:"metric"`
	Values [][2]any          `json:"values"` // [unix seconds, "value"]
}

// grafanaFrame is a frame as the panel receives it after its transformations.
type grafanaFrame struct {
	Fields []struct {
		Name    string `json:"name"`
		Display string `json:"display"`
	} `json:"fields"`
	Rows []map[string]any `json:"rows"`
}

// grafanaFrames runs tests/dashboards/grafana-frames.mjs on the panels and
// returns each one's frames by key.
func grafanaFrames(t *testing.T, panels []panelData) map[string][]grafanaFrame {
	t.Helper()
	in, err := json.Marshal(map[string]any{"panels": panels})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(harness.RepoRoot(), "tests", "dashboards", "grafana-frames.mjs"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("grafana-frames.mjs: %v\n%s", err, stderr.String())
	}
	var answer map[string]struct {
		Frames []grafanaFrame `json:"frames"`
	}
	if err := json.Unmarshal(out, &answer); err != nil {
		t.Fatalf("grafana-frames.mjs answered %q: %v", out, err)
	}
	frames := map[string][]grafanaFrame{}
	for k, a := range answer {
		frames[k] = a.Frames
	}
	return frames
}

// instant runs q at `at` and returns its series as the HTTP API does.
func instant(t *testing.T, p *harness.Prometheus, q string, at time.Time) []promSeries {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), harness.APITimeout)
	defer cancel()
	v, _, err := p.API.Query(ctx, q, at)
	if err != nil {
		t.Fatalf("query %s: %v", q, err)
	}
	vec, ok := v.(model.Vector)
	if !ok {
		t.Fatalf("query %s: %T, want a vector", q, v)
	}
	out := []promSeries{}
	for _, s := range vec {
		m := map[string]string{}
		for k, v := range s.Metric {
			m[string(k)] = string(v)
		}
		out = append(out, promSeries{
			Metric: m,
			Values: [][2]any{{float64(s.Timestamp) / 1e3, strconv.FormatFloat(float64(s.Value), 'g', -1, 64)}},
		})
	}
	return out
}

// tablePanels lists every table panel of the dashboards with its queries'
// results at one instant (the variables as sampleValues sets them), as
// Grafana asks them: every target of the panel at the same time.
func tablePanels(t *testing.T, p *harness.Prometheus, dashboards map[string]dashboard) []panelData {
	at := time.Now()
	var panels []panelData
	for _, name := range sortedKeys(dashboards) {
		d := dashboards[name]
		vals := sampleValues(d, "1m")
		for _, pn := range d.panels() {
			if pn["type"] != "table" {
				continue
			}
			results := map[string][]promSeries{}
			for _, tg := range pn["targets"].([]any) {
				tm := tg.(map[string]any)
				if tm["format"] != "table" || tm["instant"] != true {
					t.Errorf("%s %q / %v: a table column is an instant query in table format, got %v %v", name, pn["title"], tm["refId"], tm["format"], tm["instant"])
				}
				results[tm["refId"].(string)] = instant(t, p, substitute(tm["expr"].(string), vals), at)
			}
			panels = append(panels, panelData{
				Key:             fmt.Sprintf("%s %q", name, pn["title"]),
				Format:          "table",
				Transformations: pn["transformations"],
				Results:         results,
			})
		}
	}
	if len(panels) == 0 {
		t.Fatal("no table panel")
	}
	return panels
}

// columnNames maps a table's value fields ("Value #A") to the column names
// its organize step gives them.
func columnNames(t *testing.T, transformations any) map[string]string {
	for _, tr := range transformations.([]any) {
		tm := tr.(map[string]any)
		if tm["id"] != "organize" {
			continue
		}
		out := map[string]string{}
		for from, to := range tm["options"].(map[string]any)["renameByName"].(map[string]any) {
			out[from] = to.(string)
		}
		return out
	}
	t.Fatalf("no organize step renames the value columns: %v", transformations)
	return nil
}

// checkTablesJoin asserts that every table panel of the dashboards, its
// queries run on p and its transformations applied by Grafana's code, shows
// one row per label set (a service, a container) with each query's value in
// its column on that row, and no __name__ column. It returns how many cells
// it checked per panel and column (every column named), so a caller can
// require data.
func checkTablesJoin(t *testing.T, p *harness.Prometheus, dashboards map[string]dashboard) map[string]map[string]int {
	t.Helper()
	panels := tablePanels(t, p, dashboards)
	got := grafanaFrames(t, panels)
	checked := map[string]map[string]int{}
	for _, pd := range panels {
		frames := got[pd.Key]
		if len(frames) != 1 {
			t.Errorf("%s: %d frames after the transformations, want one table", pd.Key, len(frames))
			continue
		}
		f := frames[0]
		names := columnNames(t, pd.Transformations)
		checked[pd.Key] = map[string]int{}
		for _, n := range names {
			checked[pd.Key][n] = 0
		}
		values := map[string]bool{}
		for _, n := range names {
			values[n] = true
		}
		var labels []string // the table's label columns, in its order
		for _, fl := range f.Fields {
			if fl.Name == "__name__" || fl.Display == "__name__" {
				t.Errorf("%s: a __name__ column: each query's rows would stand apart", pd.Key)
			}
			if !values[fl.Display] && fl.Display != "__name__" {
				labels = append(labels, fl.Display)
			}
		}
		rowKey := func(get func(string) string) string {
			var b bytes.Buffer
			for _, l := range labels {
				fmt.Fprintf(&b, "%s=%q ", l, get(l))
			}
			return b.String()
		}
		rows := map[string]map[string]any{}
		for _, r := range f.Rows {
			k := rowKey(func(l string) string { s, _ := r[l].(string); return s })
			if _, dup := rows[k]; dup {
				t.Errorf("%s: two rows for %s", pd.Key, k)
			}
			rows[k] = r
		}
		want := map[string]bool{}
		for refID, series := range pd.Results {
			col := names["Value #"+refID]
			for _, s := range series {
				for l := range s.Metric {
					if l != "__name__" && !contains(labels, l) {
						t.Errorf("%s: no column for label %s of %s", pd.Key, l, col)
					}
				}
				k := rowKey(func(l string) string { return s.Metric[l] })
				want[k] = true
				r, ok := rows[k]
				if !ok {
					t.Errorf("%s: no row for %s (column %s)", pd.Key, k, col)
					continue
				}
				v, _ := strconv.ParseFloat(s.Values[0][1].(string), 64)
				if g, ok := r[col].(float64); !ok || g != v {
					t.Errorf("%s: row %s, column %s = %v, want %v", pd.Key, k, col, r[col], v)
				}
				checked[pd.Key][col]++
			}
		}
		if len(rows) != len(want) {
			t.Errorf("%s: %d rows, want one per label set: %d", pd.Key, len(rows), len(want))
		}
	}
	return checked
}

// Every table of the shipped dashboards, every query without series, gets
// one frame with its columns and no row: Grafana's table says "No data".
func TestTablesGetNoRowForNoSeries(t *testing.T) {
	plain, imported := shipped(t)
	var panels []panelData
	for flavour, set := range map[string]map[string]dashboard{"": plain, "dashboards-import/": imported} {
		for name, d := range set {
			for _, pn := range d.panels() {
				if pn["type"] != "table" {
					continue
				}
				results := map[string][]promSeries{}
				for _, tg := range pn["targets"].([]any) {
					results[tg.(map[string]any)["refId"].(string)] = []promSeries{}
				}
				panels = append(panels, panelData{Key: fmt.Sprintf("%s%s %q", flavour, name, pn["title"]), Format: "table", Transformations: pn["transformations"], Results: results})
			}
		}
	}
	if len(panels) != 4 {
		t.Fatalf("%d tables, want 2 in each flavour", len(panels))
	}
	got := grafanaFrames(t, panels)
	for _, pd := range panels {
		frames := got[pd.Key]
		if len(frames) != 1 || len(frames[0].Rows) != 0 {
			t.Errorf("%s: no series give %v, want one frame without rows", pd.Key, frames)
			continue
		}
		shown := map[string]bool{}
		for _, f := range frames[0].Fields {
			shown[f.Display] = true
		}
		for _, col := range columnNames(t, pd.Transformations) {
			if !shown[col] {
				t.Errorf("%s: no series give no column %s (columns %v)", pd.Key, col, frames[0].Fields)
			}
		}
	}
}

// Every heatmap of the shipped dashboards, given what Grafana's Prometheus
// datasource returns for a query without series (one frame without fields),
// reaches the panel with no frame: the heatmap says "No data" (with the
// empty frame and calculate: false it throws; panel.libsonnet,
// dropEmptyFrames, says where). A frame with data passes whole.
func TestHeatmapsGetNoFrameForNoSeries(t *testing.T) {
	plain, imported := shipped(t)
	var panels []panelData
	series := []promSeries{{Metric: map[string]string{"pod": "api-0", "container": "app"}, Values: [][2]any{{1.7e9, "0.5"}, {1.7e9 + 60, "0.25"}}}}
	for flavour, set := range map[string]map[string]dashboard{"": plain, "dashboards-import/": imported} {
		for name, d := range set {
			for _, pn := range d.panels() {
				if pn["type"] != "heatmap" {
					continue
				}
				key := fmt.Sprintf("%s%s %q", flavour, name, pn["title"])
				for _, results := range []map[string][]promSeries{{"A": {}}, {"A": series}} {
					panels = append(panels, panelData{Key: fmt.Sprintf("%s %d", key, len(results["A"])), Format: "time_series", Transformations: pn["transformations"], Results: results})
				}
			}
		}
	}
	if len(panels) < 2*6 {
		t.Fatalf("%d heatmap cases, want two for each of the 6 heatmaps of both flavours at least", len(panels))
	}
	got := grafanaFrames(t, panels)
	for _, pd := range panels {
		frames := got[pd.Key]
		switch n := len(pd.Results["A"]); {
		case n == 0 && len(frames) != 0:
			t.Errorf("%s: no series reach the heatmap as %d frames (%v), want none: Grafana's heatmap says \"No data\" only for none", pd.Key, len(frames), frames)
		case n > 0 && (len(frames) != 1 || len(frames[0].Fields) != 2 || len(frames[0].Rows) != 2):
			t.Errorf("%s: a series reaches the heatmap as %v, want its frame whole (Time and Value, 2 rows)", pd.Key, frames)
		}
	}
}

// legendRef is a label a legend format prints: {{label}}, as Grafana's
// Prometheus datasource reads it (an absent label prints as nothing).
var legendRef = regexp.MustCompile(`\{\{\s*(.+?)\s*\}\}`)

// checkLegends asserts that every legend of the dashboards' Prometheus
// queries prints only labels the series it names has: a legend such as
// "{{cluster}}/{{namespace}}/{{job}}" on a series without cluster and
// namespace reads "//api". The queries run on p once per service in
// services (multi-value variables at "All"). It returns how many series
// legends it checked.
func checkLegends(t *testing.T, p *harness.Prometheus, dashboards map[string]dashboard, services []string) int {
	t.Helper()
	checked := 0
	for _, name := range sortedKeys(dashboards) {
		d := dashboards[name]
		for _, svc := range services {
			vals := sampleValues(d, "1m")
			for k, v := range vals {
				if v == sampleService {
					vals[k] = svc
				}
			}
			for _, pn := range d.panels() {
				ts, _ := pn["targets"].([]any)
				for _, tg := range ts {
					tm := tg.(map[string]any)
					legend, _ := tm["legendFormat"].(string)
					refs := legendRef.FindAllStringSubmatch(legend, -1)
					if ds, _ := tm["datasource"].(map[string]any); ds["type"] != "prometheus" || len(refs) == 0 {
						continue
					}
					for _, s := range instant(t, p, substitute(tm["expr"].(string), vals), time.Now()) {
						checked++
						for _, r := range refs {
							if s.Metric[r[1]] == "" {
								t.Errorf("%s %q / %v (service %s): legend %q on a series without %s: %v", name, pn["title"], tm["refId"], svc, legend, r[1], s.Metric)
							}
						}
					}
				}
			}
		}
	}
	return checked
}
