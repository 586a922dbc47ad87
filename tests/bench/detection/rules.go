//go:build bench

package detection

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"gopkg.in/yaml.v3"
)

// The four detectors, each as a recording rule of its alert's condition
// (backfilling evaluates recording rules only; `for:` is applied when
// judging): bench:regression:condition{detector, kind}.
const (
	DetectorFixed  = "fixed"  // the fixed factors: the pack with the noise path switched off
	DetectorPAD    = "pad"    // median +- 3 MAD bands on the cost per request
	DetectorBefore = "before" // the pack as shipped before the reference model (testdata/pack-3bb8c6d)
	DetectorNoise  = "noise"  // the shipped pack: the fixed factors or the noise threshold, against the reference
)

var Detectors = []string{DetectorFixed, DetectorPAD, DetectorBefore, DetectorNoise}

// keepFor is each detector's keep_firing_for, as its alerts say (none for PAD).
var keepFor = map[string]time.Duration{}

// apart renames, in pack, every recorded series whose rules differ from
// shipped's (or read one that does) with suffix, where its rules record and
// where they are read, and drops the rules both packs share: the two packs
// then backfill side by side, each reading its own series, the shared ones
// recorded once.
func apart(pack, shipped []rulefmt.RuleGroup, suffix string) ([]rulefmt.RuleGroup, error) {
	defs := func(groups []rulefmt.RuleGroup) map[string][]string {
		out := map[string][]string{}
		for _, g := range groups {
			for _, r := range g.Rules {
				if r.Record != "" {
					out[r.Record] = append(out[r.Record], fmt.Sprintf("%s %v %s", g.Interval, r.Labels, r.Expr))
				}
			}
		}
		return out
	}
	mine, theirs := defs(pack), defs(shipped)
	renamed := map[string]bool{}
	for name, d := range mine {
		if !slices.Equal(d, theirs[name]) {
			renamed[name] = true
		}
	}
	reads := map[string][]string{}
	for _, g := range pack {
		for _, r := range g.Rules {
			e, err := parser.ParseExpr(r.Expr)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", r.Expr, err)
			}
			parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
				if vs, ok := n.(*parser.VectorSelector); ok && r.Record != "" {
					reads[r.Record] = append(reads[r.Record], vs.Name)
				}
				return nil
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for name, names := range reads {
			for _, n := range names {
				if renamed[n] && !renamed[name] {
					renamed[name], changed = true, true
				}
			}
		}
	}
	var out []rulefmt.RuleGroup
	for _, g := range pack {
		keep := g
		keep.Name += suffix
		keep.Rules = nil
		for _, r := range g.Rules {
			if r.Record != "" && !renamed[r.Record] {
				continue
			}
			e, err := parser.ParseExpr(r.Expr)
			if err != nil {
				return nil, err
			}
			parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
				if vs, ok := n.(*parser.VectorSelector); ok && renamed[vs.Name] {
					vs.Name += suffix
					for _, m := range vs.LabelMatchers {
						if m.Name == model.MetricNameLabel {
							m.Value = vs.Name
						}
					}
				}
				return nil
			})
			r.Expr = e.String()
			if r.Record != "" {
				r.Record += suffix
			}
			keep.Rules = append(keep.Rules, r)
		}
		if len(keep.Rules) > 0 {
			out = append(out, keep)
		}
	}
	return out, nil
}

// alertKind maps the pack's two regression alerts to the kind they judge.
var alertKind = map[string]string{
	"CPUPerRequestRegression":         KindCPU,
	"AllocationsPerRequestRegression": KindAlloc,
}

