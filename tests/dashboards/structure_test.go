package dashboards

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

func TestShippedDashboards(t *testing.T) {
	plain, imported := shipped(t)
	if got, want := sortedKeys(plain), sortedKeys(imported); !reflect.DeepEqual(got, want) || len(got) != len(wantUIDs) {
		t.Fatalf("dashboards/ has %v, dashboards-import/ has %v; want %d each", got, want, len(wantUIDs))
	}
	for name, d := range plain {
		t.Run(name, func(t *testing.T) { checkStructure(t, wantUIDs[name], d) })
	}
	for name, d := range imported {
		t.Run("dashboards-import/"+name, func(t *testing.T) { checkStructure(t, wantUIDs[name], d) })
	}
}

// dashboards/ is what a file provider, the sidecar or Git Sync loads: they
// read a folder recursively, and a uid met twice makes Grafana's provider
// refuse to write any of them ("the same UID is used more than once"). So
// the folder, subfolders included, holds each dashboard exactly once and
// nothing else; the UI-import copies live in dashboards-import/.
func TestDashboardsFolderProvisionsOnce(t *testing.T) {
	root := filepath.Join(harness.RepoRoot(), "dashboards")
	uids := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var d struct{ UID string }
		if filepath.Ext(path) != ".json" || json.Unmarshal(b, &d) != nil || d.UID == "" {
			t.Errorf("dashboards/%s is not a dashboard; the folder holds only what a provider loads", rel)
			return nil
		}
		uids[d.UID] = append(uids[d.UID], rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for uid, files := range uids {
		if len(files) > 1 {
			t.Errorf("uid %s is in dashboards/ %d times (%v): a provider would refuse them", uid, len(files), files)
		}
	}
	want := map[string][]string{}
	for name, uid := range wantUIDs {
		want[uid] = []string{name}
	}
	if !reflect.DeepEqual(uids, want) {
		t.Errorf("dashboards/ provisions %v, want %v", uids, want)
	}
}

// checkStructure is what every dashboard, shipped or overlaid, must satisfy.
func checkStructure(t *testing.T, uid string, d dashboard) {
	if want := uid; d["uid"] != want {
		t.Errorf("uid %v, want %s", d["uid"], want)
	}
	for _, k := range []string{"uid", "title", "description"} {
		if s, _ := d[k].(string); s == "" {
			t.Errorf("no %s", k)
		}
	}
	if tags, _ := d["tags"].([]any); len(tags) == 0 {
		t.Error("no tags")
	}
	if v, _ := d["schemaVersion"].(float64); v < 36 {
		t.Errorf("schemaVersion %v, want >= 36 (datasource references by uid)", d["schemaVersion"])
	}
	checkLayout(t, d)
	checkPanels(t, d)
	checkDatasources(t, d)
	checkVariableRefs(t, d)
}

type rect struct{ x, y, w, h int }

func (a rect) overlaps(b rect) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// Unique ids, a gridPos for every panel inside the 24-column grid, and no
// two panels on the same cells.
func checkLayout(t *testing.T, d dashboard) {
	ids := map[float64]string{}
	var placed []rect
	var titles []string
	for _, p := range d.panels() {
		title, _ := p["title"].(string)
		id, ok := p["id"].(float64)
		if !ok {
			t.Errorf("panel %q has no id", title)
		} else if other, dup := ids[id]; dup {
			t.Errorf("panels %q and %q share id %v", other, title, id)
		}
		ids[id] = title
		g, ok := p["gridPos"].(map[string]any)
		if !ok {
			t.Errorf("panel %q has no gridPos", title)
			continue
		}
		r := rect{int(g["x"].(float64)), int(g["y"].(float64)), int(g["w"].(float64)), int(g["h"].(float64))}
		if r.w <= 0 || r.h <= 0 || r.x < 0 || r.x+r.w > 24 {
			t.Errorf("panel %q: gridPos %+v outside the 24-column grid", title, r)
		}
		for i, o := range placed {
			if r.overlaps(o) {
				t.Errorf("panels %q %+v and %q %+v overlap", titles[i], o, title, r)
			}
		}
		placed, titles = append(placed, r), append(titles, title)
	}
}

// Every panel but a row says how to read it and what unit it shows; a table
// gives each value column a unit.
func checkPanels(t *testing.T, d dashboard) {
	for _, p := range d.panels() {
		if p["type"] == "row" {
			continue
		}
		title, _ := p["title"].(string)
		if desc, _ := p["description"].(string); len(desc) < 40 {
			t.Errorf("panel %q: description %q does not say how to read it", title, desc)
		}
		fc, _ := p["fieldConfig"].(map[string]any)
		defaults, _ := fc["defaults"].(map[string]any)
		if u, _ := defaults["unit"].(string); u == "" {
			t.Errorf("panel %q has no unit", title)
		}
		if ts, _ := p["targets"].([]any); len(ts) == 0 {
			t.Errorf("panel %q has no query", title)
		}
		switch p["type"] {
		case "table":
			checkTableUnits(t, title, p)
			checkTableJoins(t, title, p)
		case "heatmap":
			checkHeatmapNoData(t, title, p)
		}
	}
}

// transformation returns the i-th transformation of a panel (nil if none).
func transformation(p map[string]any, i int) map[string]any {
	trs, _ := p["transformations"].([]any)
	if i >= len(trs) {
		return nil
	}
	m, _ := trs[i].(map[string]any)
	return m
}

// A heatmap says "No data" for a query without series: its first
// transformation drops frames without fields (Grafana's Prometheus
// datasource returns one for no series, and the heatmap with calculate:
// false throws "Cannot read properties of undefined (reading 'config')" on
// it). A filter that keeps every field and drops a frame left with none:
// filterFieldsByName including the pattern ".*".
func checkHeatmapNoData(t *testing.T, title string, p map[string]any) {
	tr := transformation(p, 0)
	opts, _ := tr["options"].(map[string]any)
	include, _ := opts["include"].(map[string]any)
	if tr["id"] != "filterFieldsByName" || include["pattern"] != ".*" || len(include) != 1 || len(opts) != 1 {
		t.Errorf("heatmap %q: first transformation %v, want filterFieldsByName including every field (pattern .*): without it an empty result shows a TypeError", title, tr)
	}
}

// A table drops the __name__ column of every query before merging them: a
// plain selector keeps its series' name, and the merge joins rows only where
// every column they share is equal.
func checkTableJoins(t *testing.T, title string, p map[string]any) {
	for i := 0; ; i++ {
		tr := transformation(p, i)
		if tr == nil || tr["id"] == "merge" {
			t.Errorf("table %q: no transformation drops __name__ before the merge", title)
			return
		}
		opts, _ := tr["options"].(map[string]any)
		exclude, _ := opts["exclude"].(map[string]any)
		if names, _ := exclude["names"].([]any); tr["id"] == "filterFieldsByName" && slices.Contains(names, any("__name__")) {
			return
		}
	}
}

func checkTableUnits(t *testing.T, title string, p map[string]any) {
	units := map[string]bool{}
	for _, o := range p["fieldConfig"].(map[string]any)["overrides"].([]any) {
		om := o.(map[string]any)
		name, _ := om["matcher"].(map[string]any)["options"].(string)
		for _, pr := range om["properties"].([]any) {
			if pr.(map[string]any)["id"] == "unit" {
				units[name] = true
			}
		}
	}
	for _, tr := range p["transformations"].([]any) {
		tm := tr.(map[string]any)
		if tm["id"] != "organize" {
			continue
		}
		renames, _ := tm["options"].(map[string]any)["renameByName"].(map[string]any)
		for _, col := range renames {
			if !units[col.(string)] {
				t.Errorf("table %q: column %q has no unit", title, col)
			}
		}
	}
}

var datasourceVar = regexp.MustCompile(`^\$\{(\w+)\}$`)

// Every datasource reference is a datasource variable of the matching type
// (or Grafana's built-in Mixed); no uid is written into a dashboard.
func checkDatasources(t *testing.T, d dashboard) {
	dsVars := map[string]string{}
	for _, v := range d.variables() {
		if v["type"] == "datasource" {
			dsVars[v["name"].(string)] = v["query"].(string)
		}
	}
	for _, want := range []string{"prometheus", "grafana-pyroscope-datasource"} {
		found := false
		for _, typ := range dsVars {
			found = found || typ == want
		}
		if !found {
			t.Errorf("no datasource variable of type %s", want)
		}
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "datasource" {
					checkDatasourceRef(t, path+"."+k, c, dsVars)
					continue
				}
				walk(c, path+"."+k)
			}
		case []any:
			for _, c := range x {
				walk(c, path+"[]")
			}
		}
	}
	walk(map[string]any(d), "")
}

