package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

// Every recording rule of the shipped pack has a promql_expr_test that names
// it, and every alert has both a firing case and a case that must stay silent.
func TestSuitesCoverEveryRule(t *testing.T) {
	shipped := harness.ShippedRules(t)
	records, alerts := promkit.RecordedNames(shipped), promkit.AlertNames(shipped)
	named := map[string]bool{}
	firing, silent := map[string]bool{}, map[string]bool{}
	word := regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	for _, s := range suites() {
		for _, g := range s.groups {
			for _, e := range g.exprs {
				for _, w := range word.FindAllString(e.expr, -1) {
					named[w] = true
				}
			}
			for _, a := range g.alerts {
				if len(a.firing) > 0 {
					firing[a.name] = true
				} else {
					silent[a.name] = true
				}
			}
		}
	}
	for _, r := range records {
		if !named[r] {
			t.Errorf("recording rule %s: no promql_expr_test names it", r)
		}
	}
	for _, a := range alerts {
		if !firing[a] || !silent[a] {
			t.Errorf("alert %s: firing case %v, silent case %v", a, firing[a], silent[a])
		}
	}
	if want := len(harness.CatalogueAlerts(t)); len(records) < 40 || len(alerts) != want {
		t.Errorf("read %d records and %d alerts (the catalogue lists %d): %s", len(records), len(alerts), want, strings.Join(alerts, ", "))
	}
}
