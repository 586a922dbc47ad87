//go:build bench

// Package rules benchmarks the rule pack in the real Prometheus: synthetic
// fleets of 10k and 100k input series and the profile bridge's function rows,
// with a backfilled day of the recorded series the baseline reads and two of
// those the function groups read, scraped live every 15s, every group
// evaluating every 15s. It reports each group's
// prometheus_rule_group_last_duration_seconds and the pack's total, each
// function rule's time per function row, the pack's CPU a round with and
// without its noise and function groups and against an earlier pack
// (BENCH_BEFORE_REF), and a dashboard query on recorded series against the
// same query on raw series. Not a test: `make bench-rules` runs it and writes
// tests/bench/RESULTS-rules.md.
package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/prometheus/client_golang/api"
	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/tests/harness"
)

type result struct {
	input    synthetic
	recorded int
	backfill time.Duration
	groups   map[string][]float64 // group -> last durations seen (seconds)
	rules    map[string][]float64 // group/rule -> evaluation times seen (seconds)
	readsRaw map[string]bool      // group/rule -> its expression reads a raw input
	queries  []queryResult
	// CPU seconds Prometheus used per second with every group loaded, with
	// the floor's alone and with none, and the load average while measuring.
	cpuWith, cpuFloorOnly, cpuWithout float64
	load                              string
	// The quiet phases (no API polling), each a minute, alternated twice:
	// every group, and every group but the noise model's (the floor's group
	// loaded with both), and the load average over them.
	cpuAll, cpuNoNoise []float64
	cpuLoad            string
	// The same phases with every group but the function groups
	// (functionGroups), and with the earlier pack (BENCH_BEFORE_REF or
	// BENCH_BEFORE), empty without it.
	cpuNoFunctions, cpuBefore []float64
	// iterations the groups missed (an evaluation outlasting the interval:
	// its CPU is then not a round's), by phase
	missed map[string]float64
	// how many services the noise group recorded a threshold for, of all
	noiseThresholds int
	// how many CPU function rows the function groups recorded a threshold,
	// a reference fit and the lagged branches of both for
	functionThresholds, functionReferences, functionLagged int
	// the earlier pack's function rules: their times while it alone was
	// loaded (group/rule -> seconds), and how many CPU function rows its
	// noise group recorded a reference for (-1: it records none)
	beforeRules      map[string][]float64
	beforeReferences int
	unhealthy        []string // rules that failed to evaluate
	queryErrors      []string // dashboard queries that failed (a timeout under load)
	// the baseline group's durations on Thanos Ruler through Query (seconds);
	// empty when BENCH_THANOS=0
	ruler  []float64
	thanos string // the pinned Thanos version
	// today's pack against the earlier one at the shipped intervals, side
	// by side (runShipped); nil when not run
	shipped *shippedResult
}

type queryResult struct {
	name            string
	recorded, raw   string
	recordedS, rawS float64 // server-side evaluation time, median of runs
	recordedN, rawN int     // series returned
}