func checkDatasourceRef(t *testing.T, path string, ref any, dsVars map[string]string) {
	m, ok := ref.(map[string]any)
	if !ok {
		t.Errorf("%s: datasource %v is not a {type, uid} reference", path, ref)
		return
	}
	uid, _ := m["uid"].(string)
	if m["type"] == "datasource" && uid == "-- Mixed --" {
		return
	}
	v := datasourceVar.FindStringSubmatch(uid)
	if v == nil {
		t.Errorf("%s: hard-coded datasource uid %q", path, uid)
		return
	}
	if typ, ok := dsVars[v[1]]; !ok || typ != m["type"] {
		t.Errorf("%s: %s is not a datasource variable of type %v", path, uid, m["type"])
	}
}

// Grafana's own variables ($__rate_interval, ${__data.fields...}), and
// label_replace's $1.
var builtinVar, replacementRef = regexp.MustCompile(`^__`), regexp.MustCompile(`^\d+$`)

// Every $variable a dashboard uses is one of its variables.
func checkVariableRefs(t *testing.T, d dashboard) {
	defined := map[string]bool{}
	for _, v := range d.variables() {
		defined[v["name"].(string)] = true
	}
	imported := map[string]bool{}
	if ins, ok := d["__inputs"].([]any); ok {
		for _, in := range ins {
			imported[in.(map[string]any)["name"].(string)] = true
		}
	}
	eachString(map[string]any(d), "", func(path, s string) {
		for _, m := range varRef.FindAllStringSubmatch(s, -1) {
			n := refName(m)
			if defined[n] || imported[n] || builtinVar.MatchString(n) || replacementRef.MatchString(n) {
				continue
			}
			t.Errorf("%s: $%s is not a variable of this dashboard", path, n)
		}
	})
}

