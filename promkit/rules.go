package promkit

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"gopkg.in/yaml.v3"
)

// ReadRules reads rule files with Prometheus's own parser (what the server,
// promtool and Thanos Ruler load): unknown fields and bad expressions are
// errors.
func ReadRules(files ...string) ([]rulefmt.RuleGroup, error) {
	var out []rulefmt.RuleGroup
	for _, f := range files {
		groups, errs := rulefmt.ParseFile(f, false, model.UTF8Validation)
		if len(errs) > 0 {
			return nil, fmt.Errorf("%s: %v", f, errs)
		}
		out = append(out, groups.Groups...)
	}
	return out, nil
}

// WriteRules writes groups as a rule file.
func WriteRules(path string, groups []rulefmt.RuleGroup) error {
	b, err := yaml.Marshal(rulefmt.RuleGroups{Groups: groups})
	if err != nil {
		return fmt.Errorf("marshal rules: %w", err)
	}
	return os.WriteFile(path, b, 0o644)
}

// RecordedNames are the recording rules' names, in file order.
func RecordedNames(groups []rulefmt.RuleGroup) []string {
	var out []string
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				out = append(out, r.Record)
			}
		}
	}
	return out
}

// AlertNames are the alerts' names, sorted and unique.
func AlertNames(groups []rulefmt.RuleGroup) []string {
	var out []string
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, r.Alert)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

var identifier = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)

// Levels splits the recording rules into dependency levels: level 1 reads
// only scraped series, level k reads at least one series recorded at level
// k-1. `promtool tsdb create-blocks-from rules` evaluates every rule against
// the server's data before the pass, so a rule cannot see another rule's
// results from the same pass: a backfill evaluates one level per pass. A
// recorded name is recognised in an expression as an identifier token (they
// contain colons, which no scraped name, function or label has). Alerts are
// left out.
func Levels(groups []rulefmt.RuleGroup) ([][]rulefmt.RuleGroup, error) {
	type ref struct{ g, r int }
	producers := map[string][]ref{}
	for gi, g := range groups {
		for ri, r := range g.Rules {
			if r.Record != "" {
				producers[r.Record] = append(producers[r.Record], ref{gi, ri})
			}
		}
	}
	level := map[ref]int{}
	visiting := map[ref]bool{}
	var levelOf func(x ref) (int, error)
	levelOf = func(x ref) (int, error) {
		if l, ok := level[x]; ok {
			return l, nil
		}
		if visiting[x] {
			return 0, fmt.Errorf("recording rule %s depends on itself", groups[x.g].Rules[x.r].Record)
		}
		visiting[x] = true
		l := 1
		for _, tok := range identifier.FindAllString(groups[x.g].Rules[x.r].Expr, -1) {
			for _, p := range producers[tok] {
				if p == x {
					continue
				}
				pl, err := levelOf(p)
				if err != nil {
					return 0, err
				}
				l = max(l, pl+1)
			}
		}
		visiting[x] = false
		level[x] = l
		return l, nil
	}
	maxLevel := 0
	for gi, g := range groups {
		for ri, r := range g.Rules {
			if r.Record == "" {
				continue
			}
			l, err := levelOf(ref{gi, ri})
			if err != nil {
				return nil, err
			}
			maxLevel = max(maxLevel, l)
		}
	}
	out := make([][]rulefmt.RuleGroup, maxLevel)
	for l := 1; l <= maxLevel; l++ {
		for gi, g := range groups {
			ng := g
			ng.Rules = nil
			for ri, r := range g.Rules {
				if r.Record != "" && level[ref{gi, ri}] == l {
					ng.Rules = append(ng.Rules, r)
				}
			}
			if len(ng.Rules) > 0 {
				out[l-1] = append(out[l-1], ng)
			}
		}
	}
	return out, nil
}

// DiffExceptFor lists every difference between two rule packs other than an
// alert's `for:`; empty means they are the same pack with other `for:`
// durations only. It also lists the `for:` changes, for the record.
func DiffExceptFor(shipped, overlay []rulefmt.RuleGroup) (diffs []string, forChanges []string) {
	if len(shipped) != len(overlay) {
		return []string{fmt.Sprintf("%d groups vs %d", len(shipped), len(overlay))}, nil
	}
	for gi, g := range shipped {
		o := overlay[gi]
		if g.Name != o.Name || g.Interval != o.Interval {
			diffs = append(diffs, fmt.Sprintf("group %d: %s/%s vs %s/%s", gi, g.Name, g.Interval, o.Name, o.Interval))
			continue
		}
		if len(g.Rules) != len(o.Rules) {
			diffs = append(diffs, fmt.Sprintf("group %s: %d rules vs %d", g.Name, len(g.Rules), len(o.Rules)))
			continue
		}
		for ri, r := range g.Rules {
			or := o.Rules[ri]
			name := r.Record + r.Alert
			if r.For != or.For {
				forChanges = append(forChanges, fmt.Sprintf("%s: for %s -> %s", name, r.For, or.For))
			}
			r.For, or.For = 0, 0
			if !reflect.DeepEqual(r, or) {
				diffs = append(diffs, fmt.Sprintf("group %s rule %d (%s) differs beyond for:", g.Name, ri, name))
			}
		}
	}
	slices.Sort(forChanges)
	return diffs, forChanges
}
