//go:build bench

package rules

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// The pack against the earlier pack as a user runs them: each group at its
// shipped interval, each pack in a Prometheus of its own for the whole run,
// side by side with a third that scrapes the same inputs with no rules. The
// phases of run() evaluate every group every 15s and load the earlier pack
// only for its own minutes; a group of 15m then writes 60 times its shipped
// rate, and every read of its last value (a 30m window) walks up to 120
// samples where a user's Prometheus walks 2. That weighs a pack by how many
// such reads its minute groups make, not by what it costs a user.

// shippedRound is the span CPU is measured over: one evaluation of every
// 15m group, 3 of every 5m one, 15 of every minute one.
const shippedRound = 15 * time.Minute

// shippedResult is the side-by-side run's figures.
type shippedResult struct {
	warmup time.Duration
	// CPU seconds each Prometheus used in each round: today's pack, the
	// earlier pack's function groups in its place, no rules
	today, before, none []float64
	// each group's evaluation seconds (wall clock) summed over the rounds,
	// by Prometheus
	todayGroups, beforeGroups map[string]float64
	load                      string
	// the function rows today's groups judged with a band, a reference fit
	// and both lagged branches; the earlier pack's references (-1: none)
	thresholds, references, lagged, beforeReferences int
	unhealthy                                        []string
}

// runShipped measures today's shipped pack and the earlier pack's (its
// function groups, as committed at ref, in today's shipped pack in place of
// its own) on the same backfill and inputs, at the shipped intervals.
func runShipped(t *testing.T, f synthetic, ref string) shippedResult {
	res := shippedResult{warmup: shippedWarmup(), todayGroups: map[string]float64{}, beforeGroups: map[string]float64{}, beforeReferences: -1}
	today := harness.RuleFiles(harness.RepoRoot())
	before := withFunctionGroupsOf(t, today, committedRules(t, ref))

	start := time.Now().Truncate(scrape)
	exp := harness.NewExporter(t, "")
	exp.Follow(t, 5*time.Second, func(now time.Time) string { return f.page(start, now) })
	server := func(files []string) *harness.Prometheus {
		dataDir := filepath.Join(t.TempDir(), "data")
		if err := f.backfill(dataDir, start); err != nil {
			t.Fatal(err)
		}
		return harness.StartPrometheus(t, harness.PromConfig{
			DataDir: dataDir, RuleFiles: files, Targets: []string{exp.Addr},
			ScrapeInterval: scrape, EvaluationInterval: time.Minute,
		})
	}
	pToday, pBefore, pNone := server(today), server(before), server(nil)
	servers := []*harness.Prometheus{pToday, pBefore, pNone}
	t.Logf("three Prometheus on the same backfill and inputs; measuring after %s", res.warmup)
	time.Sleep(time.Until(start.Add(res.warmup)))

	// Each group's evaluations in the rounds, from /metrics every 20s (a
	// minute group's last one is replaced every 60s), asked of all three
	// alike so that the asking costs each the same.
	seen := []map[string]float64{{}, {}}
	sums := []map[string]float64{res.todayGroups, res.beforeGroups}
	var from time.Time
	poll := func() {
		for i, p := range servers {
			if i == 2 {
				p.SelfMetrics(t)
				continue
			}
			last, durations := groupTimes(t, p)
			for g, at := range last {
				if seen[i][g] != at {
					seen[i][g] = at
					if !from.IsZero() && at >= float64(from.Unix()) {
						sums[i][g] += durations[g]
					}
				}
			}
		}
	}
	poll()
	cpu := func() []float64 {
		out := make([]float64, len(servers))
		for i, p := range servers {
			out[i] = processCPU(t, p)
		}
		return out
	}
	prev := cpu()
	from = time.Now()
	for r := 1; r <= shippedRounds(); r++ {
		end := from.Add(time.Duration(r) * shippedRound)
		for time.Now().Before(end) {
			time.Sleep(min(20*time.Second, time.Until(end)))
			poll()
		}
		now := cpu()
		res.today = append(res.today, now[0]-prev[0])
		res.before = append(res.before, now[1]-prev[1])
		res.none = append(res.none, now[2]-prev[2])
		prev = now
	}
	res.load = loadAverage()
	for i, p := range servers[:2] {
		rules, err := p.Rules(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rules {
			if r.Health != "ok" || r.LastError != "" {
				res.unhealthy = append(res.unhealthy, fmt.Sprintf("%s: %s / %s: %s %s", []string{"today", ref}[i], r.Group, r.Name, r.Health, r.LastError))
			}
		}
	}
	if len(res.unhealthy) > 0 {
		t.Errorf("rules not evaluated or failing at the shipped intervals: %s", strings.Join(res.unhealthy, "; "))
	}
	res.thresholds, res.references, res.lagged = functionWork(t, pToday, f)
	if recordsName(t, before, "job_function:cpu_seconds_per_request:baseline_reference") {
		res.beforeReferences = countOf(t, pBefore, `last_over_time(job_function:cpu_seconds_per_request:baseline_reference[30m])`)
		if res.beforeReferences != f.functionRowCount() {
			t.Errorf("the earlier pack's function references: %d, want %d", res.beforeReferences, f.functionRowCount())
		}
	}
	return res
}

// committedRules are the rule files committed at ref (rules/ is generated
// and checked against jsonnet/ at every commit: ref's shipped pack).
func committedRules(t *testing.T, ref string) []string {
	dir := filepath.Join(t.TempDir(), "rules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := harness.RuleFiles(filepath.Dir(dir))
	for _, file := range files {
		out, err := exec.Command("git", "-C", harness.RepoRoot(), "show", ref+":rules/"+filepath.Base(file)).Output()
		if err != nil {
			t.Fatalf("git show %s:rules/%s: %v", ref, filepath.Base(file), err)
		}
		if err := os.WriteFile(file, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	harness.ParseRules(t, files)
	return files
}

// shippedWarmup is how long the three run before the rounds
// (BENCH_SHIPPED_WARMUP, 21m by default): past the minute groups' 20m
// windows, so that they read the head, as on a Prometheus that has run for
// hours.
func shippedWarmup() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("BENCH_SHIPPED_WARMUP")); err == nil {
		return d
	}
	return 21 * time.Minute
}

// shippedRounds is how many rounds are measured (BENCH_SHIPPED_ROUNDS, 2 by
// default; 0 skips the side-by-side run).
func shippedRounds() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_SHIPPED_ROUNDS")); err == nil && n >= 0 {
		return n
	}
	return 2
}