// The import flavour is the plain one plus __inputs/__requires, with the
// placeholders only in the datasource variables: so the two cannot drift,
// and the import dialog asks for every datasource a panel queries.
func TestImportFlavour(t *testing.T) {
	plain, imported := shipped(t)
	for name, imp := range imported {
		t.Run(name, func(t *testing.T) {
			inputs := map[string]string{} // name -> plugin id
			for _, in := range imp["__inputs"].([]any) {
				m := in.(map[string]any)
				if m["type"] != "datasource" {
					t.Errorf("input %v is not a datasource", m["name"])
				}
				inputs[m["name"].(string)] = m["pluginId"].(string)
			}
			queried := map[string]bool{}
			for _, p := range imp.panels() {
				ts, _ := p["targets"].([]any)
				for _, tg := range ts {
					queried[tg.(map[string]any)["datasource"].(map[string]any)["type"].(string)] = true
				}
			}
			asked := map[string]bool{}
			for _, plugin := range inputs {
				asked[plugin] = true
			}
			if !reflect.DeepEqual(asked, queried) {
				t.Errorf("the import dialog asks for %v, the panels query %v", sortedKeys(asked), sortedKeys(queried))
			}
			checkRequires(t, imp)

			// Undo the import additions: what is left must be the plain flavour.
			undone := map[string]any{}
			for k, v := range imp {
				if k != "__inputs" && k != "__requires" {
					undone[k] = v
				}
			}
			b, _ := json.Marshal(undone)
			var copyOf dashboard
			_ = json.Unmarshal(b, &copyOf)
			for _, v := range copyOf.variables() {
				cur, _ := v["current"].(map[string]any)
				val, _ := cur["value"].(string)
				if m := datasourceVar.FindStringSubmatch(val); m != nil {
					if inputs[m[1]] != v["query"] {
						t.Errorf("variable %v defaults to %s, an input of another type", v["name"], val)
					}
					v["current"] = map[string]any{}
				}
			}
			if !reflect.DeepEqual(map[string]any(copyOf), map[string]any(plain[name])) {
				t.Error("differs from dashboards/" + name + " by more than __inputs, __requires and the datasource defaults")
			}
		})
	}
}

