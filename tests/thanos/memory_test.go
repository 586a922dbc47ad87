package thanos

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// memories is, per recorded name, how far back its records read the
// scrapes: the ranges, subquery ranges and offsets on the way from the
// record down to a scraped series, through every recorded series between.
// A record made from rate windows reads 5 minutes back; one averaging such
// records over 3h reads 3h5m back. A short rate window stays in the records
// of a name for its memory less the rate window's own length.
type memories map[string]time.Duration

// recordExprs are the parsed expressions of each recorded name's rules.
func recordExprs(t *testing.T, groups []rulefmt.RuleGroup) map[string][]parser.Expr {
	t.Helper()
	exprs := map[string][]parser.Expr{}
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record == "" {
				continue
			}
			e, err := parser.ParseExpr(r.Expr)
			if err != nil {
				t.Fatalf("%s: %v", r.Record, err)
			}
			exprs[r.Record] = append(exprs[r.Record], e)
		}
	}
	return exprs
}

func memoriesOf(t *testing.T, groups []rulefmt.RuleGroup) memories {
	t.Helper()
	exprs := recordExprs(t, groups)
	out := memories{}
	var of func(name string, seen map[string]bool) time.Duration
	of = func(name string, seen map[string]bool) time.Duration {
		if m, ok := out[name]; ok {
			return m
		}
		if seen[name] { // a rule reading its own name: its memory is its other reads'
			return 0
		}
		seen[name] = true
		var m time.Duration
		for _, e := range exprs[name] {
			parser.Inspect(e, func(node parser.Node, path []parser.Node) error {
				vs, ok := node.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				reach := vs.OriginalOffset
				for _, p := range path {
					switch p := p.(type) {
					case *parser.MatrixSelector:
						reach += p.Range
					case *parser.SubqueryExpr:
						reach += p.Range + p.OriginalOffset
					}
				}
				if _, recorded := exprs[vs.Name]; recorded {
					reach += of(vs.Name, seen)
				}
				m = max(m, reach)
				return nil
			})
		}
		out[name] = m
		return m
	}
	for name := range exprs {
		of(name, map[string]bool{})
	}
	return out
}

// readersOf are the recorded names whose records read target's, directly
// or through other recorded names, and target itself.
func readersOf(t *testing.T, groups []rulefmt.RuleGroup, target string) map[string]bool {
	t.Helper()
	reads := map[string][]string{}
	for name, es := range recordExprs(t, groups) {
		for _, e := range es {
			parser.Inspect(e, func(node parser.Node, _ []parser.Node) error {
				if vs, ok := node.(*parser.VectorSelector); ok {
					reads[name] = append(reads[name], vs.Name)
				}
				return nil
			})
		}
	}
	out := map[string]bool{target: true}
	for changed := true; changed; {
		changed = false
		for name, names := range reads {
			for _, n := range names {
				if out[n] && !out[name] {
					out[name], changed = true, true
				}
			}
		}
	}
	return out
}

// afterRate is how long after a short rate window the records of name
// still hold it.
func (m memories) afterRate(name string) time.Duration {
	return max(0, m[name]-rateWindow)
}

// The memories of the shipped pack's own names, read from its rule files:
// the request rate reads its 5m window, the cost per request two of them,
// the long fit's slope 3h of those records, the day's median of that slope
// a day more.
func TestMemoriesOfThePack(t *testing.T) {
	m := memoriesOf(t, harness.ShippedRules(t))
	for name, want := range map[string]time.Duration{
		"job:requests:rate5m":                        rateWindow,
		"job:cpu_seconds_per_request:ratio_rate5m":   rateWindow,
		"job:cpu_seconds_per_request:long_slope":     3*time.Hour + rateWindow,
		"job:cpu_seconds_per_request:long_marginal":  24*time.Hour + 3*time.Hour + rateWindow,
		"container:cpu_cfs_throttled_seconds:rate5m": rateWindow,
		"job:cpu_seconds:baseline_residual_smoothed": 0, // checked below: more than the rate window
		"job:requests:baseline_history_seconds":      0,
	} {
		got, ok := m[name]
		if !ok {
			t.Errorf("%s: no memory (not a recorded name of the pack?)", name)
			continue
		}
		if want == 0 {
			if got <= rateWindow {
				t.Errorf("%s: memory %v, want more than the rate window", name, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: memory %v, want %v", name, got, want)
		}
	}
	fit := readersOf(t, harness.ShippedRules(t), "job:cpu_seconds_per_request:long_slope")
	for name, want := range map[string]bool{
		"job:cpu_seconds_per_request:long_slope":    true,
		"job:cpu_seconds_per_request:long_marginal": true,
		"job:cpu_seconds_per_request:ratio_rate5m":  false,
		"job:requests:rate5m":                       false,
	} {
		if fit[name] != want {
			t.Errorf("readersOf(long_slope)[%s] = %v, want %v", name, fit[name], want)
		}
	}
	if got := m.afterRate("job:requests:rate5m"); got != 0 {
		t.Errorf("a rate record holds a short window %v after it, want 0", got)
	}
}
