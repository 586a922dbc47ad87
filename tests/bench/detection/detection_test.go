//go:build bench

// Package detection benchmarks how the regression alerts detect: a generated
// fleet (diurnal traffic, noise, deploys, traffic doubling) with regressions
// of +10% to +100% in CPU per request and allocations per request, days of it
// backfilled into the real Prometheus and the rules evaluated over them
// (promtool tsdb create-blocks-from rules, one dependency level per pass),
// three detectors side by side on the same data. Not a test: `make
// bench-detection` runs it and writes tests/bench/RESULTS-detection.md.
package detection

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

// The fleets: one per seed, side by side in one backfill (their services
// named apart). The report sums them and lists each seed's false alarms.
var (
	seedsFlag = flag.String("seeds", "27", "comma-separated seeds, one generated fleet each")
	keepFlag  = flag.String("keep", "", "keep the backfilled data directory here (emptied first), to query it afterwards")
)

func seeds(t *testing.T) []uint64 {
	var out []uint64
	for _, f := range strings.Split(*seedsFlag, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			t.Fatalf("-seeds %q: %v", *seedsFlag, err)
		}
		out = append(out, n)
	}
	return out
}

// recorded are what a run records: the recording rules the conditions
// read (needed), then the conditions.
func recorded(t *testing.T, recording, conds []rulefmt.RuleGroup) []rulefmt.RuleGroup {
	t.Helper()
	groups, err := needed(recording, conds)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recording %d rules and %d conditions", len(promkit.RecordedNames(groups)), len(promkit.RecordedNames(conds)))
	return append(groups, conds...)
}

// newRunInfo is a run's info: the machine it ran on (CPU model, cores, load
// average now) and its times.
func newRunInfo(raw, rules, total time.Duration) runInfo {
	load, _ := os.ReadFile("/proc/loadavg")
	return runInfo{
		cpu: harness.CPUModel(), cores: runtime.NumCPU(), load: strings.Join(strings.Fields(string(load))[:3], " "),
		raw: raw, rules: rules, total: total,
	}
}

// writeReport logs a results file and writes it to BENCH_OUT when set.
func writeReport(t *testing.T, report string) {
	t.Helper()
	t.Log("\n" + report)
	if path := os.Getenv("BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEpisodes(t *testing.T) {
	run := func(from, n int) []int {
		var out []int
		for i := range n {
			out = append(out, from+i)
		}
		return out
	}
	cond := func(m []int) Seen { return Seen{Cond: m} }
	// 15 minutes held: pending only; 16 evaluations: fires at the 16th
	if got := episodes(cond(run(100, 15)), 0); len(got) != 0 {
		t.Errorf("15 minutes: %v, want none", got)
	}
	if got := episodes(cond(append(run(100, 16), run(200, 30)...)), 0); !slices.Equal(got, []int{115, 215}) {
		t.Errorf("got %v, want [115 215]", got)
	}
	if got := firingMinutes(cond(append(run(100, 16), 117)), 0); !slices.Equal(got, []int{115}) {
		t.Errorf("firing %v, want [115] (a gap resets)", got)
	}
	const keep = 30
	if got := firingMinutes(cond(append(run(100, 16), 117+keep)), keep*time.Minute); len(got) != keep || got[0] != 115 {
		t.Errorf("firing %v, want 115 to %d: keep_firing_for, then resolved (held once more later: pending only)", got, 114+keep)
	}
	if got := episodes(cond(append(run(100, 16), run(130, 5)...)), keep*time.Minute); !slices.Equal(got, []int{115}) {
		t.Errorf("got %v, want [115]: held again within keep_firing_for, still the same episode", got)
	}
	// the hold branch: only once firing, and it keeps the alert firing for
	// as long as it holds (then keep_firing_for)
	if got := firingMinutes(Seen{Cond: run(100, 10), Hold: run(100, 100)}, 0); len(got) != 0 {
		t.Errorf("firing %v, want none: the hold level never makes an alert fire", got)
	}
	if got := firingMinutes(Seen{Cond: run(100, 16), Hold: run(100, 100)}, 0); len(got) != 85 || got[0] != 115 || got[84] != 199 {
		t.Errorf("firing %v, want 115 to 199: held while the hold branch holds", got)
	}
	withDip := Seen{Cond: append(run(100, 16), run(300, 20)...), Hold: append(run(100, 100), run(240, 60)...)}
	if got := episodes(withDip, keep*time.Minute); !slices.Equal(got, []int{115, 315}) {
		t.Errorf("got %v, want [115 315]: resolved keep_firing_for after the hold branch, then a new episode needs its for: again", got)
	}
}

func TestBenchDetection(t *testing.T) {
	began := time.Now()
	root := harness.RepoRoot()
	h := newHistory(t, *keepFlag)

	// The detectors' rules: the shipped pack's recording groups, its two
	// regression alerts as conditions, the same for the pack with the noise
	// path switched off (today's fixed factors), and the PAD bands.
	shipped := harness.ShippedRules(t)
	fixed := fixedOnly(harness.ParseRules(t, harness.RuleFiles(harness.Render(t, filepath.Join(root, "tests", "bench", "detection", "testdata", "fixed-only.jsonnet")))))
	before, err := apart(harness.ParseRules(t, harness.RuleFiles(filepath.Join(root, "tests", "bench", "detection", "testdata", "pack-3bb8c6d"))), shipped, "_before")
	if err != nil {
		t.Fatal(err)
	}
	bands, padConditions := padRules()
	conds := []rulefmt.RuleGroup{padConditions}
	for _, c := range []struct {
		detector string
		pack     []rulefmt.RuleGroup
	}{{DetectorNoise, shipped}, {DetectorFixed, fixed}, {DetectorBefore, before}} {
		g, err := conditions(c.detector, c.pack)
		if err != nil {
			t.Fatal(err)
		}
		conds = append(conds, g)
	}
	groups := recorded(t, append(append(append(recordingGroups(shipped), recordingGroups(fixed)...), recordingGroups(before)...), bands), conds)

	// The fleet, ending an hour before now (blocks in the past, whole
	// minutes, the 5m groups aligned).
	end := time.Now().Truncate(time.Hour).Add(-time.Hour)
	start := end.Add(-days * 24 * time.Hour)
	seedList := seeds(t)
	var fleet []Service
	for _, seed := range seedList {
		rng := rand.New(rand.NewPCG(seed, 11))
		for _, s := range Fleet(seed) {
			if len(seedList) > 1 {
				s.Job = fmt.Sprintf("s%d-%s", seed, s.Job)
			}
			h.write(s.Series(start, rng))
			fleet = append(fleet, s)
		}
	}
	t.Logf("fleet: seeds %v, %d services, %d days, %.1fM samples", seedList, len(fleet), days, float64(h.samples)/1e6)
	raw := time.Since(began)
	h.record(groups, start, end.Add(-time.Minute))
	backfilled := time.Since(began)
	h.finish(start)
	p := h
	checkRecorded(t, p, groups, start, start.Add(onsetDay+12*time.Hour))
	verdicts := map[string]Verdict{}
	var alternatives []Alternative
	for _, d := range Detectors {
		seen := readSeen(t, p, d, start, end, func(labels map[string]string) string { return labels["kind"] })
		verdicts[d] = judge(fleet, seen, keepFor[d])
		if d == DetectorNoise {
			alternatives = judgeAlternatives(fleet, seen)
		}
	}

	writeReport(t, render(fleet, seedList, verdicts, alternatives, newRunInfo(raw, backfilled-raw, time.Since(began))))
}