func TestBenchRules(t *testing.T) {
	sizes := []int{10000, 100000}
	if s := os.Getenv("BENCH_SIZES"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	ruleFiles := harness.RuleFiles(harness.Render(t, benchIntervals))
	floorFile := writeFloor(t)
	before, beforeName := beforeRules(t)
	pk := packs{shipped: map[string]time.Duration{}, before: beforeName}
	if before != nil {
		// the rest of the earlier pack may differ from today's by more than
		// its function rules (groups added since): the comparison is of the
		// function rules, so the earlier pack's function groups are measured
		// among today's other groups
		pk.sameOthers = reflect.DeepEqual(othersThanFunctions(t, ruleFiles), othersThanFunctions(t, before))
		before = withFunctionGroupsOf(t, ruleFiles, before)
	}
	for _, g := range harness.ShippedRules(t) {
		pk.shipped[g.Name] = time.Duration(g.Interval)
	}
	// the report is written after each fleet, so a run stopped during the
	// 100k fleet (it takes half an hour) keeps the 10k one's figures
	var results []result
	for _, n := range sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) { results = append(results, run(t, newSynthetic(n), ruleFiles, floorFile, before)) })
		// the goal's measure, on the first fleet only: it takes about 50 minutes
		if ref := os.Getenv("BENCH_BEFORE_REF"); ref != "" && len(results) == 1 && shippedRounds() > 0 {
			t.Run(strconv.Itoa(n)+"-shipped", func(t *testing.T) {
				s := runShipped(t, newSynthetic(n), ref)
				results[0].shipped = &s
			})
		}
		report := render(results, pk)
		fmt.Println(report)
		if path := os.Getenv("BENCH_OUT"); path != "" {
			if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// benchIntervals renders the pack with every group evaluating every 15s.
var benchIntervals = filepath.Join(harness.RepoRoot(), "tests", "bench", "rules", "testdata", "bench-intervals.jsonnet")

// run measures the pack's rule files and the floor's, loaded side by side,
// and the earlier pack's (before, nil for none) in the same Prometheus.
func run(t *testing.T, f synthetic, ruleFiles []string, floorFile string, before []string) result {
	res := result{input: f, groups: map[string][]float64{}, rules: map[string][]float64{}, readsRaw: map[string]bool{},
		missed: map[string]float64{}, beforeRules: map[string][]float64{}, beforeReferences: -1}
	start := time.Now().Truncate(scrape)
	dataDir := filepath.Join(t.TempDir(), "data")
	began := time.Now()
	if err := f.backfill(dataDir, start); err != nil {
		t.Fatal(err)
	}
	res.backfill = time.Since(began)
	t.Logf("%d input series and %d function rows: backfilled in %s", f.inputSeries(), 2*f.functionRowCount(), res.backfill.Round(time.Second))

	exp := harness.NewExporter(t, "")
	exp.Follow(t, 5*time.Second, func(now time.Time) string { return f.page(start, now) })
	p := harness.StartPrometheus(t, harness.PromConfig{
		DataDir: dataDir, RuleFiles: append(slices.Clone(ruleFiles), floorFile), Targets: []string{exp.Addr},
		ScrapeInterval: scrape, EvaluationInterval: scrape,
		// for the Thanos sidecar of the ruler's phase: Prometheus's own
		// evaluation never sees external labels
		ExternalLabels: map[string]string{harness.ReplicaLabel: "prometheus"},
	})
	defer p.Stop()

	// Collect each group's last duration after every evaluation for 2.5
	// minutes (about 10 evaluations), after 6 minutes of scraping: then the
	// 5m rate windows read the head, as on a Prometheus that has been
	// running, not the backfilled block.
	warmup := 6 * time.Minute
	if d, err := time.ParseDuration(os.Getenv("BENCH_WARMUP")); err == nil {
		warmup = d
	}
	time.Sleep(warmup)
	if dir := os.Getenv("BENCH_PPROF"); dir != "" { // a CPU profile of Prometheus, to see what dominates
		resp, err := http.Get(p.URL + "/debug/pprof/profile?seconds=45")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("prometheus-%d.pprof", f.inputSeries())), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The live inputs are there: every input series scraped, each one the
	// floor reads, the bridge's rows with them.
	inputs, err := p.Query(context.Background(), fmt.Sprintf(`count({__name__=~"%s"})`, inputNames))
	if want := f.inputSeries() + 2*f.functionRowCount(); err != nil || len(inputs) != 1 || int(inputs[0].Value) != want {
		t.Fatalf("scraped input series: %v %v, want %d", inputs, err, want)
	}
	missed0 := missedIterations(t, p)
	cpu0, t0 := processCPU(t, p), time.Now()
	eachEvaluation(t, p, func(g string, seconds float64) {
		res.groups[g] = append(res.groups[g], seconds)
		for name, r := range ruleTimes(t, p, g) {
			res.rules[g+" / "+name] = append(res.rules[g+" / "+name], r.EvaluationTime)
			res.readsRaw[g+" / "+name] = readsRawInput(r.Query)
			if r.Health != "ok" && r.Health != "unknown" || r.LastError != "" {
				res.unhealthy = append(res.unhealthy, fmt.Sprintf("%s / %s: %s %s", g, name, r.Health, r.LastError))
			}
		}
	})
	res.cpuWith = (processCPU(t, p) - cpu0) / time.Since(t0).Seconds()
	res.missed["measuring rule times"] = missedIterations(t, p) - missed0
	if len(res.unhealthy) > 0 {
		// a rule that fails returns at once: its time would not be its cost
		t.Errorf("rules failed to evaluate: %s", strings.Join(slices.Compact(slices.Sorted(slices.Values(res.unhealthy))), "; "))
	}
	res.load = loadAverage()
	ctx := context.Background()
	s, err := p.Query(ctx, `count({__name__=~"(job|instance|container|job_upstream):.+"})`)
	if err == nil && len(s) == 1 {
		res.recorded = int(s[0].Value)
	}
	key := "cluster, namespace, job"
	// The noise group did all of its work: the backfilled day of sampled
	// residuals armed a threshold for every service (else it would be
	// measured cheaper than it is).
	if th, err := p.Query(ctx, `count(job:cpu_seconds:baseline_residual_threshold)`); err == nil && len(th) == 1 {
		res.noiseThresholds = int(th[0].Value)
	}
	if res.noiseThresholds != f.services {
		t.Errorf("noise thresholds for %d services, want %d: the noise group is not measured at its full cost", res.noiseThresholds, f.services)
	}
	res.functionThresholds, res.functionReferences, res.functionLagged = functionWork(t, p, f)
	for _, q := range []struct{ name, recorded, raw string }{
		{"CPU per request per service",
			"job:cpu_seconds_per_request:ratio_rate5m",
			fmt.Sprintf("sum by (%s) (rate(process_cpu_seconds_total[5m])) / sum by (%s) (rate(http_requests_total[5m]))", key, key)},
		{"CPU per request per instance",
			"instance:cpu_seconds_per_request:ratio_rate5m",
			fmt.Sprintf("sum by (%s, instance) (rate(process_cpu_seconds_total[5m])) / sum by (%s, instance) (rate(http_requests_total[5m]))", key, key)},
	} {
		qr := queryResult{name: q.name, recorded: q.recorded, raw: q.raw}
		var errR, errW error
		qr.recordedS, qr.recordedN, errR = timeQuery(p, q.recorded)
		qr.rawS, qr.rawN, errW = timeQuery(p, q.raw)
		if err := errors.Join(errR, errW); err != nil {
			// a 1h query over raw series can outlast any timeout on a loaded
			// machine: reported, not fatal to the rule figures measured above
			res.queryErrors = append(res.queryErrors, fmt.Sprintf("%s: %v", q.name, err))
			continue
		}
		res.queries = append(res.queries, qr)
	}

	if os.Getenv("BENCH_THANOS") != "0" {
		res.ruler, res.thanos = thanosBaseline(t, p, dataDir, ruleFiles)
	}

	// The noise model's price: every group, then every group but
	// hotpath-noise, a minute each, twice over (A B A B, so a change of the
	// machine's load shows as a difference between the two pairs). Then the
	// same Prometheus with the floor's group alone, then without any rules
	// (scraping alone; last: it leaves no rule_files section to swap): the
	// differences are the pack's and the floor's CPU, which waiting for a
	// core does not inflate.
	// The earlier pack's function rules, each one's time while it alone is
	// loaded with the floor (its own groups' last durations polled as
	// above, for about 6 evaluations).
	if before != nil {
		reload(t, p, append(slices.Clone(before), floorFile))
		watchEvaluations(t, p, 90*time.Second, func(g string, _ float64) {
			if !slices.Contains(functionGroups, g) {
				return
			}
			for name, r := range ruleTimes(t, p, g) {
				res.beforeRules[g+" / "+name] = append(res.beforeRules[g+" / "+name], r.EvaluationTime)
			}
		})
	}
	noNoise := withoutGroups(t, ruleFiles, noiseGroup)
	noFunctions := withoutGroups(t, ruleFiles, functionGroups...)
	phase := func(name string, files []string) float64 {
		cores, missed := cpuWithRules(t, p, files)
		res.missed[name] += missed
		return cores
	}
	for range rounds() {
		res.cpuAll = append(res.cpuAll, phase("every group", append(slices.Clone(ruleFiles), floorFile)))
		res.cpuNoNoise = append(res.cpuNoNoise, phase("without the noise group", append(slices.Clone(noNoise), floorFile)))
		res.cpuNoFunctions = append(res.cpuNoFunctions, phase("without the function groups", append(slices.Clone(noFunctions), floorFile)))
		if before != nil {
			res.cpuBefore = append(res.cpuBefore, phase("the earlier pack", append(slices.Clone(before), floorFile)))
		}
	}
	if before != nil && recordsName(t, before, "job_function:cpu_seconds_per_request:baseline_reference") {
		// e96ff95's noise group did all of its work too (the last phase's
		// values, within the 5m since)
		res.beforeReferences = countOf(t, p, `last_over_time(job_function:cpu_seconds_per_request:baseline_reference[5m])`)
		if res.beforeReferences != f.services*(functionsPerType+1) {
			t.Errorf("the earlier pack's function references: %d, want %d", res.beforeReferences, f.services*(functionsPerType+1))
		}
	}
	res.cpuFloorOnly = phase("the floor alone", []string{floorFile})
	res.cpuWithout = phase("no rules", nil)
	res.cpuLoad = loadAverage()
	return res
}

// functionWork says that the function groups did all of their work: every
// CPU function row but `other` has a band and a reference fit (as last
// recorded: at the shipped 15m, an instant lookup finds none for most of
// the interval), and the lagged branches of both (the fit of a day ago,
// armed by a point 2d ago; the band of a day ago, armed by a sample 30h
// ago) read a value for each of them. It returns how many rows have each.
func functionWork(t *testing.T, p *harness.Prometheus, f synthetic) (thresholds, references, lagged int) {
	named := f.services * functionsPerType
	thresholds = countOf(t, p, `last_over_time(job_function:cpu_seconds_excess_share:baseline_threshold[30m])`)
	references = countOf(t, p, `last_over_time(job_function:cpu_seconds:reference_fixed[30m])`)
	lagged = min(
		countOf(t, p, `last_over_time(job_function:cpu_seconds:baseline_fixed[30m] offset 1d) and on (job, function) last_over_time(job_function:cpu_seconds:by_half[30m] offset 2d)`),
		countOf(t, p, `last_over_time(job_function:cpu_seconds_excess_share:baseline_median[30m] offset 1d) and on (job, function) last_over_time(job_function:cpu_seconds_excess_share:smoothed_sampled[30m] offset 30h)`))
	if thresholds != named || references != named || lagged != named {
		t.Errorf("CPU function rows with a threshold %d, a reference %d, both lagged branches %d; want %d each: the function groups are not measured at their full cost",
			thresholds, references, lagged, named)
	}
	return thresholds, references, lagged
}

// countOf is how many series q returns (count(q)); 0 after an error.
func countOf(t *testing.T, p *harness.Prometheus, q string) int {
	v, err := p.Query(context.Background(), "count("+q+")")
	if err != nil || len(v) != 1 {
		t.Errorf("%s: %v %v", q, v, err)
		return 0
	}
	return int(v[0].Value)
}

// beforeRules are the rule files of the earlier pack whose function rules
// the bench measures today's against, and its name: BENCH_BEFORE_REF, a
// commit whose jsonnet is rendered with this bench's intervals (`make
// bench-rules` sets e96ff95, the function rules before their cost model);
// or BENCH_BEFORE, a directory holding such a rendering
// (rules/hotpath-rules.yaml and rules/hotpath-alerts.yaml); or none.
func beforeRules(t *testing.T) ([]string, string) {
	if ref := os.Getenv("BENCH_BEFORE_REF"); ref != "" {
		files := harness.RuleFiles(renderAt(t, ref))
		harness.ParseRules(t, files)
		return files, ref
	}
	dir := os.Getenv("BENCH_BEFORE")
	if dir == "" {
		return nil, ""
	}
	files := harness.RuleFiles(dir)
	harness.ParseRules(t, files) // fails early on a wrong directory
	return files, dir
}

// renderAt renders the pack of commit ref with this bench's intervals: ref's
// jsonnet/ (git archive) in a temporary directory, this tree's
// bench-intervals.jsonnet as the entry point, as tools/render-mixin.sh
// renders one (the entry's imports, mixin.libsonnet and lib/render.libsonnet,
// found in ref's tree). The user-facing _config the entry overrides is the
// same before and after the knobs moved into jsonnet/config/.
func renderAt(t *testing.T, ref string) string {
	src, out := t.TempDir(), t.TempDir()
	archive := exec.Command("git", "-C", harness.RepoRoot(), "archive", "--format=tar", ref, "jsonnet")
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	untar.Stdin = pipe
	var stderr strings.Builder
	archive.Stderr, untar.Stderr = &stderr, &stderr
	if err := untar.Start(); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(archive.Run(), untar.Wait()); err != nil {
		t.Fatalf("git archive %s jsonnet: %v %s", ref, err, stderr.String())
	}
	render := exec.Command(harness.Tool(t, "jsonnet"), "-J", filepath.Join(src, "jsonnet"), "-c", "-m", out, "-S", benchIntervals)
	if b, err := render.CombinedOutput(); err != nil {
		t.Fatalf("render %s's pack with %s: %v\n%s", ref, benchIntervals, err, b)
	}
	return out
}

// withFunctionGroupsOf writes today's groups with the function groups of
// the earlier pack's rule files in their place, to one file.
func withFunctionGroupsOf(t *testing.T, ruleFiles, earlier []string) []string {
	theirs := map[string]rulefmt.RuleGroup{}
	for _, g := range harness.ParseRules(t, earlier) {
		if slices.Contains(functionGroups, g.Name) {
			theirs[g.Name] = g
		}
	}
	var groups []rulefmt.RuleGroup
	for _, g := range harness.ParseRules(t, ruleFiles) {
		if !slices.Contains(functionGroups, g.Name) {
			groups = append(groups, g)
		} else if e, ok := theirs[g.Name]; ok {
			groups = append(groups, e)
		}
	}
	return []string{harness.WriteRules(t, groups, "with-earlier-function-groups.yaml")}
}

// othersThanFunctions are the rule files' groups but the function groups.
func othersThanFunctions(t *testing.T, files []string) []rulefmt.RuleGroup {
	var out []rulefmt.RuleGroup
	for _, g := range harness.ParseRules(t, files) {
		if !slices.Contains(functionGroups, g.Name) {
			out = append(out, g)
		}
	}
	return out
}

// recordsName says whether the rule files record a series of that name.
func recordsName(t *testing.T, files []string, name string) bool {
	for _, g := range harness.ParseRules(t, files) {
		for _, r := range g.Rules {
			if r.Record == name {
				return true
			}
		}
	}
	return false
}

// rounds is how many times the CPU phases alternate (BENCH_ROUNDS, 2 by
// default): each more costs 4 minutes and narrows the comparisons.
func rounds() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 2
}

