package harness

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
)

// Stop kills the server and waits for it, so its data directory can be
// changed (backfilled blocks moved in) and a new server started on it.
// Stopping twice is harmless; t.Cleanup still runs.
func (p *Prometheus) Stop() {
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

// LeaveOverlappingBlocks are the flags that keep a server from merging the
// (many, overlapping) backfilled blocks at start: queries read overlapping
// blocks as they are, and the merge would compete with the test for CPU for
// minutes. Pass them to the server started on a backfilled DataDir too.
var LeaveOverlappingBlocks = []string{"--no-storage.tsdb.allow-overlapping-compaction"}

// BackfillOpenMetrics writes OpenMetrics text (samples with timestamps, ending
// in "# EOF") into TSDB blocks in dataDir with
// `promtool tsdb create-blocks-from openmetrics`: raw history for a server
// started on dataDir afterwards.
func BackfillOpenMetrics(t testing.TB, dataDir, text string) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "history.om")
	must(t, os.WriteFile(in, []byte(text), 0o644), "write openmetrics")
	runTool(t, 2*time.Minute, "promtool", "tsdb", "create-blocks-from", "openmetrics", "--quiet", in, dataDir)
}

// BackfillRules evaluates the recording rules in ruleFiles over [start, end]
// into dataDir, one dependency level per pass: promtool evaluates a pass
// against a server on dataDir, whose results the next pass can read only once
// their blocks are in dataDir and a server restarted on it. Each pass
// evaluates only the rules whose series are not there yet; it stops when a
// pass adds no new series name, or after maxPasses.
func BackfillRules(t testing.TB, dataDir string, ruleFiles []string, start, end time.Time, maxPasses int) {
	t.Helper()
	names := func(p *Prometheus) map[string]bool {
		ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
		defer cancel()
		vals, _, err := p.API.LabelValues(ctx, model.MetricNameLabel, nil, time.Time{}, time.Time{})
		must(t, err, "series names")
		m := map[string]bool{}
		for _, v := range vals {
			m[string(v)] = true
		}
		return m
	}
	var prev map[string]bool
	for pass := 1; ; pass++ {
		p := StartPrometheus(t, PromConfig{DataDir: dataDir, Args: LeaveOverlappingBlocks})
		cur := names(p)
		added := 0
		for n := range cur {
			if !prev[n] {
				added++
			}
		}
		if prev != nil {
			t.Logf("rules backfill: pass %d added %d series names", pass-1, added)
		}
		if (prev != nil && added == 0) || pass > maxPasses {
			p.Stop()
			return
		}
		out := filepath.Join(t.TempDir(), "blocks")
		args := append([]string{
			"tsdb", "create-blocks-from", "rules", "--quiet",
			"--url=" + p.URL,
			"--start=" + strconv.FormatInt(start.Unix(), 10),
			"--end=" + strconv.FormatInt(end.Unix(), 10),
			"--output-dir=" + out,
		}, notYetRecorded(t, ruleFiles, cur)...)
		runTool(t, 3*time.Minute, "promtool", args...)
		p.Stop()
		blocks, err := os.ReadDir(out)
		if os.IsNotExist(err) {
			err = nil // no rule had data to write
		}
		must(t, err, "read backfilled blocks")
		for _, b := range blocks {
			must(t, os.Rename(filepath.Join(out, b.Name()), filepath.Join(dataDir, b.Name())), "move block %s", b.Name())
		}
		prev = cur
	}
}

// notYetRecorded writes the recording rules of ruleFiles whose series are
// not in the data yet into one temporary rule file: each pass evaluates only
// what earlier passes could not, instead of writing every level again.
func notYetRecorded(t testing.TB, ruleFiles []string, have map[string]bool) []string {
	t.Helper()
	var keep []rulefmt.RuleGroup
	for _, g := range ParseRules(t, ruleFiles) {
		var rules []rulefmt.Rule
		for _, r := range g.Rules {
			if r.Record != "" && !have[r.Record] {
				rules = append(rules, r)
			}
		}
		if len(rules) > 0 {
			g.Rules = rules
			keep = append(keep, g)
		}
	}
	return []string{WriteRules(t, keep, "pending-rules.yaml")}
}

// runTool runs a pinned tool with a bounded wait, failing the test with its
// output when it fails.
func runTool(t testing.TB, timeout time.Duration, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, Tool(t, name), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, truncate(out.String(), 4000))
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d more bytes)", len(s)-n)
}

// OpenMetricsGauges renders recorded history for BackfillOpenMetrics: series
// maps a name to its sample lines ("name{labels} value unix-seconds"), which
// come out as one gauge family per name, names sorted, each series' samples
// together and in the order given (without "# EOF").
func OpenMetricsGauges(series map[string][]string) string {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(series)) {
		fmt.Fprintf(&b, "# TYPE %s gauge\n", n)
		lines := slices.Clone(series[n])
		// the series of a line: all but its value and timestamp
		key := func(line string) string { return line[:strings.LastIndex(line[:strings.LastIndex(line, " ")], " ")] }
		slices.SortStableFunc(lines, func(a, c string) int { return strings.Compare(key(a), key(c)) })
		for _, line := range lines {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
