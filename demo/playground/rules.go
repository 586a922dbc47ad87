package playground

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"

	"gopkg.in/yaml.v3"
)

// RuleFile is a Prometheus rule file, every field kept (so that two files can
// be compared field by field).
type RuleFile struct {
	Groups []RuleGroup `yaml:"groups"`
}

// RuleGroup is one group of a rule file.
type RuleGroup struct {
	Name     string `yaml:"name"`
	Interval string `yaml:"interval,omitempty"`
	Rules    []Rule `yaml:"rules"`
}

// Rule is a recording or alerting rule.
type Rule struct {
	Record      string            `yaml:"record,omitempty"`
	Alert       string            `yaml:"alert,omitempty"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// ReadRules parses a rule file.
func ReadRules(path string) (*RuleFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f RuleFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// AlertNames lists the alerts of a rule file, sorted and unique.
func (f *RuleFile) AlertNames() []string {
	seen := map[string]bool{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				seen[r.Alert] = true
			}
		}
	}
	return sortedKeys(seen)
}

var identifier = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)

// Levels splits the recording rules into dependency levels: level 1 reads
// only scraped series, level k reads at least one series recorded at level
// k-1. `promtool tsdb create-blocks-from rules` evaluates every rule against
// the server's data before the pass, so a rule cannot see another rule's
// results from the same pass: the backfill evaluates one level per pass. A
// recorded name is recognised in an expression as an identifier token (they
// contain colons, which no scraped name, function or label has).
func (f *RuleFile) Levels() ([]*RuleFile, error) {
	type ref struct{ g, r int }
	producers := map[string][]ref{}
	for gi, g := range f.Groups {
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
			return 0, fmt.Errorf("recording rule %s depends on itself", f.Groups[x.g].Rules[x.r].Record)
		}
		visiting[x] = true
		l := 1
		for _, tok := range identifier.FindAllString(f.Groups[x.g].Rules[x.r].Expr, -1) {
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
	for gi, g := range f.Groups {
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
	out := make([]*RuleFile, maxLevel)
	for l := 1; l <= maxLevel; l++ {
		lf := &RuleFile{}
		for gi, g := range f.Groups {
			ng := RuleGroup{Name: g.Name, Interval: g.Interval}
			for ri, r := range g.Rules {
				if r.Record != "" && level[ref{gi, ri}] == l {
					ng.Rules = append(ng.Rules, r)
				}
			}
			if len(ng.Rules) > 0 {
				lf.Groups = append(lf.Groups, ng)
			}
		}
		out[l-1] = lf
	}
	return out, nil
}

// Write writes the rule file as YAML.
func (f *RuleFile) Write(path string) error {
	b, err := yaml.Marshal(f)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// RecordCount is the number of recording rules.
func (f *RuleFile) RecordCount() int {
	n := 0
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				n++
			}
		}
	}
	return n
}

// DiffExceptFor lists every difference between two rule files other than an
// alert's `for:`; empty means they are the same rule pack with other `for:`
// durations only. It also lists the `for:` changes, for the record.
func DiffExceptFor(shipped, overlay *RuleFile) (diffs []string, forChanges []string) {
	if len(shipped.Groups) != len(overlay.Groups) {
		return []string{fmt.Sprintf("%d groups vs %d", len(shipped.Groups), len(overlay.Groups))}, nil
	}
	for gi, g := range shipped.Groups {
		o := overlay.Groups[gi]
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
			r.For, or.For = "", ""
			if !reflect.DeepEqual(r, or) {
				diffs = append(diffs, fmt.Sprintf("group %s rule %d (%s) differs beyond for:", g.Name, ri, name))
			}
		}
	}
	sort.Strings(forChanges)
	return diffs, forChanges
}
