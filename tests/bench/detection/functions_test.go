//go:build bench

package detection

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/tests/harness"
)

var (
	perCellFlag = flag.Int("per-cell", 4, "bench-functions: services per kind, size of regression and size class whose regression is an existing function's (4 on each of 3 seeds: every even onset hour once)")
	newFlag     = flag.Int("new-per-cell", 4, "bench-functions: services per kind, size of regression and size class whose regression is a new function's")
	benignFlag  = flag.Int("benign", 3, "bench-functions: services per benign day and size class")
	fixedFlag   = flag.String("fixed-share", "0.2,0.5", "bench-functions: the range of a service's fixed share of its CPU and allocations (the rest per request)")
)

// TestBenchFunctions judges the function alert, with and without its cost
// model, beside the service alerts on the fleets of the given seeds (one
// after the other, each in a history of its own) whose profiles carry
// one-function regressions and benign days; writes BENCH_OUT
// (tests/bench/RESULTS-functions.md).
func TestBenchFunctions(t *testing.T) {
	began := time.Now()
	root := harness.RepoRoot()
	shipped := harness.ShippedRules(t)
	share, err := apart(harness.ParseRules(t, harness.RuleFiles(filepath.Join(root, "tests", "bench", "detection", "testdata", "pack-e96ff95"))), shipped, "_share")
	if err != nil {
		t.Fatal(err)
	}
	var conds []rulefmt.RuleGroup
	service, err := conditions(DetectorService, shipped)
	if err != nil {
		t.Fatal(err)
	}
	conds = append(conds, service)
	for _, c := range []struct {
		detector string
		pack     []rulefmt.RuleGroup
	}{{DetectorShare, share}, {DetectorModel, shipped}} {
		g, err := functionConditions(c.detector, c.pack)
		if err != nil {
			t.Fatal(err)
		}
		conds = append(conds, g)
	}
	groups := recorded(t, append(recordingGroups(shipped), recordingGroups(share)...), conds)

	var fixed [2]float64
	if _, err := fmt.Sscanf(*fixedFlag, "%g,%g", &fixed[0], &fixed[1]); err != nil || fixed[0] < 0 || fixed[1] < fixed[0] || fixed[1] >= 1 {
		t.Fatalf("-fixed-share %q: want lo,hi with 0 <= lo <= hi < 1 (%v)", *fixedFlag, err)
	}
	shape := FleetShape{PerCell: *perCellFlag, NewPerCell: *newFlag, Benign: *benignFlag, Fixed: fixed}
	end := time.Now().Truncate(time.Hour).Add(-time.Hour)
	start := end.Add(-days * 24 * time.Hour)
	seedList := seeds(t)
	run := functionRun{seeds: seedList, shape: shape, entries: map[string][]Entry{}, seen: map[string]map[string]map[string]Seen{}}
	for _, d := range FunctionDetectors {
		run.seen[d] = map[string]map[string]Seen{}
	}
	for i, seed := range seedList {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			genBegan := time.Now()
			fleet := FunctionFleet(seed, i, len(seedList), shape)
			keep := ""
			if *keepFlag != "" {
				keep = filepath.Join(*keepFlag, fmt.Sprintf("seed-%d", seed))
			}
			h := newHistory(t, keep)
			defer h.Close()
			rng := rand.New(rand.NewPCG(seed, 17))
			for _, s := range fleet {
				series, e := s.Series(start, rng)
				h.write(series)
				run.entries[s.Job] = e
			}
			t.Logf("fleet: seed %d, %d services, %d days, %.1fM samples", seed, len(fleet), days, float64(h.samples)/1e6)
			recordBegan := time.Now()
			h.record(groups, start, end.Add(-time.Minute))
			run.seedTimes = append(run.seedTimes, [2]time.Duration{recordBegan.Sub(genBegan), time.Since(recordBegan)})
			h.finish(start)
			checkRecorded(t, h, groups, start, start.Add(onsetDay+12*time.Hour))
			for _, d := range FunctionDetectors {
				key := alertKey("function")
				if d == DetectorService {
					key = func(labels map[string]string) string { return labels["kind"] }
				}
				for job, x := range readSeen(t, h, d, start, end, key) {
					run.seen[d][job] = x
				}
			}
			run.fleet = append(run.fleet, fleet...)
		})
	}
	if t.Failed() {
		return
	}
	run.judge()
	run.info = newRunInfo(0, 0, time.Since(began))
	writeReport(t, renderFunctions(run))
}
