//go:build bench

package detection

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

var (
	perClassFlag = flag.Int("per-class", 1, "bench-functions: services per kind, size of regression and size class whose regression is an existing function's")
	cleanFlag    = flag.Int("clean-per-class", 2, "bench-functions: clean services per size class")
	newFlag      = flag.Int("new-per-class", 1, "bench-functions: services per kind, size of regression and size class whose regression is a new function's")
	fixedFlag    = flag.String("fixed-share", "0.2,0.5", "bench-functions: the range of a service's fixed share of its CPU and allocations (the rest per request)")
)

// funcServicesPerImport: a service here has 42 to 82 rows of the bridge
// (2 profile types, 21 to 2·K+1 rows each as functions enter its set)
// besides its own 3 counters.
const funcServicesPerImport = 4

// TestBenchFunctions judges the function alert beside the service alerts on
// one fleet whose profiles carry one-function regressions; writes
// BENCH_OUT (tests/bench/RESULTS-functions.md).
func TestBenchFunctions(t *testing.T) {
	began := time.Now()
	dataDir := benchDataDir(t, *keepFlag)

	shipped := harness.ShippedRules(t)
	service, err := conditions(DetectorService, shipped)
	if err != nil {
		t.Fatal(err)
	}
	function, err := functionConditions(shipped)
	if err != nil {
		t.Fatal(err)
	}
	conds := []rulefmt.RuleGroup{service, function}
	groups, err := needed(recordingGroups(shipped), conds)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("backfilling %d recording rules and %d conditions", len(promkit.RecordedNames(groups)), len(promkit.RecordedNames(conds)))
	groups = append(groups, conds...)
	ruleFile := harness.WriteRules(t, groups, "function-rules.yaml")

	end := time.Now().Truncate(time.Hour).Add(-time.Hour)
	start := end.Add(-days * 24 * time.Hour)
	seed := seeds(t)[0]
	var fixed [2]float64
	if _, err := fmt.Sscanf(*fixedFlag, "%g,%g", &fixed[0], &fixed[1]); err != nil || fixed[0] < 0 || fixed[1] < fixed[0] || fixed[1] >= 1 {
		t.Fatalf("-fixed-share %q: want lo,hi with 0 <= lo <= hi < 1 (%v)", *fixedFlag, err)
	}
	fleet := FunctionFleet(seed, *perClassFlag, *cleanFlag, *newFlag, fixed)
	im := &importer{t: t, dataDir: dataDir}
	rng := rand.New(rand.NewPCG(seed, 17))
	entries := map[string][]Entry{} // by job
	for i, s := range fleet {
		entries[s.Job] = s.OpenMetrics(&im.om, start, rng)
		if (i+1)%funcServicesPerImport == 0 {
			im.flush()
		}
	}
	im.flush()
	t.Logf("fleet: seed %d, %d services, %d days, %.0f MB of OpenMetrics", seed, len(fleet), days, float64(im.size)/1e6)
	raw := time.Since(began)
	harness.BackfillRules(t, dataDir, []string{ruleFile}, start, end.Add(-time.Minute))
	backfilled := time.Since(began)

	p := harness.StartPrometheus(t, harness.PromConfig{DataDir: dataDir, Args: harness.LeaveOverlappingBlocks})
	checkRecorded(t, p, groups, start, start.Add(onsetDay+12*time.Hour))
	seen := map[string]map[string]map[string]Seen{
		DetectorService:  readSeen(t, p, DetectorService, start, end, func(labels map[string]string) string { return labels["kind"] }),
		DetectorFunction: readSeen(t, p, DetectorFunction, start, end, functionKey),
	}
	keys := map[string]func(Service) string{
		DetectorService:  func(s Service) string { return s.Kind },
		DetectorFunction: regressedKey(fleet),
	}
	// by detector, then size class (-1: all): the false alarms over the
	// whole fleet; the regressions of existing and of new functions apart
	run := functionRun{fleet: fleet, seed: seed, fixed: fixed, seen: seen, entries: entries, all: map[string]map[int]Verdict{},
		regressions: map[bool]map[string]map[int]Verdict{false: {}, true: {}}}
	for _, d := range FunctionDetectors {
		run.all[d] = map[int]Verdict{}
		run.regressions[false][d], run.regressions[true][d] = map[int]Verdict{}, map[int]Verdict{}
		for class := -1; class < len(SizeClasses); class++ {
			run.all[d][class] = judgeBy(inClass(fleet, class, nil), FunctionSizes, seen[d], keepFor[d], keys[d])
			for _, isNew := range []bool{false, true} {
				regressed := func(s FuncService) bool { return s.Kind != "" && s.New == isNew }
				run.regressions[isNew][d][class] = judgeBy(inClass(fleet, class, regressed), FunctionSizes, seen[d], keepFor[d], keys[d])
			}
		}
	}

	load, _ := os.ReadFile("/proc/loadavg")
	run.info = runInfo{
		cpu: cpuModel(), cores: runtime.NumCPU(), load: strings.Join(strings.Fields(string(load))[:3], " "),
		raw: raw, rules: backfilled - raw, total: time.Since(began),
	}
	report := renderFunctions(run)
	t.Log("\n" + report)
	if path := os.Getenv("BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