func checkRequires(t *testing.T, d dashboard) {
	required := map[string]bool{}
	for _, r := range d["__requires"].([]any) {
		m := r.(map[string]any)
		required[m["type"].(string)+"/"+m["id"].(string)] = true
	}
	for _, p := range d.panels() {
		if p["type"] != "row" && !required["panel/"+p["type"].(string)] {
			t.Errorf("__requires lacks panel %v", p["type"])
		}
	}
	if !required["grafana/grafana"] {
		t.Error("__requires lacks grafana")
	}
}

// The service dashboard's "Where in the code?" row holds the overlay panel,
// wired to CPU per request, the anomaly alerts and a Pyroscope profile query;
// Grafana's own flame graph, fed by the same profile query, waits in a
// collapsed row after it (a collapsed row runs no query, so a cluster without
// Pyroscope shows no error there).
func TestServiceDashboardWhereInTheCode(t *testing.T) {
	plain, _ := shipped(t)
	d := plain["hotpath-service.json"]
	var overlay, flame map[string]any
	for _, p := range d.panels() {
		switch p["type"] {
		case "hotpath-overlay-panel":
			overlay = p
		case "flamegraph":
			if flame == nil {
				flame = p
			}
		}
	}
	if overlay == nil || flame == nil {
		t.Fatalf("the dashboard lacks the overlay panel (%v) or a flame graph (%v)", overlay != nil, flame != nil)
	}
	top := d["panels"].([]any)
	last := top[len(top)-1].(map[string]any)
	if last["type"] != "row" || last["collapsed"] != true || !slices.ContainsFunc(last["panels"].([]any), func(p any) bool { return p.(map[string]any)["type"] == "flamegraph" }) {
		t.Errorf("the last row is not a collapsed row holding Grafana's flame graphs: %v %v", last["type"], last["title"])
	}
	targets := map[string]map[string]any{}
	for _, tg := range overlay["targets"].([]any) {
		m := tg.(map[string]any)
		targets[m["refId"].(string)] = m
	}
	// The option shape of plugin/src/constants (HotpathOptions): profileRefId,
	// seriesRefIds (the strip's series), anomalyRefId, baselineMode.
	opts := overlay["options"].(map[string]any)
	an, pr := targets[opts["anomalyRefId"].(string)], targets[opts["profileRefId"].(string)]
	if an == nil || pr == nil {
		t.Fatalf("options %v name refIds the panel lacks (%v)", opts, sortedKeys(map[string]bool{"anomaly": an != nil, "profile": pr != nil}))
	}
	if _, old := opts["timeSeriesRefId"]; old {
		t.Error("options keep the placeholder timeSeriesRefId (the plugin reads seriesRefIds)")
	}
	if m := opts["baselineMode"]; m != "auto" && m != "day" && m != "week" && m != "manual" && m != "siblings" {
		t.Errorf("baselineMode %v is not a mode the plugin knows", m)
	}
	refs, _ := opts["seriesRefIds"].([]any)
	var strip []string
	for _, r := range refs {
		ts := targets[r.(string)]
		if ts == nil {
			t.Fatalf("seriesRefIds %v names a refId the panel lacks", refs)
		}
		strip = append(strip, strings.SplitN(ts["expr"].(string), "{", 2)[0])
	}
	// CPU per request, request rate and CPU from the rule pack, on the strip
	if want := []string{"job:cpu_seconds_per_request:ratio_rate5m", "job:requests:rate5m", "job:cpu_seconds:rate5m"}; !reflect.DeepEqual(strip, want) {
		t.Errorf("the strip draws %v, want %v", strip, want)
	}
	// Windows' request counts from the job's rate, the siblings baseline's from one rate per
	// instance (plugin/src/options.ts requestsRefId, instanceRequestsRefId); the per-instance
	// series are not drawn.
	for opt, metric := range map[string]string{"requestsRefId": "job:requests:rate5m{", "instanceRequestsRefId": "instance:requests:rate5m{"} {
		ref, _ := opts[opt].(string)
		if ts := targets[ref]; ts == nil || !strings.HasPrefix(ts["expr"].(string), metric) || !strings.Contains(ts["expr"].(string), `job="$job"`) {
			t.Errorf("option %s = %q: want the refId of %s job=\"$job\"}, the panel has %v", opt, ref, metric, ts)
		}
		if opt == "instanceRequestsRefId" && slices.Contains(refs, any(ref)) {
			t.Errorf("the strip draws the per-instance request rates (%s)", ref)
		}
	}
	if ts := targets["A"]; ts == nil || !strings.HasPrefix(ts["expr"].(string), "job:cpu_seconds_per_request:ratio_rate5m{") {
		t.Errorf("refId A is not CPU per request: %v", ts)
	}
	// The anomalies are the alerts that carry the service label (the catalogue's); the
	// container alerts have none to select by.
	if want := `alertname=~"` + strings.Join(serviceAlertNames(t), "|") + `"`; !strings.Contains(an["expr"].(string), want) ||
		!strings.Contains(an["expr"].(string), `job="$job"`) {
		t.Errorf("anomaly query: %v, want %s and job=\"$job\"", an["expr"], want)
	}
	wantProfile := map[string]any{
		"datasource":    map[string]any{"type": "grafana-pyroscope-datasource", "uid": "${profiles}"},
		"queryType":     "profile",
		"profileTypeId": "process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		"labelSelector": `{service_name="$job"}`,
		"groupBy":       []any{},
	}
	for k, v := range wantProfile {
		if !reflect.DeepEqual(pr[k], v) {
			t.Errorf("profile query %s = %v, want %v", k, pr[k], v)
		}
	}
	fq := flame["targets"].([]any)[0].(map[string]any)
	for k := range wantProfile {
		if !reflect.DeepEqual(fq[k], pr[k]) {
			t.Errorf("the flame graph's query differs from the overlay's in %s: %v vs %v", k, fq[k], pr[k])
		}
	}
}

