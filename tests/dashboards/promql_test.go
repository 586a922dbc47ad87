package dashboards

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/hotpath/hotpath/tests/harness"
)

// A duration no dashboard writes by hand: after substitution, every range
// that equals it came from $__rate_interval.
const rateSentinel = "4242s"

// parseAll parses every query of d with the real Prometheus parser, after
// putting in sample values for the variables.
func parseAll(t *testing.T, name string, d dashboard) map[string]parser.Expr {
	t.Helper()
	vals := sampleValues(d, rateSentinel)
	out := map[string]parser.Expr{}
	for _, q := range d.queries(t) {
		expr, err := parser.ParseExpr(substitute(q.expr, vals))
		if err != nil {
			t.Errorf("%s %s: %v\n  %s", name, q.where, err, q.expr)
			continue
		}
		out[q.where] = expr
	}
	return out
}

func TestQueriesParse(t *testing.T) {
	plain, imported := shipped(t)
	for _, set := range []map[string]dashboard{plain, imported} {
		for name, d := range set {
			if n := len(parseAll(t, name, d)); n < 5 {
				t.Errorf("%s: only %d queries parsed", name, n)
			}
		}
	}
}

// Counters are only read through rate() over $__rate_interval, or through a
// recorded series; a counter selected without a range may only give labels to
// a join (inside group()). And a counter the rule pack already rates is read
// through its recorded series, never rated again.
func TestQueriesUseRateIntervalOrRecordedSeries(t *testing.T) {
	plain, _ := shipped(t)
	rated, slow := ratedByRulePack(t), slowRecords(t)
	for name, d := range plain {
		for where, expr := range parseAll(t, name, d) {
			for _, problem := range rateProblems(expr, rated, slow) {
				t.Errorf("%s %s: %s", name, where, problem)
			}
		}
	}
}

// A recorded series of a slow group (one whose two intervals outlast an
// instant query's 5m lookback) is read through last_over_time over two of
// its intervals, its latest sample (slow: name -> its group's interval),
// never bare: the lookback loses a 5m group's series whenever an evaluation
// runs late.
func rateProblems(expr parser.Expr, rated map[string]bool, slow map[string]time.Duration) []string {
	var problems []string
	sentinel, _ := time.ParseDuration(rateSentinel)
	parser.Inspect(expr, func(node parser.Node, path []parser.Node) error {
		switch n := node.(type) {
		case *parser.SubqueryExpr:
			problems = append(problems, "subquery "+n.String()+": use a recorded series")
		case *parser.MatrixSelector:
			vs := n.VectorSelector.(*parser.VectorSelector)
			if every, ok := slow[vs.Name]; ok && isCall(path, "last_over_time") {
				if n.Range != 2*every {
					problems = append(problems, fmt.Sprintf("%s: last_over_time over %s, want two of its group's intervals (%s)", vs.Name, n.Range, 2*every))
				}
				return nil
			}
			if n.Range != sentinel {
				problems = append(problems, vs.Name+": range is not $__rate_interval")
			}
			if rated[vs.Name] {
				problems = append(problems, vs.Name+": the rule pack records its rate, read the recorded series")
			}
		case *parser.VectorSelector:
			if _, ok := slow[n.Name]; ok && !underMatrix(path) {
				problems = append(problems, n.Name+": a series of a slow group read bare; read its latest sample with last_over_time")
			}
			if !isCounter(n.Name) || underMatrix(path) || underGroup(path) {
				return nil
			}
			problems = append(problems, n.Name+": a counter read without rate()")
		}
		return nil
	})
	return problems
}

func isCounter(name string) bool {
	return !strings.Contains(name, ":") &&
		(strings.HasSuffix(name, "_total") || strings.HasSuffix(name, "_count") || strings.HasSuffix(name, "_sum") || strings.HasSuffix(name, "_bucket"))
}

func underMatrix(path []parser.Node) bool {
	return len(path) > 0 && isMatrix(path[len(path)-1])
}

func isMatrix(n parser.Node) bool {
	_, ok := n.(*parser.MatrixSelector)
	return ok
}

// isCall: the innermost node above path's end is a call of fn.
func isCall(path []parser.Node, fn string) bool {
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *parser.Call:
			return n.Func.Name == fn
		case *parser.ParenExpr, *parser.MatrixSelector:
			continue
		default:
			return false
		}
	}
	return false
}

// slowRecords lists the series the rule pack records in groups whose two
// intervals outlast the 5m lookback (the baseline's 5m, the noise models'
// 15m; not the function groups' 2m, whose last sample a late evaluation
// leaves within it), with their group's interval.
func slowRecords(t *testing.T) map[string]time.Duration {
	rules, _ := rulePack()
	out := map[string]time.Duration{}
	for _, g := range harness.ParseRules(t, []string{rules}) {
		if every := time.Duration(g.Interval); 2*every > 5*time.Minute {
			for _, r := range g.Rules {
				if r.Record != "" {
					out[r.Record] = every
				}
			}
		}
	}
	return out
}

func underGroup(path []parser.Node) bool {
	for _, n := range path {
		if a, ok := n.(*parser.AggregateExpr); ok && a.Op == parser.GROUP {
			return true
		}
	}
	return false
}

// ratedByRulePack lists the input series the generated recording rules read
// through a range (rate, increase...).
func ratedByRulePack(t *testing.T) map[string]bool {
	rules, _ := rulePack()
	rated := map[string]bool{}
	for _, g := range harness.ParseRules(t, []string{rules}) {
		for _, r := range g.Rules {
			expr, err := parser.ParseExpr(r.Expr)
			if err != nil {
				t.Fatalf("rule %s: %v", r.Record, err)
			}
			parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
				if m, ok := node.(*parser.MatrixSelector); ok {
					if vs := m.VectorSelector.(*parser.VectorSelector); !strings.Contains(vs.Name, ":") {
						rated[vs.Name] = true
					}
				}
				return nil
			})
		}
	}
	return rated
}

// The checks above can fail: a query that rates a recorded input, uses a
// fixed range, reads a counter raw or a slow group's series bare is
// reported.
func TestRateProblemsAreFound(t *testing.T) {
	rated := map[string]bool{"process_cpu_seconds_total": true}
	slow := map[string]time.Duration{"job:cpu_seconds:baseline_fixed": 5 * time.Minute}
	for q, want := range map[string]string{
		`job:cpu_seconds:baseline_fixed{job="api"}`:                 "read bare",
		`last_over_time(job:cpu_seconds:baseline_fixed[5m])`:        "want two of its group's intervals",
		`last_over_time(job:cpu_seconds:baseline_fixed[10m]) / 2`:   "",
		`max_over_time(job:cpu_seconds:baseline_fixed[10m])`:        "not $__rate_interval",
		`rate(process_cpu_seconds_total[4242s])`:                    "records its rate",
		`rate(go_gc_duration_seconds_count[5m])`:                    "not $__rate_interval",
		`http_requests_total`:                                       "without rate()",
		`max_over_time(job:requests:rate5m[1h:1m])`:                 "subquery",
		`x:y:z and on (pod) group by (pod) (http_requests_total{})`: "",
	} {
		expr, err := parser.ParseExpr(q)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(rateProblems(expr, rated, slow), "; ")
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: problems %q, want one with %q", q, got, want)
		}
	}
}
