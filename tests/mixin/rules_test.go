// Package mixin tests the mixin under overlays, the way users change it: the
// rule part renders overlays of tests/mixin/testdata, parses every expression
// with Prometheus's own parser and walks it for label names. (A dashboards
// part may sit next to it.)
package mixin

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// The labels an overlay can rename; with every one renamed none may remain.
var defaultLabels = []string{"job", "instance", "cluster", "namespace", "pod", "container"}

type rule = rulefmt.Rule

func ruleName(r rule) string { return r.Record + r.Alert }

// use is one label name found in a rule, and where.
type use struct{ label, where string }

// renderRules renders a testdata entry, checks its rule files with promtool
// and returns their rules.
func renderRules(t *testing.T, entry string) []rule {
	t.Helper()
	files := harness.RuleFiles(harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "mixin", "testdata", entry)))
	if b, err := exec.Command(harness.Tool(t, "promtool"), append([]string{"check", "rules"}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules (%s): %v\n%s", entry, err, b)
	}
	var rules []rule
	for _, g := range harness.ParseRules(t, files) {
		rules = append(rules, g.Rules...)
	}
	if len(rules) < 40 {
		t.Fatalf("%s: only %d rules rendered", entry, len(rules))
	}
	return rules
}

// labelUses lists every label name an expression names: in matchers, by and
// without, on and ignoring, group_left and group_right, and the label
// arguments of label_replace and label_join.
func labelUses(t *testing.T, r rule) []use {
	t.Helper()
	expr, err := parser.ParseExpr(r.Expr)
	if err != nil {
		t.Fatalf("%s: %v\n%s", ruleName(r), err, r.Expr)
	}
	var uses []use
	add := func(where string, labels ...string) {
		for _, l := range labels {
			uses = append(uses, use{l, ruleName(r) + ": " + where})
		}
	}
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		switch n := node.(type) {
		case *parser.VectorSelector:
			for _, m := range n.LabelMatchers {
				if m.Name != "__name__" {
					add("matcher "+m.String(), m.Name)
				}
			}
		case *parser.AggregateExpr:
			add("grouping of "+n.Op.String(), n.Grouping...)
		case *parser.BinaryExpr:
			if vm := n.VectorMatching; vm != nil {
				add("on/ignoring of "+n.Op.String(), vm.MatchingLabels...)
				add("group_x of "+n.Op.String(), vm.Include...)
			}
		case *parser.Call:
			var args []int
			switch n.Func.Name {
			case "label_replace":
				args = []int{1, 3} // dst, src
			case "label_join":
				args = []int{1}
				for i := 3; i < len(n.Args); i++ {
					args = append(args, i)
				}
			}
			for _, i := range args {
				s, ok := n.Args[i].(*parser.StringLiteral)
				if !ok {
					t.Fatalf("%s: %s argument %d is not a string literal", ruleName(r), n.Func.Name, i)
				}
				add(n.Func.Name+" argument", s.Val)
			}
		}
		return nil
	})
	return uses
}

var templateLabel = regexp.MustCompile(`\$labels\.(\w+)`)

// annotationUses lists the labels the annotations' templates expand, and the
// dashboard variables dashboard_url fills (var-<label>=).
func annotationUses(r rule) []use {
	var uses []use
	for k, v := range r.Annotations {
		for _, m := range templateLabel.FindAllStringSubmatch(v, -1) {
			uses = append(uses, use{m[1], ruleName(r) + ": annotation " + k})
		}
		for _, m := range regexp.MustCompile(`var-(\w*)=`).FindAllStringSubmatch(v, -1) {
			uses = append(uses, use{m[1], ruleName(r) + ": dashboard variable in " + k})
		}
	}
	return uses
}

func allUses(t *testing.T, rules []rule) []use {
	var uses []use
	for _, r := range rules {
		uses = append(uses, labelUses(t, r)...)
		uses = append(uses, annotationUses(r)...)
		for k := range r.Labels {
			uses = append(uses, use{k, ruleName(r) + ": alert label"})
		}
	}
	return uses
}

func TestRenamedLabelsLeaveNoDefault(t *testing.T) {
	uses := allUses(t, renderRules(t, "renamed.jsonnet"))
	seen := map[string]bool{}
	for _, u := range uses {
		seen[u.label] = true
		if slices.Contains(defaultLabels, u.label) {
			t.Errorf("%s: default label %q in the overlay", u.where, u.label)
		}
	}
	// The renamed labels are there: the walk above saw the rules' labels.
	for _, want := range []string{"service", "target", "k8s_cluster", "k8s_namespace", "k8s_pod", "k8s_container"} {
		if !seen[want] {
			t.Errorf("renamed label %q never used", want)
		}
	}
}

func TestShippedRulesUseTheDefaults(t *testing.T) {
	// The same walk on the shipped rules finds the defaults: the test above
	// fails when a knob is ignored, not only when the walk misses a place.
	rules := renderRules(t, "shipped.jsonnet")
	seen := map[string]bool{}
	for _, u := range allUses(t, rules) {
		seen[u.label] = true
	}
	for _, want := range defaultLabels {
		if !seen[want] {
			t.Errorf("default label %q never used by the shipped rules", want)
		}
	}
}

func TestNoClusterLabel(t *testing.T) {
	for entry, absent := range map[string][]string{
		"no-cluster.jsonnet": {"cluster"},
		"no-scope.jsonnet":   {"cluster", "namespace"},
	} {
		t.Run(entry, func(t *testing.T) {
			for _, u := range allUses(t, renderRules(t, entry)) {
				if strings.TrimSpace(u.label) == "" {
					t.Errorf("%s: an empty label name", u.where)
				}
				if slices.Contains(absent, u.label) {
					t.Errorf("%s: %q, configured away", u.where, u.label)
				}
			}
		})
	}
}