// padRules is the PAD-style detector (the robust band of
// grafana/promql-anomaly-detection): the cost per request against its own
// median over a day, +- 3 median absolute deviations, with the pack's
// traffic floor (1 req/s). The day-long reads take a 5m copy, as the pack's
// baseline does.
func padRules() (bands, conditions rulefmt.RuleGroup) {
	key := "cluster, namespace, job"
	var slow, fast []rulefmt.Rule
	for _, c := range []struct{ kind, perRequest, stem string }{
		{KindCPU, "job:cpu_seconds_per_request:ratio_rate5m", "bench:cpu_seconds_per_request"},
		{KindAlloc, "job:alloc_bytes_per_request:ratio_rate5m", "bench:alloc_bytes_per_request"},
	} {
		slow = append(slow,
			record(c.stem+":sampled", c.perRequest),
			record(c.stem+":median_1d", fmt.Sprintf("quantile_over_time(0.5, %s:sampled[1d])", c.stem)),
			record(c.stem+":abs_deviation", fmt.Sprintf("abs(%s:sampled - %s:median_1d)", c.stem, c.stem)),
			record(c.stem+":mad_1d", fmt.Sprintf("quantile_over_time(0.5, %s:abs_deviation[1d])", c.stem)),
		)
		fast = append(fast, condition(DetectorPAD, c.kind, fmt.Sprintf(
			"%s > on (%s) (last_over_time(%s:median_1d[10m]) + on (%s) 3 * last_over_time(%s:mad_1d[10m])) and on (%s) job:requests:rate5m >= 1",
			c.perRequest, key, c.stem, key, c.stem, key)))
	}
	return rulefmt.RuleGroup{Name: "bench-pad", Interval: model.Duration(5 * 60e9), Rules: slow},
		rulefmt.RuleGroup{Name: "bench-pad-conditions", Interval: model.Duration(60e9), Rules: fast}
}

// conditions turns a pack's two regression alerts into recording rules of
// their conditions, labelled with the detector.
func conditions(detector string, groups []rulefmt.RuleGroup) (rulefmt.RuleGroup, error) {
	g := rulefmt.RuleGroup{Name: "bench-" + detector + "-conditions", Interval: model.Duration(60e9)}
	for _, grp := range groups {
		for _, r := range grp.Rules {
			if kind, ok := alertKind[r.Alert]; ok {
				if r.For != model.Duration(forDuration) {
					return g, fmt.Errorf("%s: for %s, the judge applies %s", r.Alert, r.For, forDuration)
				}
				if keepFor[detector] != 0 && keepFor[detector] != time.Duration(r.KeepFiringFor) {
					return g, fmt.Errorf("%s: keep_firing_for %s and %s", r.Alert, keepFor[detector], time.Duration(r.KeepFiringFor))
				}
				keepFor[detector] = time.Duration(r.KeepFiringFor)
				g.Rules = append(g.Rules, condition(detector, kind, r.Expr))
				hold, err := holdBranch(r.Alert, r.Expr)
				if err != nil {
					return g, err
				}
				if hold != "" {
					g.Rules = append(g.Rules, rulefmt.Rule{Record: holdConditionName, Expr: "(" + hold + ") * 1", Labels: map[string]string{"detector": detector, "kind": kind}})
				}
			}
		}
	}
	if conds := slices.IndexFunc(g.Rules, func(r rulefmt.Rule) bool { return r.Record == conditionName }); conds < 0 || countConditions(g) != 2 {
		return g, fmt.Errorf("%s: found %d of the 2 regression alerts", detector, len(g.Rules))
	}
	return g, nil
}

// alertConditions records the condition of a pack's one alert named alert
// (the endpoint and function alerts), and its hold branch (holdBranch) when
// it has one and holds, labelled with the detector; the alert's own labels
// (job, endpoint or function, profile_type) stay on its series. An alert
// with a hold branch where holds is false is refused.
func alertConditions(detector, alert string, groups []rulefmt.RuleGroup, holds bool) (rulefmt.RuleGroup, error) {
	g := rulefmt.RuleGroup{Name: "bench-" + detector + "-conditions", Interval: model.Duration(60e9)}
	for _, grp := range groups {
		for _, r := range grp.Rules {
			if r.Alert != alert {
				continue
			}
			if r.For != model.Duration(forDuration) {
				return g, fmt.Errorf("%s: for %s, the judge applies %s", r.Alert, r.For, forDuration)
			}
			hold, err := holdBranch(r.Alert, r.Expr)
			if err != nil {
				return g, err
			}
			if hold != "" && !holds {
				return g, fmt.Errorf("%s: reads its own ALERTS: the %s judge models no hold branch", r.Alert, detector)
			}
			keepFor[detector] = time.Duration(r.KeepFiringFor)
			labels := map[string]string{"detector": detector}
			g.Rules = append(g.Rules, rulefmt.Rule{Record: conditionName, Expr: "(" + strings.TrimSpace(r.Expr) + ") * 1", Labels: labels})
			if hold != "" {
				g.Rules = append(g.Rules, rulefmt.Rule{Record: holdConditionName, Expr: "(" + hold + ") * 1", Labels: labels})
			}
		}
	}
	if countConditions(g) != 1 {
		return g, fmt.Errorf("found %d %s alerts, want 1", countConditions(g), alert)
	}
	return g, nil
}

