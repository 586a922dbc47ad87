//go:build bench

// Package rules benchmarks the rule pack in the real Prometheus: synthetic
// fleets of 10k and 100k input series with a backfilled day of the recorded
// series the baseline reads, scraped live every 15s, every group evaluating
// every 15s. It reports each group's prometheus_rule_group_last_duration_seconds
// and the pack's total, and a dashboard query on recorded series against the
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
	"path/filepath"
	"regexp"
	"runtime"
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
	// The same phases with the pack as it was before the noise model
	// (BENCH_BEFORE), empty without it.
	cpuBefore []float64
	// how many services the noise group recorded a threshold for, of all
	noiseThresholds int
	queryErrors     []string // dashboard queries that failed (a timeout under load)
	// the baseline group's durations on Thanos Ruler through Query (seconds);
	// empty when BENCH_THANOS=0
	ruler  []float64
	thanos string // the pinned Thanos version
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
	ruleFiles := harness.RuleFiles(harness.Render(t, filepath.Join(harness.RepoRoot(), "tests", "bench", "rules", "testdata", "bench-intervals.jsonnet")))
	floorFile := writeFloor(t)
	var results []result
	for _, n := range sizes {
		t.Run(strconv.Itoa(n), func(t *testing.T) { results = append(results, run(t, newSynthetic(n), ruleFiles, floorFile)) })
	}
	report := render(results)
	fmt.Println(report)
	if path := os.Getenv("BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run measures the pack's rule files and the floor's, loaded side by side.
func run(t *testing.T, f synthetic, ruleFiles []string, floorFile string) result {
	res := result{input: f, groups: map[string][]float64{}, rules: map[string][]float64{}, readsRaw: map[string]bool{}}
	start := time.Now().Truncate(scrape)
	dataDir := filepath.Join(t.TempDir(), "data")
	began := time.Now()
	if err := f.backfill(dataDir, start); err != nil {
		t.Fatal(err)
	}
	res.backfill = time.Since(began)
	t.Logf("%d input series: backfilled in %s", f.inputSeries(), res.backfill.Round(time.Second))

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
	// floor reads.
	inputs, err := p.Query(context.Background(), fmt.Sprintf(`count({__name__=~"%s"})`, inputNames))
	if err != nil || len(inputs) != 1 || int(inputs[0].Value) != f.inputSeries() {
		t.Fatalf("scraped input series: %v %v, want %d", inputs, err, f.inputSeries())
	}
	cpu0, t0 := processCPU(t, p), time.Now()
	eachEvaluation(t, p, func(g string, seconds float64) {
		res.groups[g] = append(res.groups[g], seconds)
		for name, r := range ruleTimes(t, p, g) {
			res.rules[g+" / "+name] = append(res.rules[g+" / "+name], r.EvaluationTime)
			res.readsRaw[g+" / "+name] = readsRawInput(r.Query)
		}
	})
	res.cpuWith = (processCPU(t, p) - cpu0) / time.Since(t0).Seconds()
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		res.load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
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
	noNoise := withoutGroup(t, ruleFiles, noiseGroup)
	before := beforeRules(t)
	for range 2 {
		res.cpuAll = append(res.cpuAll, cpuWithRules(t, p, append(slices.Clone(ruleFiles), floorFile)))
		res.cpuNoNoise = append(res.cpuNoNoise, cpuWithRules(t, p, append(slices.Clone(noNoise), floorFile)))
		if before != nil {
			res.cpuBefore = append(res.cpuBefore, cpuWithRules(t, p, append(slices.Clone(before), floorFile)))
		}
	}
	res.cpuFloorOnly = cpuWithRules(t, p, []string{floorFile})
	res.cpuWithout = cpuWithRules(t, p, nil)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		res.cpuLoad = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	return res
}

// beforeRules are the rule files of BENCH_BEFORE, a directory holding the
// pack as it was before the noise model rendered with this bench's
// intervals (rules/hotpath-rules.yaml and rules/hotpath-alerts.yaml), or nil.
func beforeRules(t *testing.T) []string {
	dir := os.Getenv("BENCH_BEFORE")
	if dir == "" {
		return nil
	}
	files := harness.RuleFiles(dir)
	harness.ParseRules(t, files) // fails early on a wrong directory
	return files
}

// noiseGroup is the noise model's group, measured with and without.
const noiseGroup = "hotpath-noise"

// withoutGroup writes the rule files' groups but the named one to one file.
func withoutGroup(t *testing.T, ruleFiles []string, group string) []string {
	var keep []rulefmt.RuleGroup
	found := false
	for _, g := range harness.ParseRules(t, ruleFiles) {
		if g.Name == group {
			found = true
			continue
		}
		keep = append(keep, g)
	}
	if !found {
		t.Fatalf("no group %s in %v", group, ruleFiles)
	}
	return []string{harness.WriteRules(t, keep, "without-"+group+".yaml")}
}

// cpuWithRules reloads p with only these rule files and returns the CPU
// seconds it uses per second over a minute, after 20s to settle.
func cpuWithRules(t *testing.T, p *harness.Prometheus, files []string) float64 {
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
	if resp, err := http.Post(p.URL+"/-/reload", "", nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("reload with rule files %v: %v %v", files, err, resp)
	}
	if n, err := p.RuleGroups(context.Background()); err != nil || (n == 0) != (len(files) == 0) {
		t.Fatalf("after reload with rule files %v: %d rule groups (%v)", files, n, err)
	}
	time.Sleep(20 * time.Second)
	cpu0, t0 := processCPU(t, p), time.Now()
	time.Sleep(60 * time.Second)
	return (processCPU(t, p) - cpu0) / time.Since(t0).Seconds()
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
	seen := map[string]float64{}
	deadline := time.Now().Add(150 * time.Second)
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

// fmtCores lists CPU figures in cores: "0.151 and 0.149".
func fmtCores(xs []float64) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, fmt.Sprintf("%.3f", x))
	}
	return strings.Join(parts, " and ")
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func render(results []result) string {
	var b strings.Builder
	host, _ := os.Hostname()
	cpu := "unknown CPU"
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "model name") {
				cpu = strings.TrimSpace(line[strings.Index(line, ":")+1:])
				break
			}
		}
	}
	fmt.Fprintf(&b, "# Rule pack benchmark\n\nWritten by `make bench-rules` (tests/bench/rules) on %s: %s, %d cores (shared with other work), %s, Prometheus v0.309.1.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), cpu, runtime.NumCPU(), host)
	b.WriteString("Each fleet: services of 10 instances, 12 input series per instance (4 request counters, process CPU, Go allocations, 6 cAdvisor series) and 2 service-graph edges per service; a day of the recorded job-level series backfilled, inputs scraped live every 15s (6 minutes before measuring, so rate windows read the head); every group evaluating every 15s (the baseline's 5m shortened so it runs often; one evaluation costs the same). Durations are the median of `prometheus_rule_group_last_duration_seconds` over about 10 evaluations. `BENCH_PPROF=DIR` saves a CPU profile of Prometheus for each fleet.\n\n")
	for _, r := range results {
		fmt.Fprintf(&b, "## %d input series (%d services)\n\n", r.input.inputSeries(), r.input.services)
		fmt.Fprintf(&b, "Recorded series: %d. Backfill: %s.\n\n| group | median duration | evaluations |\n|---|---:|---:|\n", r.recorded, r.backfill.Round(time.Second))
		var names []string
		for g := range r.groups {
			if g != floorGroup {
				names = append(names, g)
			}
		}
		sort.Strings(names)
		total := 0.0
		for _, g := range names {
			m := median(r.groups[g])
			total += m
			fmt.Fprintf(&b, "| %s | %.1f ms | %d |\n", g, m*1000, len(r.groups[g]))
		}
		fmt.Fprintf(&b, "| **whole pack** | **%.1f ms** | |\n", total*1000)
		floor := median(r.groups[floorGroup])
		fmt.Fprintf(&b, "| floor (%s: one `sum by (identity labels) (rate(input[5m]))` per input counter, `max by (identity labels) (input)` per gauge) | %.1f ms | %d |\n\n", floorGroup, floor*1000, len(r.groups[floorGroup]))
		if floor > 0 {
			verdict := "met"
			if total/floor > 1.5 {
				verdict = "**missed**"
			}
			fmt.Fprintf(&b, "**Pack / floor: %.2fx** (goal <= 1.5x: %s), measured side by side in the same Prometheus and the same run; load average %s on %d cores.\n\n",
				total/floor, verdict, r.load, runtime.NumCPU())
			raw, derived := r.splitByInput()
			fmt.Fprintf(&b, "Where the pack's time goes (sums of each rule's median): the %d rules that read a raw input take %.1f ms (%.2fx the floor); "+
				"the other %d read only recorded series and take %.1f ms, **%.2fx the floor by themselves**: with the inputs read at exactly the floor's cost, "+
				"the pack would still be %.2fx it.\n\n", raw.n, raw.ms, raw.ms/(floor*1000), derived.n, derived.ms, derived.ms/(floor*1000), 1+derived.ms/(floor*1000))
		}
		if len(r.ruler) > 0 {
			prom, ruler := median(r.groups[baselineGroup]), median(r.ruler)
			fmt.Fprintf(&b, "**On Thanos** (%s): %s evaluated by Thanos Ruler through Thanos Query, over a sidecar on this same Prometheus "+
				"(which keeps recording the other groups, so both read the same series), after this Prometheus's figures: **%.1f ms** (median of %d evaluations) "+
				"against %.1f ms evaluated inside Prometheus, **%.1fx**. Every rule of the group is a query through Query's gRPC fan-out.\n\n",
				r.thanos, baselineGroup, ruler*1000, len(r.ruler), prom*1000, ruler/prom)
		}
		inputs := median(r.groups["hotpath-requests-cpu"]) + median(r.groups["hotpath-throttling"])
		baseline := median(r.groups["hotpath-baseline"])
		perMinute := total - baseline + baseline/5
		fmt.Fprintf(&b, "Reading the inputs (hotpath-requests-cpu and hotpath-throttling read every raw series once) is %.0f%% of the pack, "+
			"the baseline %.0f%%. The baseline runs every 5m, the rest every 1m: at the shipped intervals the pack takes %.2f s a minute (%.1f%% of one core), "+
			"%.2fx the floor evaluated every minute.\n\n",
			100*inputs/total, 100*baseline/total, perMinute, 100*perMinute/60, perMinute/floor)
		if r.input.inputSeries() >= 100000 {
			verdict := "met"
			if total > 1 {
				verdict = fmt.Sprintf("**missed**, %.1fx over", total)
			}
			fmt.Fprintf(&b, "Goal: the whole pack within 1 s per evaluation at 100k input series: %.0f ms, %s. "+
				"Reading the raw inputs once (the two groups above) takes %.0f ms by itself.\n\n", total*1000, verdict, inputs*1000)
		}
		pack, floorCPU := r.cpuWith-r.cpuFloorOnly, r.cpuFloorOnly-r.cpuWithout
		fmt.Fprintf(&b, "Wall-clock durations include waiting for a core: the load average while measuring was %s on 2 cores. "+
			"CPU, which waiting does not inflate, a minute each after a reload: Prometheus used %.3f cores with every group, %.3f with the floor's group alone "+
			"and %.3f with no rules (scraping only), so one round of the pack costs **%.0f ms of CPU** (%.3f cores x 15s) and one of the floor %.0f ms: "+
			"**pack / floor by CPU: %.2fx**.\n\n",
			r.load, r.cpuWith, r.cpuFloorOnly, r.cpuWithout, pack*15*1000, pack, floorCPU*15*1000, pack/floorCPU)
		if len(r.cpuAll) > 0 {
			all, without := mean(r.cpuAll), mean(r.cpuNoNoise)
			round := func(cores float64) float64 { return (cores - r.cpuFloorOnly) * 15 }
			floorRound := (r.cpuFloorOnly - r.cpuWithout) * 15
			fmt.Fprintf(&b, "**The noise model's price** (hotpath-noise; %d of %d services with a noise threshold, so it did all of its work): "+
				"quiet minutes after a reload, no API polling, every group then every group but %s (the floor's group loaded with both), twice over: "+
				"%s cores with every group, %s without the noise group; the floor's group alone %.3f, no rules %.3f (load average %s after these phases). "+
				"One round of the pack costs **%.2f s of CPU with the noise group and %.2f s without it** (the noise group: %.2f s, %.0f%% of the pack); "+
				"the floor's round %.2f s: pack / floor by CPU **%.2fx with, %.2fx without**.\n\n",
				r.noiseThresholds, r.input.services, noiseGroup, fmtCores(r.cpuAll), fmtCores(r.cpuNoNoise), r.cpuFloorOnly, r.cpuWithout, r.cpuLoad,
				round(all), round(without), round(all)-round(without), 100*(round(all)-round(without))/round(all),
				floorRound, round(all)/floorRound, round(without)/floorRound)
		}
		if len(r.cpuBefore) > 0 {
			before := (mean(r.cpuBefore) - r.cpuFloorOnly) * 15
			with := (mean(r.cpuAll) - r.cpuFloorOnly) * 15
			fmt.Fprintf(&b, "**Against the pack before the noise model** (BENCH_BEFORE, rendered from its own jsonnet with this bench's intervals, loaded in the same Prometheus in the same phases, alternated with the two above): %s cores, "+
				"**%.2f s of CPU a round** (pack / floor %.2fx), against %.2f s for today's pack: **%+.0f%%**.\n\n",
				fmtCores(r.cpuBefore), before, before/((r.cpuFloorOnly-r.cpuWithout)*15), with, 100*(with-before)/before)
		}
		for _, e := range r.queryErrors {
			fmt.Fprintf(&b, "Dashboard query failed (not measured): %s\n\n", e)
		}
		type rt struct {
			name string
			d    float64
		}
		var top []rt
		for name, ds := range r.rules {
			top = append(top, rt{name, median(ds)})
		}
		sort.Slice(top, func(i, j int) bool { return top[i].d > top[j].d })
		b.WriteString("The most expensive rules (median evaluation time):\n\n| group / rule | median |\n|---|---:|\n")
		for i := 0; i < len(top) && i < 12; i++ {
			fmt.Fprintf(&b, "| %s | %.1f ms |\n", top[i].name, top[i].d*1000)
		}
		b.WriteString("\n")
		b.WriteString("Dashboard query, 1h at a 15s step, server-side evaluation time (median of 5):\n\n| query | recorded series | raw series | raw / recorded |\n|---|---:|---:|---:|\n")
		for _, q := range r.queries {
			fmt.Fprintf(&b, "| %s | %.1f ms (`%s`, %d series) | %.1f ms (%d series) | %.0fx |\n", q.name, q.recordedS*1000, q.recorded, q.recordedN, q.rawS*1000, q.rawN, q.rawS/q.recordedS)
		}
		b.WriteString("\n")
	}
	return b.String()
}
