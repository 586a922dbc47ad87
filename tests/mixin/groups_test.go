package mixin

import (
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// Rule groups stay small (at most 20 rules, so one slow rule delays few
// others and Mimir's per-group limits are far), and every expression parses
// without Prometheus's experimental functions: what Thanos Ruler and the Mimir
// ruler run too.
func TestGroupsAreSmallAndStable(t *testing.T) {
	for _, g := range harness.ShippedRules(t) {
		if len(g.Rules) > 20 {
			t.Errorf("%s: %d rules, more than 20", g.Name, len(g.Rules))
		}
		for _, r := range g.Rules {
			p := parser.NewParser(r.Expr) // experimental functions off, as on a stock ruler
			if _, err := p.ParseExpr(); err != nil {
				t.Errorf("%s/%s: %v", g.Name, r.Record+r.Alert, err)
			}
			p.Close()
		}
	}
	if parser.EnableExperimentalFunctions {
		t.Fatal("experimental PromQL functions are enabled in this process")
	}
}