// The alert names the dashboards show (annotations, counts) and the catalogue
// lists are exactly the alerts the rule pack defines.
func TestAlertNamesMatchRulePack(t *testing.T) {
	_, alerts := rulePack()
	defined := promkit.AlertNames(harness.ParseRules(t, []string{alerts}))
	if len(defined) == 0 {
		t.Skip("rules/hotpath-alerts.yaml defines no alert yet")
	}
	if listed := catalogueAlertNames(t); !reflect.DeepEqual(listed, defined) {
		t.Errorf("catalogue/catalogue.json lists %v; the rule pack defines %v", listed, defined)
	}
	plain, _ := shipped(t)
	re := regexp.MustCompile(`alertname=~"([^"]+)"`)
	for name, d := range plain {
		for _, q := range d.queries(t) {
			m := re.FindStringSubmatch(q.expr)
			if m == nil || !strings.HasPrefix(q.where, "annotation") || strings.Contains(q.where, "CFS") {
				continue
			}
			shown := strings.Split(m[1], "|")
			sort.Strings(shown)
			if !reflect.DeepEqual(shown, defined) {
				t.Errorf("%s %s shows %v; the rule pack defines %v", name, q.where, shown, defined)
			}
		}
	}
}

// A share whose series are all zero (a service with no fixed cost, no
// throttled container) reads 0-100%, not 0-10000%: Grafana pads an all-zero
// range to 0-100 of the raw unit, so the share panels reach at least 1.
func TestShareAxesReachOne(t *testing.T) {
	want := map[string][]string{
		"hotpath-service.json":    {"Does CPU track load?"},
		"hotpath-throttling.json": {"CPU usage as a share of the limit: top 10 throttled"},
	}
	plain, _ := shipped(t)
	for file, titles := range want {
		for _, title := range titles {
			var p map[string]any
			for _, q := range plain[file].panels() {
				if q["title"] == title {
					p = q
				}
			}
			if p == nil {
				t.Errorf("%s: no panel %q", file, title)
				continue
			}
			defaults := p["fieldConfig"].(map[string]any)["defaults"].(map[string]any)
			custom, _ := defaults["custom"].(map[string]any)
			if defaults["unit"] != "percentunit" || defaults["min"] != 0.0 || custom["axisSoftMax"] != 1.0 {
				t.Errorf("%s %q: unit %v, min %v, axisSoftMax %v; want percentunit, 0, 1", file, title, defaults["unit"], defaults["min"], custom["axisSoftMax"])
			}
		}
	}
}