// alertKey names an alert's series for the judge by its kind and its label
// name (endpoint or function): a regression is detected when the one that
// regressed is the one named.
func alertKey(name string) func(labels map[string]string) string {
	return func(labels map[string]string) string {
		kind := KindCPU
		if labels["profile_type"] != "cpu" {
			kind = KindAlloc
		}
		return kind + "/" + labels[name]
	}
}

func countConditions(g rulefmt.RuleGroup) int {
	n := 0
	for _, r := range g.Rules {
		if r.Record == conditionName {
			n++
		}
	}
	return n
}

// holdBranch is an alert's condition with its own ALERTS term taken out
// (`x and on (...) ALERTS{alertname="<alert>", alertstate="firing"}` made
// `x`): what its hold branch requires besides being firing. The backfill
// evaluates recording rules only, so no ALERTS series exists there and the
// condition as written is the alert's condition while not firing; the judge
// adds the hold branch where the alert was firing at the evaluation before
// (firing). "" when the alert does not read its own ALERTS. An alert that
// reads them in several branches (the function alert: one per profile
// type, each matching its own series) has them all taken out: each series
// holds through its own branch.
func holdBranch(alert, expr string) (string, error) {
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return "", fmt.Errorf("%s: %w", alert, err)
	}
	ownAlerts := func(n parser.Expr) bool {
		vs, ok := n.(*parser.VectorSelector)
		if !ok || vs.Name != "ALERTS" {
			return false
		}
		for _, m := range vs.LabelMatchers {
			if m.Name == "alertname" && m.Value == alert {
				return true
			}
		}
		return false
	}
	found := 0
	var strip func(n parser.Expr) parser.Expr
	strip = func(n parser.Expr) parser.Expr {
		switch x := n.(type) {
		case *parser.ParenExpr:
			x.Expr = strip(x.Expr)
		case *parser.Call:
			// label_replace(...): the function alert labels each branch
			for i, a := range x.Args {
				x.Args[i] = strip(a)
			}
		case *parser.AggregateExpr:
			x.Expr = strip(x.Expr)
		case *parser.UnaryExpr:
			x.Expr = strip(x.Expr)
		case *parser.BinaryExpr:
			if x.Op == parser.LAND && ownAlerts(x.RHS) {
				found++
				return strip(x.LHS)
			}
			x.LHS, x.RHS = strip(x.LHS), strip(x.RHS)
		}
		return n
	}
	out := strip(e)
	if found == 0 {
		if strings.Contains(expr, fmt.Sprintf("alertname=%q", alert)) {
			return "", fmt.Errorf("%s: reads its own ALERTS where no `x and on (...) ALERTS{...}` of the judge's takes them out", alert)
		}
		return "", nil
	}
	return out.String(), nil
}

// fixedOnly renames, in the pack rendered with its noise floors out of reach,
// the noise thresholds and hold levels and what reads them, so they do not collide with the
// shipped pack's: its alerts then read thresholds no residual reaches.
func fixedOnly(groups []rulefmt.RuleGroup) []rulefmt.RuleGroup {
	var out []rulefmt.RuleGroup
	for _, g := range groups {
		keep := g
		keep.Name += "-fixed-only"
		keep.Rules = nil
		for _, r := range g.Rules {
			own := false
			for _, suffix := range []string{thresholdSuffix, holdSuffix} {
				r.Expr = strings.ReplaceAll(r.Expr, suffix, suffix+"_fixed_only")
				own = own || strings.HasSuffix(r.Record, suffix)
			}
			switch {
			case own:
				r.Record += "_fixed_only"
			case r.Record != "":
				continue
			}
			keep.Rules = append(keep.Rules, r)
		}
		if len(keep.Rules) > 0 {
			out = append(out, keep)
		}
	}
	return out
}