// renderShipped is the side-by-side run's paragraph and table.
func renderShipped(b *strings.Builder, s shippedResult, f synthetic, pk packs) {
	pack := func(cpu []float64) []float64 {
		out := make([]float64, len(cpu))
		for i := range cpu {
			out[i] = cpu[i] - s.none[i]
		}
		return out
	}
	today, before := pack(s.today), pack(s.before)
	verdict := "met"
	if mean(today) > 1.1*mean(before) {
		verdict = "**missed**"
	}
	perRound := func(xs []float64) string {
		var parts []string
		for _, x := range xs {
			parts = append(parts, fmt.Sprintf("%.2f", x))
		}
		return strings.Join(parts, ", ")
	}
	fmt.Fprintf(b, "**At the shipped intervals, side by side** (the goal's measure): three Prometheus on the same backfill, scraping the same inputs, for the whole run: today's shipped pack; "+
		"today's with %s's function groups, as committed there, in place of its own; no rules. After %s, CPU over %d whole rounds of 15 minutes each (a 15m group evaluates once a round, a minute group 15 times), "+
		"less the third's: today's pack **%.2f s of CPU a round** (%s), %s's %.2f s (%s): **%+.0f%%** (goal: within 10%%, %s); the third used %s s a round. "+
		"Load average %s on 2 cores. Today's groups judged %d of %d CPU function rows with a band, %d with a reference fit, %d with both lagged branches.",
		pk.before, s.warmup, len(s.today), mean(today), perRound(today), pk.before, mean(before), perRound(before),
		100*(mean(today)-mean(before))/mean(before), verdict, perRound(s.none),
		s.load, s.thresholds, f.services*functionsPerType, s.references, s.lagged)
	if s.beforeReferences >= 0 {
		fmt.Fprintf(b, " %s's noise group recorded a reference for %d of %d.", pk.before, s.beforeReferences, f.functionRowCount())
	}
	b.WriteString("\n\nEach group's evaluation time (wall clock) a round, at its shipped interval:\n\n| group | interval | today | " + pk.before + " |\n|---|---|---:|---:|\n")
	names := map[string]bool{}
	for g := range s.todayGroups {
		names[g] = true
	}
	for g := range s.beforeGroups {
		names[g] = true
	}
	rounds := float64(len(s.today))
	totalToday, totalBefore := 0.0, 0.0
	for _, g := range slices.Sorted(func(yield func(string) bool) {
		for g := range names {
			if !yield(g) {
				return
			}
		}
	}) {
		cell := func(m map[string]float64) string {
			v, ok := m[g]
			if !ok {
				return "none"
			}
			return fmt.Sprintf("%.0f ms", 1000*v/rounds)
		}
		totalToday += s.todayGroups[g] / rounds
		totalBefore += s.beforeGroups[g] / rounds
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", g, pk.shipped[g], cell(s.todayGroups), cell(s.beforeGroups))
	}
	fmt.Fprintf(b, "| **whole pack** | | **%.0f ms** | **%.0f ms** |\n\n", 1000*totalToday, 1000*totalBefore)
}

// loadAverage is the machine's 1, 5 and 15-minute load average, as
// /proc/loadavg gives it ("" where it cannot be read).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
