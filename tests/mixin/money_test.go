package mixin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// moneyView is what a rendered pack shows of money: the service dashboard's
// money panels and their unit, the fleet table's money columns, the cost
// rules, and the catalogue's prices.
type moneyView struct {
	panels  map[string]string // title -> unit
	columns []string
	records []string
	prices  map[string]any
}

func renderMoney(t *testing.T, config string) moneyView {
	t.Helper()
	entry := filepath.Join(t.TempDir(), "overlay.jsonnet")
	// the rendered pack and, as generate.jsonnet writes it, the catalogue
	src := "local m = (import 'mixin.libsonnet') + { _config+:: { " + config + " } };\n" +
		"(import 'lib/render.libsonnet')(m) + { 'catalogue/catalogue.json': std.manifestJson((import 'catalogue.libsonnet').render(m._config)) }\n"
	if err := os.WriteFile(entry, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := harness.Render(t, entry)
	read := func(rel string, v any) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
	type panel struct {
		Title       string
		FieldConfig struct {
			Defaults  struct{ Unit string }
			Overrides []struct {
				Matcher    struct{ Options any }
				Properties []struct {
					ID    string
					Value any
				}
			}
		}
	}
	var service, overview struct{ Panels []panel }
	read("dashboards/hotpath-service.json", &service)
	read("dashboards/hotpath-overview.json", &overview)
	v := moneyView{panels: map[string]string{}}
	for _, p := range service.Panels {
		if strings.Contains(p.Title, "ost") { // "Cost ...", "CPU cost ...", "What does it cost?"
			v.panels[p.Title] = p.FieldConfig.Defaults.Unit
		}
	}
	for _, p := range overview.Panels {
		for _, o := range p.FieldConfig.Overrides {
			if name, ok := o.Matcher.Options.(string); ok && strings.Contains(name, "cost") {
				v.columns = append(v.columns, name+" "+o.Properties[0].Value.(string))
			}
		}
	}
	for _, g := range harness.ParseRules(t, harness.RuleFiles(dir)) {
		for _, r := range g.Rules {
			if strings.Contains(r.Record, "cost") || strings.Contains(r.Record, "memory") {
				v.records = append(v.records, r.Record)
			}
		}
	}
	var c struct{ Money map[string]any }
	read("catalogue/catalogue.json", &c)
	v.prices = c.Money
	return v
}

// Money follows its knobs everywhere: the shipped prices show CPU and memory
// cost in USD; another currency changes every unit; a GiB-hour of 0 drops
// memory only; a core-hour of 0 drops money from rules, dashboards and the
// catalogue (so from messages), and leaves the rest as it was.
func TestMoneyFollowsItsKnobs(t *testing.T) {
	harness.Tool(t, "jsonnet")
	shipped := renderMoney(t, "")
	want := map[string]string{"What does it cost?": "", "Cost a month at the current rate": "currencyUSD", "CPU cost per million requests": "currencyUSD"}
	if !equalMaps(shipped.panels, want) {
		t.Errorf("shipped: service panels %v, want %v", shipped.panels, want)
	}
	if got := strings.Join(shipped.columns, ", "); got != "CPU cost/month currencyUSD, CPU cost/1M req currencyUSD" {
		t.Errorf("shipped: fleet columns %q", got)
	}
	if got := strings.Join(shipped.records, " "); got != "job:cpu_cost_per_month:rate5m job:cpu_cost_per_million_requests:ratio_rate5m job:memory_bytes:sum job:memory_cost_per_month:sum" {
		t.Errorf("shipped: cost rules %q", got)
	}
	if shipped.prices["perCoreHour"] != 0.04048 || shipped.prices["currency"] != "USD" || shipped.prices["hoursPerMonth"] != 730.0 {
		t.Errorf("shipped: catalogue prices %v", shipped.prices)
	}

	other := renderMoney(t, "costPerCoreHour: 0.03, costPerGiBHour: 0, currency: 'CAD'")
	if other.panels["Cost a month at the current rate"] != "suffix: CAD" || !strings.Contains(strings.Join(other.columns, ","), "CPU cost/month suffix: CAD") {
		t.Errorf("CAD: panels %v, columns %v", other.panels, other.columns)
	}
	if got := strings.Join(other.records, " "); got != "job:cpu_cost_per_month:rate5m job:cpu_cost_per_million_requests:ratio_rate5m" {
		t.Errorf("no memory price: cost rules %q, want CPU only", got)
	}
	if other.prices["perCoreHour"] != 0.03 || other.prices["currency"] != "CAD" {
		t.Errorf("CAD: catalogue prices %v", other.prices)
	}

	off := renderMoney(t, "costPerCoreHour: 0")
	if len(off.panels) != 0 || len(off.columns) != 0 || len(off.records) != 0 || off.prices != nil {
		t.Errorf("money off: panels %v, columns %v, rules %v, prices %v; want none", off.panels, off.columns, off.records, off.prices)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