// The noise path's levels: the threshold and the hold level.
const (
	thresholdSuffix = ":baseline_residual_threshold"
	holdSuffix      = ":baseline_residual_hold"
)

// The recorded conditions: the alert's, and its hold branch's (holdBranch).
const (
	conditionName     = "bench:regression:condition"
	holdConditionName = "bench:regression:hold_condition"
)

func record(name, expr string) rulefmt.Rule {
	return rulefmt.Rule{Record: name, Expr: expr}
}

// condition records expr as bench:regression:condition. Times 1: arithmetic
// drops every series' metric name. An alert of the form `a >= x or b >= y`
// yields a series named a where its left side holds and an unnamed one
// where only its right side does; an alert sees one series either way (the
// name is not part of its labels), but a backfill's range query returns
// two, which the recorded name makes one series written twice, and only
// one of them is kept: the noise path's minutes of a shipped alert were lost
// wherever its fixed factor also held at times.
func condition(detector, kind, expr string) rulefmt.Rule {
	return rulefmt.Rule{Record: conditionName, Expr: "(" + strings.TrimSpace(expr) + ") * 1", Labels: map[string]string{"detector": detector, "kind": kind}}
}

// needed keeps, of the recording rules in groups, those the conditions read,
// directly or through other recorded series: backfilling evaluates each rule
// over every minute of the run, so the rest would only cost time.
func needed(groups []rulefmt.RuleGroup, conditions []rulefmt.RuleGroup) ([]rulefmt.RuleGroup, error) {
	byName := map[string]bool{}
	for _, g := range groups {
		for _, r := range g.Rules {
			byName[r.Record] = false
		}
	}
	var reads func(expr string) error
	reads = func(expr string) error {
		e, err := parser.ParseExpr(expr)
		if err != nil {
			return fmt.Errorf("%q: %w", expr, err)
		}
		var names []string
		parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
			if vs, ok := n.(*parser.VectorSelector); ok {
				names = append(names, vs.Name)
			}
			return nil
		})
		for _, name := range names {
			if seen, ok := byName[name]; ok && !seen {
				byName[name] = true
				for _, g := range groups {
					for _, r := range g.Rules {
						if r.Record == name {
							if err := reads(r.Expr); err != nil {
								return err
							}
						}
					}
				}
			}
		}
		return nil
	}
	for _, g := range conditions {
		for _, r := range g.Rules {
			if err := reads(r.Expr); err != nil {
				return nil, err
			}
		}
	}
	var out []rulefmt.RuleGroup
	for _, g := range groups {
		keep := g
		keep.Rules = nil
		for _, r := range g.Rules {
			if byName[r.Record] {
				keep.Rules = append(keep.Rules, r)
			}
		}
		if len(keep.Rules) > 0 {
			out = append(out, keep)
		}
	}
	return out, nil
}

// recordingGroups are the recording groups of a pack (its alerts left out).
func recordingGroups(groups []rulefmt.RuleGroup) []rulefmt.RuleGroup {
	var out []rulefmt.RuleGroup
	for _, g := range groups {
		keep := g
		keep.Rules = nil
		for _, r := range g.Rules {
			if r.Record != "" {
				keep.Rules = append(keep.Rules, r)
			}
		}
		if len(keep.Rules) > 0 {
			out = append(out, keep)
		}
	}
	return out
}

// marshal renders groups as a rule file's text (for the record).
func marshal(groups []rulefmt.RuleGroup) (string, error) {
	b, err := yaml.Marshal(rulefmt.RuleGroups{Groups: groups})
	return string(b), err
}
