package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A rules backfill whose history starts a second before a two-hour block
// boundary: a 5m group's first block has no evaluation time in it, and the
// group must still have its whole history (promtool alone skips the group).
func TestBackfillRulesStartingJustBeforeABlockBoundary(t *testing.T) {
	start := time.Date(2026, 1, 1, 9, 59, 59, 0, time.UTC)
	end := start.Add(3 * time.Hour)
	var om strings.Builder
	for ts := start; !ts.After(end); ts = ts.Add(time.Minute) {
		fmt.Fprintf(&om, "hp_value{job=\"a\"} 1 %d\n", ts.Unix())
	}
	om.WriteString("# EOF\n")
	data := t.TempDir()
	BackfillOpenMetrics(t, data, om.String())
	rules := filepath.Join(t.TempDir(), "rules.yaml")
	must(t, os.WriteFile(rules, []byte(`groups:
- name: every-minute
  interval: 1m
  rules:
  - record: job:hp_value:minutely
    expr: hp_value
- name: every-five-minutes
  interval: 5m
  rules:
  - record: job:hp_value:sampled
    expr: hp_value
`), 0o644), "write rules")
	BackfillRules(t, data, []string{rules}, start, end)

	p := StartPrometheus(t, PromConfig{DataDir: data, Args: LeaveOverlappingBlocks})
	ctx := context.Background()
	// 3 hours: 180 evaluations a minute, 36 every five minutes
	for name, want := range map[string]float64{"job:hp_value:minutely": 175, "job:hp_value:sampled": 35} {
		s, err := p.QueryRange(ctx, fmt.Sprintf("count_over_time(%s[4h])", name), end, end, time.Minute)
		must(t, err, "query %s", name)
		if len(s) != 1 || len(s[0].Points) != 1 || s[0].Points[0][1] < want {
			t.Errorf("%s: %+v, want one series with at least %g samples over the history", name, s, want)
		}
	}
}