// noiseGroup is the noise model's group, measured with and without.
const noiseGroup = "hotpath-noise"

// functionGroups are the function rules' groups (the profile bridge's rows
// in, FunctionCostPerRequestRegression out), measured with and without; an
// earlier pack has some of them (e96ff95 no model group).
var functionGroups = []string{"hotpath-functions", "hotpath-functions-model", "hotpath-functions-noise", "hotpath-function-alerts"}

// withoutGroups writes the rule files' groups but the named ones to one file.
func withoutGroups(t *testing.T, ruleFiles []string, groups ...string) []string {
	var keep []rulefmt.RuleGroup
	found := 0
	for _, g := range harness.ParseRules(t, ruleFiles) {
		if slices.Contains(groups, g.Name) {
			found++
			continue
		}
		keep = append(keep, g)
	}
	if found != len(groups) {
		t.Fatalf("not every group of %v in %v", groups, ruleFiles)
	}
	return []string{harness.WriteRules(t, keep, "without-"+strings.Join(groups, "-")+".yaml")}
}

// reload points p's rule_files at files and reloads it.
func reload(t *testing.T, p *harness.Prometheus, files []string) {
	cfg := filepath.Join(p.Dir, "prometheus.yml")
	raw, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ruleFilesSection := regexp.MustCompile(`(?s)rule_files:\n(  - [^\n]*\n)+`)
	if !ruleFilesSection.Match(raw) {
		t.Fatal("prometheus.yml has no rule_files section to replace")
	}
	if err := os.WriteFile(cfg, ruleFilesSection.ReplaceAll(raw, []byte(promkit.RuleFilesYAML(files))), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Reload(t)
	if n, err := p.RuleGroups(context.Background()); err != nil || (n == 0) != (len(files) == 0) {
		t.Fatalf("after reload with rule files %v: %d rule groups (%v)", files, n, err)
	}
}

// cpuWithRules reloads p with only these rule files and returns the CPU
// seconds it uses per second over a minute, after 20s to settle, and the
// evaluations its groups missed in that minute.
func cpuWithRules(t *testing.T, p *harness.Prometheus, files []string) (cores, missed float64) {
	reload(t, p, files)
	time.Sleep(20 * time.Second)
	missed0 := missedIterations(t, p)
	cpu0, t0 := processCPU(t, p), time.Now()
	time.Sleep(60 * time.Second)
	cores = (processCPU(t, p) - cpu0) / time.Since(t0).Seconds()
	return cores, missedIterations(t, p) - missed0
}

// missedIterations is the evaluations every loaded group has missed so far
// (prometheus_rule_group_iterations_missed_total: one that outlasted its
// interval delays the next).
func missedIterations(t *testing.T, p *harness.Prometheus) float64 {
	sum := 0.0
	for _, v := range promkit.ValuesBy(p.SelfMetrics(t)["prometheus_rule_group_iterations_missed_total"], "rule_group") {
		sum += v
	}
	return sum
}

// processCPU is Prometheus's own process_cpu_seconds_total.
func processCPU(t *testing.T, p *harness.Prometheus) float64 {
	cpu, ok := promkit.ValuesBy(p.SelfMetrics(t)["process_cpu_seconds_total"], "")[""]
	if !ok {
		t.Fatal("no process_cpu_seconds_total")
	}
	return cpu
}

// timeQuery runs a 1h range query at a 15s step (a dashboard panel) 5 times
// and returns the median server-side evaluation time and the series count.
// v1.API's QueryRange drops the response's "stats", the one thing wanted
// here, so this call sends the request through client_golang's api.Client and
// decodes the response itself.
func timeQuery(p *harness.Prometheus, q string) (float64, int, error) {
	c, err := api.NewClient(api.Config{Address: p.URL, Client: &http.Client{Timeout: queryTimeout}})
	if err != nil {
		return 0, 0, err
	}
	end := time.Now().Add(-time.Minute)
	u := c.URL("/api/v1/query_range", nil)
	u.RawQuery = url.Values{
		"query": {q}, "stats": {"all"},
		"start": {strconv.FormatInt(end.Add(-time.Hour).Unix(), 10)},
		"end":   {strconv.FormatInt(end.Unix(), 10)},
		"step":  {"15"},
	}.Encode()
	var times []float64
	n := 0
	for i := 0; i < 5; i++ {
		req, err := http.NewRequest(http.MethodGet, u.String(), nil)
		if err != nil {
			return 0, 0, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
		_, body, err := c.Do(ctx, req)
		cancel()
		var resp struct {
			Status, ErrorType, Error string
			Data                     struct {
				Result []json.RawMessage
				Stats  struct {
					Timings struct{ EvalTotalTime float64 }
				}
			}
		}
		if err == nil {
			err = json.Unmarshal(body, &resp)
		}
		if err == nil && resp.Status != "success" {
			err = fmt.Errorf("%s: %s", resp.ErrorType, resp.Error)
		}
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", q, err)
		}
		times = append(times, resp.Data.Stats.Timings.EvalTotalTime)
		n = len(resp.Data.Result)
	}
	sort.Float64s(times)
	return times[len(times)/2], n, nil
}

// queryTimeout bounds one dashboard query: a 1h range over 100k raw series
// takes tens of seconds on 2 busy cores, past the API's usual minute.
const queryTimeout = 5 * time.Minute

// ruleCost is a count of rules and the sum of their median times.
type ruleCost struct {
	n  int
	ms float64
}

// splitByInput sums the rules' medians into those that read a raw input and
// those that read only recorded series (the floor's group is neither).
func (r result) splitByInput() (raw, derived ruleCost) {
	for name, ds := range r.rules {
		if strings.HasPrefix(name, floorGroup+" / ") {
			continue
		}
		c := &derived
		if r.readsRaw[name] {
			c = &raw
		}
		c.n++
		c.ms += median(ds) * 1000
	}
	return raw, derived
}

// ruleTimes reads each rule of a group (its last evaluation time, its
// expression), by its place and name.
func ruleTimes(t *testing.T, p *harness.Prometheus, group string) map[string]promkit.Rule {
	ctx, cancel := context.WithTimeout(context.Background(), harness.APITimeout)
	defer cancel()
	rules, err := p.Rules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]promkit.Rule{}
	i := 0
	for _, r := range rules {
		if r.Group == group {
			i++
			out[fmt.Sprintf("%02d %s", i, r.Name)] = r
		}
	}
	return out
}

