package demotest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
)

// The results file: the run's header, its steps as timed, each
// expectation's time to fire or "did not fire", what must not fire, the
// checks, and the recent runs, newest first, ten at most.
func TestWriteResultsRecordsTheRunAndKeepsRecentRows(t *testing.T) {
	dir := t.TempDir()
	f := newFake(dir)
	f.steps = []playground.Timing{{Step: "build: the demo binaries (go build)", Took: 1234 * time.Millisecond}}
	exps := Expectations(f.run.World, true)
	rep := &TestReport{
		Started: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), Total: 12*time.Minute + 400*time.Millisecond,
		Results:    []Fired{{Expectation: exps[0], Fired: true, After: 123 * time.Second}, {Expectation: exps[2]}},
		Violations: []string{"CPUPerRequestRegression{job=cache} fired for a healthy service cache, 1m0s after the incidents started (value 2)"},
		AlsoFired:  []string{"CPUPerRequestRegression{job=api} after 3m40s"},
		CostCheck:  "api CPU 1.00 alloc 1.00", TrafficStep: "control",
		BrowserCheck: "passed", BrowserTook: 31 * time.Second, BrowserOut: filepath.Join(dir, ".cache", "demo-test", "browser-check"),
		BrowserLines: []string{"demo-check: PASS println/api (cpu): x", "demo-check: FAIL epoll/poller (cpu): y"},
		Notify:       NotifyReport{Verdict: "passed: 1 messages", Lines: []string{"m1"}, Latencies: []time.Duration{4 * time.Second}},
	}
	path := filepath.Join(dir, "results.md")
	old := "# old\n\n## Recent runs (newest first)\n\n| started | result |\n|---|---|\n"
	for i := range 10 {
		old += "| 2026-11-" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + " 00:00 UTC | PASSED |\n"
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteResults(f, path, rep, "demo/overlay-short-for.jsonnet", []string{"A: for 15m -> 2m", "B: for 15m -> 2m"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"# `make demo-test`: the last recorded run\n\nWritten by `make demo-test` (demo/demotest/demotest.go); committed as the reference run.\n\n- result: **FAILED**, 2026-11-27 10:00 UTC\n- total: **12m0s** (",
		"- rules: the demo overlay `demo/overlay-short-for.jsonnet` (only `for:` changed: 2 alerts, for 15m -> 2m)\n",
		"at 1.5 for CPU, 2 for allocations): api CPU 1.00 alloc 1.00\n",
		"| step | took |\n|---|---|\n| build: the demo binaries (go build) | 1.2s |\n",
		"| println | " + exps[0].Alert + " | `job=\"api\",upstream=\"cache\"` | 2m3s |\n| epoll | " + exps[2].Alert + " | `job=\"poller\"` | did not fire |\n",
		"With the incidents, control's traffic doubled",
		"\n- CPUPerRequestRegression{job=cache} fired for a healthy service cache, 1m0s after the incidents started (value 2)\n",
		"## Also fired for the incidents' services (true, not asserted)\n\n- CPUPerRequestRegression{job=api} after 3m40s\n",
		"**passed** in 31s, once every alert had fired",
		"```text\ndemo-check: PASS println/api (cpu): x\ndemo-check: FAIL epoll/poller (cpu): y\n```",
		"Screenshots: `.cache/demo-test/browser-check/` (not committed)",
		"**passed: 1 messages**. Time from the webhook",
		"median 4s, worst 4s over 1 incident messages.\n\n```text\nm1\n```\n",
		"| started | result | total | println | epoll | cfs | gzip | outlier | endpoint | browser check |\n|---|---|---|---|---|---|---|---|---|---|\n" +
			"| 2026-11-27 10:00 UTC | FAILED | 12m0s | 2m3s | did not fire | not run | not run | not run | not run | passed in 31s (1 pass, 1 fail, 0 skip) |\n| 2026-11-00 00:00 UTC | PASSED |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the results file lacks\n%s\n---- file:\n%s", want, got)
		}
	}
	if rows := recentRows(got); len(rows) != 10 || !strings.HasPrefix(rows[9], "| 2026-11-08 ") {
		t.Errorf("recent rows %q: want this run and the 9 newest before it", rows)
	}

	f.run.World.Thanos = true
	rep.Violations, rep.Results[1].Fired = nil, true
	if err := WriteResults(f, path, rep, "o.jsonnet", nil); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	for _, want := range []string{"# `make demo-test THANOS=1`: the last recorded run", "- result: **PASSED**", "(only `for:` changed: none)",
		"- evaluated by: Thanos Ruler through Thanos Query", "## Healthy services (control, cache, the outlier service's other instances, the shop's other routes): alerts that fired\n\nWith the incidents, control's traffic doubled (a second load generator at its rate) and nothing else changed: a load change that CPU follows, which no alert may take for a regression.\n\nnone\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("on Thanos, the results file lacks %q:\n%s", want, b)
		}
	}
}

// The console's summary: each expectation's outcome against the limit,
// the violations, the checks' verdicts.
func TestSummary(t *testing.T) {
	exps := Expectations(testWorld(), true)
	rep := &TestReport{Results: []Fired{{Expectation: exps[0], Fired: true, After: 61 * time.Second}, {Expectation: exps[2]}},
		Violations: []string{"X{job=cache} fired"}, BrowserCheck: "FAILED: exit status 1", BrowserLines: []string{"demo-check: FAIL a"}, Total: time.Hour}
	var b strings.Builder
	rep.Summary(&b, 10*time.Minute)
	want := "    println  " + exps[0].Alert + strings.Repeat(" ", 32-len(exps[0].Alert)) + " " + `job="api",upstream="cache"` + strings.Repeat(" ", 70-26) + " fired after 1m1s\n" +
		"    epoll    " + exps[2].Alert + strings.Repeat(" ", 32-len(exps[2].Alert)) + " " + `job="poller"` + strings.Repeat(" ", 70-12) + " DID NOT FIRE within 10m0s\n" +
		"    VIOLATION X{job=cache} fired\n    browser check: FAILED: exit status 1\n      demo-check: FAIL a\n    total 1h0m0s\n"
	if b.String() != want {
		t.Errorf("summary\n%s\nwant\n%s", b.String(), want)
	}
}
