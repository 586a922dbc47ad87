package demotest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// RunTest runs demo-test's compressed schedule on the live world: normal
// first, then every incident at once on its own service, polling
// Prometheus's alerts API until every expected alert fired with the right
// labels or the time is up.
func RunTest(ctx context.Context, o Playground, to TestOptions, started time.Time) (*TestReport, error) {
	run := o.Running()
	rep := &TestReport{Started: started, NoCFSWhy: run.NoCFSWhy}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watch := make(chan error, 1)
	go func() { watch <- o.Watch(watchCtx) }()
	seenViolation := map[string]bool{}
	seenOther := map[string]bool{}
	exps := Expectations(run.World, run.Cgroups)
	results := make([]Fired, len(exps))
	for i, e := range exps {
		results[i] = Fired{Expectation: e}
	}
	poll := func(phase string) error {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		alerts, err := o.Alerts(ctx)
		if err != nil {
			return err
		}
		for _, a := range alerts {
			if a.State != "firing" {
				continue
			}
			id := alertID(a)
			if phase == "normal" {
				if !seenViolation[id] {
					seenViolation[id] = true
					v := fmt.Sprintf("%s fired during the normal phase, %s after the rules went live (value %s)", id, time.Since(run.LiveAt).Round(time.Second), a.Value)
					rep.Violations = append(rep.Violations, v)
					o.Logf("    VIOLATION: %s", v)
				}
				continue
			}
			if why := healthyReason(run.World, a); why != "" {
				if !seenViolation[id] {
					seenViolation[id] = true
					v := fmt.Sprintf("%s fired for a %s, %s after the incidents started (value %s)", id, why, time.Since(rep.IncidentsOn).Round(time.Second), a.Value)
					rep.Violations = append(rep.Violations, v)
					o.Logf("    VIOLATION: %s", v)
				}
				continue
			}
			matched := false
			for i := range results {
				if results[i].matches(a) {
					matched = true
					if !results[i].Fired {
						results[i].Fired, results[i].After, results[i].Value = true, time.Since(rep.IncidentsOn), a.Value
						o.Logf("    %s fired %s after its incident (%s) started: %s (value %s)", results[i].Alert, results[i].After.Round(time.Second), results[i].Story, id, a.Value)
					}
				}
			}
			if !matched && !seenOther[id] {
				seenOther[id] = true
				rep.AlsoFired = append(rep.AlsoFired, fmt.Sprintf("%s after %s", id, time.Since(rep.IncidentsOn).Round(time.Second)))
				o.Logf("    also fired (not asserted): %s", id)
			}
		}
		return nil
	}
	wait := func(until time.Time, phase string, done func() bool) error {
		for time.Now().Before(until) && !done() {
			if err := poll(phase); err != nil {
				return err
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case err := <-watch:
				if err == nil {
					err = fmt.Errorf("a process stopped")
				}
				return err
			case <-time.After(to.Poll):
			}
		}
		return nil
	}

	err := o.Step(fmt.Sprintf("normal phase: %s without incidents, no alert may fire", to.Normal), func() error {
		return wait(run.LiveAt.Add(to.Normal), "normal", func() bool { return false })
	})
	if err != nil {
		return rep, err
	}
	rep.CostCheck = costCheck(ctx, o)
	o.Logf("    live cost / the history's cost model, per service (1.0: the live series continue the history): %s", rep.CostCheck)
	var stories []string
	for _, e := range exps {
		stories = append(stories, e.Story)
	}
	err = o.Step(fmt.Sprintf("incidents: %s at once, each on its own service; each alert must fire within %s", strings.Join(stories, ", "), to.Within), func() error {
		rep.IncidentsOn = time.Now()
		for _, e := range exps {
			if err := o.Switch(ctx, e.Story, true); err != nil {
				return err
			}
			o.Logf("    %s incident ON (%s expected: %s)", e.Story, e.Alert, promkit.FormatLabels(e.Labels))
		}
		step, err := o.StartTrafficStep()
		if err != nil {
			return err
		}
		if step != nil {
			rep.TrafficStep = step.Job
			o.Logf("    traffic step ON: %s's load doubles, nothing regresses (no alert may fire; the panel must read load)", step.Job)
		}
		allFired := func() bool {
			for _, r := range results {
				if !r.Fired {
					return false
				}
			}
			return true
		}
		if err := wait(rep.IncidentsOn.Add(to.Within), "incident", allFired); err != nil {
			return err
		}
		// One last look at the alerts (violations are checked to the end).
		return poll("incident")
	})
	rep.Results = results
	if err != nil {
		return rep, err
	}
	switch exited := o.SandboxExited(); {
	case len(to.BrowserCheck) == 0:
		rep.BrowserCheck = "not run (-browser-check '')"
	case run.SandboxAt == "":
		rep.BrowserCheck = "FAILED: no sandbox to check: " + run.SandboxOff
	case exited != "":
		rep.BrowserCheck = "FAILED: the sandbox " + exited
	default:
		rep.BrowserOut = to.BrowserOut
		_ = o.Step("browser check: the sandbox in Chromium, each incident's window against its baseline", func() error {
			began := time.Now()
			rep.BrowserCheck = browserCheck(ctx, run, to.BrowserCheck, to.BrowserOut, rep)
			rep.BrowserTook = time.Since(began)
			return nil
		})
	}
	if run.AlertPath {
		// the messages went out while the browser check ran: this wait is a bound, rarely used
		_ = o.Step("alert path: hotpath-notify's messages (Alertmanager -> hotpath-notify -> folder and Slack sink)", func() error {
			rep.Notify = notifyCheck(ctx, run, 3*time.Minute)
			o.Logf("    %s; webhook to delivered: %s", rep.Notify.Verdict, rep.Notify.LatencySummary())
			return nil
		})
	}
	return rep, nil
}