// eachEvaluation watches p's rule groups for 2.5 minutes (about 10
// evaluations at the bench's 15s) and calls fn once per new evaluation of a
// group, with its duration.
func eachEvaluation(t *testing.T, p *harness.Prometheus, fn func(group string, seconds float64)) {
	watchEvaluations(t, p, 150*time.Second, fn)
}

// watchEvaluations is eachEvaluation for as long as given.
func watchEvaluations(t *testing.T, p *harness.Prometheus, d time.Duration, fn func(group string, seconds float64)) {
	seen := map[string]float64{}
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		last, durations := groupTimes(t, p)
		for g, at := range last {
			if seen[g] != at {
				seen[g] = at
				fn(g, durations[g])
			}
		}
		time.Sleep(2 * time.Second)
	}
}

// groupTimes reads each rule group's last evaluation timestamp and duration
// from Prometheus's own /metrics, by group name (without its file).
func groupTimes(t *testing.T, p *harness.Prometheus) (last, durations map[string]float64) {
	self := p.SelfMetrics(t)
	byGroup := func(name string) map[string]float64 {
		out := map[string]float64{}
		for g, v := range promkit.ValuesBy(self[name], "rule_group") {
			out[g[strings.LastIndex(g, ";")+1:]] = v
		}
		return out
	}
	return byGroup("prometheus_rule_group_last_evaluation_timestamp_seconds"), byGroup("prometheus_rule_group_last_duration_seconds")
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// fmtCores lists CPU figures in cores: "0.151, 0.149".
func fmtCores(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.3f", x))
	}
	return strings.Join(parts, ", ")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
