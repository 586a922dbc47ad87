package demotest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// quick is a schedule of milliseconds: the fake playground answers at once.
var quick = TestOptions{Normal: 40 * time.Millisecond, Within: 300 * time.Millisecond, Poll: 5 * time.Millisecond}

// scripted answers the alerts API from the phase the fake is in: normal
// until the first incident switched on, then incidents.
func scripted(f *fakePlayground, normal, incidents []promkit.Alert) func(int) ([]promkit.Alert, error) {
	return func(int) ([]promkit.Alert, error) {
		f.mu.Lock()
		on := len(f.switched) > 0
		f.mu.Unlock()
		if on {
			return incidents, nil
		}
		return normal, nil
	}
}

func everyExpectation(f *fakePlayground) []promkit.Alert {
	var out []promkit.Alert
	for _, e := range Expectations(f.run.World, f.run.Cgroups) {
		out = append(out, expected(e))
	}
	return out
}

// A run where every incident's alert fires and nothing else does passes:
// each story is switched on, the traffic step starts, the steps are
// timed, the cost check reads the cost model.
func TestRunTestPassesWhenEveryIncidentFires(t *testing.T) {
	f := newFake(t.TempDir())
	f.step = f.run.World.Service("control")
	f.query = map[string][]promkit.Sample{
		"job:cpu_seconds:rate5m / job:cpu_seconds:baseline_predicted": {{Metric: map[string]string{"job": "api"}, Value: 1.1}},
		"job:alloc_bytes:rate5m / job:alloc_bytes:baseline_predicted": {{Metric: map[string]string{"job": "api"}, Value: 0.9}},
	}
	f.alerts = scripted(f, nil, everyExpectation(f))
	rep, err := RunTest(context.Background(), f, quick, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Passed() || len(rep.Results) != 7 || len(rep.Violations)+len(rep.AlsoFired) != 0 {
		t.Fatalf("report %+v\n%s", rep, f.log.String())
	}
	for _, r := range rep.Results {
		if !r.Fired || r.After >= quick.Within {
			t.Errorf("%s: fired %v after %s", r.Story, r.Fired, r.After)
		}
	}
	if want := []string{"println=true", "epoll=true", "cfs=true", "gzip=true", "outlier=true", "endpoint=true"}; !slices.Equal(f.switched, want) {
		t.Errorf("switched %v, want %v", f.switched, want)
	}
	if rep.TrafficStep != "control" || rep.CostCheck != "api CPU 1.10 alloc 0.90" || rep.BrowserCheck != "not run (-browser-check '')" || rep.Notify.Verdict != "" {
		t.Errorf("traffic step %q, cost %q, browser %q, notify %q", rep.TrafficStep, rep.CostCheck, rep.BrowserCheck, rep.Notify.Verdict)
	}
	var steps []string
	for _, s := range f.StepTimings() {
		steps = append(steps, s.Step)
	}
	if want := []string{"gzip after 0 switches"}; !slices.Equal(f.deployed, want) {
		t.Errorf("deployed %v, want %v (gzipper's rollout in the normal phase, before any incident)", f.deployed, want)
	}
	if want := []string{"normal phase: 40ms without incidents, no alert may fire (a rollout 2m0s before the end of it)",
		"incidents: println, epoll, cfs, gzip, outlier, endpoint at once, each on its own service; each alert must fire within 300ms"}; !slices.Equal(steps, want) {
		t.Errorf("steps %q, want %q", steps, want)
	}
	// the phase is timed from the rules going live, a moment before its step began
	if end := f.stepEnds[0].Sub(f.run.LiveAt); end < quick.Normal {
		t.Errorf("the normal phase ended %s after the rules went live, before %s", end, quick.Normal)
	}
}

// What must not fire fails the run, and an alert that never fires is
// reported as such once the time is up; the run itself completes.
func TestRunTestFailsOnViolationsAndSilentIncidents(t *testing.T) {
	f := newFake(t.TempDir())
	f.run.Cgroups = false
	some := everyExpectation(f)[:3]
	f.alerts = scripted(f, []promkit.Alert{firing("CPUPerRequestRegression", "job", "api")},
		append(some, firing("CPUPerRequestRegression", "job", "control")))
	rep, err := RunTest(context.Background(), f, quick, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed() {
		t.Fatal("passed")
	}
	var fired []string
	for _, r := range rep.Results {
		fired = append(fired, fmt.Sprintf("%s %v", r.Story, r.Fired))
	}
	if want := []string{"println true", "println true", "epoll true", "gzip false", "outlier false", "endpoint false"}; !slices.Equal(fired, want) {
		t.Errorf("results %v, want %v (no cfs without cgroups)", fired, want)
	}
	if len(rep.Violations) != 2 || !strings.HasPrefix(rep.Violations[0], "CPUPerRequestRegression{job=api} fired during the normal phase") ||
		!strings.HasPrefix(rep.Violations[1], "CPUPerRequestRegression{job=control} fired for a healthy service control") {
		t.Errorf("violations %q", rep.Violations)
	}
	if took := f.steps[1].Took; took < quick.Within {
		t.Errorf("gave up after %s, before the %s limit", took, quick.Within)
	}
}

// A process that exits, or an alerts API that fails, stops the run with
// that error; the incidents are not switched on after a failed normal phase.
func TestRunTestStopsOnAnExitOrAFailedPoll(t *testing.T) {
	f := newFake(t.TempDir())
	f.exited <- errors.New("demo-service api exited unexpectedly")
	slow := quick
	slow.Normal = time.Minute
	began := time.Now()
	rep, err := RunTest(context.Background(), f, slow, time.Now())
	if err == nil || err.Error() != "demo-service api exited unexpectedly" || rep == nil || len(f.switched) != 0 {
		t.Errorf("err %v, switched %v", err, f.switched)
	}
	if time.Since(began) > 30*time.Second {
		t.Errorf("took %s: the exit did not stop the wait", time.Since(began))
	}
	f = newFake(t.TempDir())
	f.alerts = func(int) ([]promkit.Alert, error) { return nil, errors.New("connection refused") }
	if _, err := RunTest(context.Background(), f, quick, time.Now()); err == nil || err.Error() != "connection refused" {
		t.Errorf("a failed poll: %v", err)
	}
}

// The browser check runs only on a sandbox that is up.
func TestRunTestBrowserCheckNeedsTheSandbox(t *testing.T) {
	for _, c := range []struct {
		name, at, off, exited, want string
	}{
		{"no sandbox", "", "make plugin failed", "", "FAILED: no sandbox to check: make plugin failed"},
		{"the sandbox exited", "http://127.0.0.1:1/", "", "exited (exit status 1): boom", "FAILED: the sandbox exited (exit status 1): boom"},
	} {
		f := newFake(t.TempDir())
		f.run.SandboxAt, f.run.SandboxOff, f.sandbox = c.at, c.off, c.exited
		f.alerts = scripted(f, nil, everyExpectation(f))
		to := quick
		to.BrowserCheck = []string{"true"}
		rep, err := RunTest(context.Background(), f, to, time.Now())
		if err != nil || rep.BrowserCheck != c.want || rep.Passed() {
			t.Errorf("%s: err %v, browser check %q (passed %v), want %q", c.name, err, rep.BrowserCheck, rep.Passed(), c.want)
		}
	}
}
