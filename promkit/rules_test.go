package promkit

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// Every recording rule of the shipped pack lands in exactly one backfill
// pass, after every rule whose series it reads.
func TestLevelsOfTheRulePack(t *testing.T) {
	groups, err := ReadRules(filepath.Join(repoRoot(), "rules", "hotpath-rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	levels, err := Levels(groups)
	if err != nil {
		t.Fatal(err)
	}
	levelOf := map[string]int{}
	total := 0
	for i, level := range levels {
		for _, name := range RecordedNames(level) {
			if _, dup := levelOf[name]; dup {
				t.Errorf("%s in two passes", name)
			}
			levelOf[name] = i + 1
			total++
		}
	}
	if n := len(RecordedNames(groups)); total != n {
		t.Fatalf("%d rules in the passes, %d in the file", total, n)
	}
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record == "" {
				continue
			}
			for _, tok := range identifier.FindAllString(r.Expr, -1) {
				if l, ok := levelOf[tok]; ok && tok != r.Record && l >= levelOf[r.Record] {
					t.Errorf("%s (pass %d) reads %s (pass %d)", r.Record, levelOf[r.Record], tok, l)
				}
			}
		}
	}
	if len(levels) < 2 {
		t.Errorf("%d passes: the pack's rules read each other", len(levels))
	}
}

func minutes(n int) model.Duration { return model.Duration(time.Duration(n) * time.Minute) }

func TestLevelsKeepGroupsAndOrder(t *testing.T) {
	groups := []rulefmt.RuleGroup{
		{Name: "a", Interval: minutes(1), Rules: []rulefmt.Rule{{Record: "x:a:rate5m", Expr: "rate(a[5m])"}, {Record: "x:b:ratio", Expr: "x:a:rate5m / 2"}}},
		{Name: "b", Interval: minutes(5), Rules: []rulefmt.Rule{{Record: "x:c:max", Expr: "max_over_time(x:b:ratio[1d]) and x:a:rate5m"}, {Alert: "A", Expr: "x:c:max > 1"}}},
	}
	levels, err := Levels(groups)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a/1m:x:a:rate5m", "a/1m:x:b:ratio", "b/5m:x:c:max"}
	if len(levels) != 3 {
		t.Fatalf("%d levels, want 3", len(levels))
	}
	for i, level := range levels {
		g := level[0]
		if got := g.Name + "/" + g.Interval.String() + ":" + g.Rules[0].Record; len(level) != 1 || len(g.Rules) != 1 || got != want[i] {
			t.Errorf("level %d: %+v, want %s", i+1, level, want[i])
		}
	}
	if len(groups[1].Rules) != 2 {
		t.Error("Levels changed the groups it was given")
	}
	cyc := []rulefmt.RuleGroup{{Name: "c", Rules: []rulefmt.Rule{{Record: "a:b:c", Expr: "d:e:f"}, {Record: "d:e:f", Expr: "a:b:c"}}}}
	if _, err := Levels(cyc); err == nil {
		t.Error("a cycle was accepted")
	}
}

// A rule file written by WriteRules reads back the same, and a bad one is
// refused in Prometheus's words.
func TestWriteRulesRoundTrip(t *testing.T) {
	groups, err := ReadRules(filepath.Join(repoRoot(), "rules", "hotpath-alerts.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "copy.yaml")
	if err := WriteRules(path, groups); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRules(path)
	if err != nil {
		t.Fatal(err)
	}
	if diffs, fc := DiffExceptFor(groups, back); len(diffs) != 0 || len(fc) != 0 || len(AlertNames(back)) == 0 {
		t.Errorf("round trip: diffs %v, for changes %v, alerts %v", diffs, fc, AlertNames(back))
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := WriteRules(bad, []rulefmt.RuleGroup{{Name: "g", Rules: []rulefmt.Rule{{Record: "a:b:c", Expr: "sum by (job) ("}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRules(bad); err == nil {
		t.Error("a rule with a broken expression was read")
	}
}

func TestDiffExceptForSeesEverythingElse(t *testing.T) {
	base := func() []rulefmt.RuleGroup {
		return []rulefmt.RuleGroup{{Name: "g", Interval: minutes(1), Rules: []rulefmt.Rule{
			{Alert: "A", Expr: "x > 1", For: minutes(15), Labels: map[string]string{"severity": "warning"}, Annotations: map[string]string{"summary": "s"}},
		}}}
	}
	short := base()
	short[0].Rules[0].For = minutes(2)
	if diffs, fc := DiffExceptFor(base(), short); len(diffs) != 0 || len(fc) != 1 || fc[0] != "A: for 15m -> 2m" {
		t.Errorf("for only: diffs %v, for changes %v", diffs, fc)
	}
	for name, change := range map[string]func([]rulefmt.RuleGroup){
		"expr":            func(g []rulefmt.RuleGroup) { g[0].Rules[0].Expr = "x > 2" },
		"label":           func(g []rulefmt.RuleGroup) { g[0].Rules[0].Labels["severity"] = "critical" },
		"annotation":      func(g []rulefmt.RuleGroup) { g[0].Rules[0].Annotations["summary"] = "t" },
		"interval":        func(g []rulefmt.RuleGroup) { g[0].Interval = minutes(5) },
		"keep_firing_for": func(g []rulefmt.RuleGroup) { g[0].Rules[0].KeepFiringFor = minutes(10) },
		"rule count":      func(g []rulefmt.RuleGroup) { g[0].Rules = append(g[0].Rules, rulefmt.Rule{Record: "a:b:c", Expr: "1"}) },
	} {
		o := base()
		change(o)
		if diffs, _ := DiffExceptFor(base(), o); len(diffs) == 0 {
			t.Errorf("a changed %s went unnoticed", name)
		}
	}
}

// A recorded expression whose `or` keeps its name on one side and drops it
// on the other returns, through DropName, series without a name only; the
// values as they were.
func TestDropName(t *testing.T) {
	expr := DropName("last_over_time(x[5m]) or (y + 1)")
	if _, err := parser.ParseExpr(expr); err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	if !strings.HasPrefix(expr, "label_replace(") || !strings.Contains(expr, `"__name__", "", "", ""`) {
		t.Errorf("DropName = %q, want label_replace(expr, \"__name__\", \"\", \"\", \"\")", expr)
	}
	groups := []rulefmt.RuleGroup{{Name: "g", Rules: []rulefmt.Rule{{Record: "r", Expr: "x"}, {Alert: "A", Expr: "x > 1"}}}}
	got := withoutNames(groups)
	if got[0].Rules[0].Expr != DropName("x") || got[0].Rules[1].Expr != "x > 1" || groups[0].Rules[0].Expr != "x" {
		t.Errorf("withoutNames: %+v (input now %+v): want the recording rule's expression wrapped, the alert's and the input as they were", got, groups)
	}
}
