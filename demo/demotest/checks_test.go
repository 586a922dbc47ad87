package demotest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The seam for the sandbox's Chromium check: the command runs with the
// URLs and a JSON file of the incidents' windows in its environment, and its
// failure fails the test.
func TestBrowserCheckSeam(t *testing.T) {
	dir := t.TempDir()
	run := newFake(dir).run
	run.RunDir = filepath.Join(dir, "run")
	if err := os.MkdirAll(run.RunDir, 0o755); err != nil {
		t.Fatal(err)
	}
	rep := &TestReport{IncidentsOn: time.Now().Add(-5 * time.Minute), Results: []Fired{{Expectation: Expectation{Story: "println", Alert: "CPUPerRequestAboveUpstream"}, Fired: true}}}
	check := `test "$HOTPATH_PROMETHEUS_URL" = http://127.0.0.1:1 && grep -q '"Service": "api"' "$HOTPATH_INCIDENTS" && grep -q FromMs "$HOTPATH_INCIDENTS" && ` +
		`test ! -e "$1/stale.png" && echo noise && echo 'demo-check: PASS println/api (cpu): the biggest increase is text.appendString' && echo 'demo-check: PASS: 1 check passed'`
	var out strings.Builder
	run.Out = &out
	shots := filepath.Join(dir, "shots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shots, "stale.png"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := browserCheck(context.Background(), run, []string{"sh", "-c", check, "sh", "{out}"}, shots, rep); got != "passed" {
		b, _ := os.ReadFile(filepath.Join(dir, "run", "incidents.json"))
		t.Errorf("%s\n%s\n%s", got, out.String(), b)
	}
	if len(rep.BrowserLines) != 2 || !strings.Contains(rep.BrowserLines[0], "PASS println/api") {
		t.Errorf("verdict lines %q: want the two demo-check lines", rep.BrowserLines)
	}
	rep.BrowserCheck, rep.BrowserTook = "passed", time.Minute
	if row := runRow(rep, "PASSED"); !strings.Contains(row, "| passed in 1m0s (1 pass, 0 fail, 0 skip) |") || !strings.Contains(row, "| PASSED | 0s | 0s | not run |") {
		t.Errorf("row %q", row)
	}
	if rows := recentRows("x\n## Recent runs (newest first)\n\n| started | a |\n|---|---|\n| 2026-11-22 05:23 UTC | PASSED |\n"); len(rows) != 1 || !strings.HasPrefix(rows[0], "| 2026-11-22") {
		t.Errorf("recent rows %q", rows)
	}
	rep.BrowserCheck = browserCheck(context.Background(), run, []string{"false"}, "", rep)
	if !strings.HasPrefix(rep.BrowserCheck, "FAILED") || rep.Passed() {
		t.Errorf("a failing check: %q, passed %v", rep.BrowserCheck, rep.Passed())
	}
}
