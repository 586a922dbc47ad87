package demotest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// RunTest runs demo-test's compressed schedule on the live world: normal
// first, then every incident at once on its own service, polling
// Prometheus's alerts API until every expected alert fired with the right
// labels or the time is up (the poller looks, the Judge decides), then the
// browser and alert path checks. WriteResults reports.
func RunTest(ctx context.Context, o Playground, to TestOptions, started time.Time) (*TestReport, error) {
	run := o.Running()
	rep := &TestReport{Started: started, NoCFSWhy: run.NoCFSWhy}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watch := make(chan error, 1)
	go func() { watch <- o.Watch(watchCtx) }()
	exps := Expectations(run.World, run.Cgroups)
	judge := NewJudge(run.World, run.LiveAt, exps)
	pl := &poller{p: o, judge: judge, interval: to.Poll, watch: watch}

	// The traffic-mix change runs from the normal phase's start: no
	// incident is on, so while only the mix moves, any alert, and an endpoint
	// alert even pending (Judge.Observe), is a violation; its route keeps the
	// grown traffic through the incidents, where it must stay unnamed.
	mix, err := o.StartMixChange()
	if err != nil {
		return rep, err
	}
	if mix != nil {
		rep.MixChange = fmt.Sprintf("%s's %s +%s req/s", mix.Job, mix.Route, mix.Rate)
		o.Logf("    traffic mix ON: %s from the normal phase's start, no code change (no endpoint alert may name a route for it)", rep.MixChange)
	}
	err = o.Step(fmt.Sprintf("normal phase: %s without incidents, no alert may fire (a rollout %s before the end of it)", to.Normal, playground.DeployLead), func() error {
		if err := pl.until(ctx, run.LiveAt.Add(to.Normal-playground.DeployLead), Normal, func() bool { return false }); err != nil {
			return err
		}
		if err := deployBefore(ctx, o, exps); err != nil {
			return err
		}
		return pl.until(ctx, run.LiveAt.Add(to.Normal), Normal, func() bool { return false })
	})
	rep.Violations = judge.Violations
	if err != nil {
		return rep, err
	}
	rep.CostCheck = costCheck(ctx, o)
	o.Logf("    live cost / the history's cost model, per service (1.0: the live series continue the history): %s", rep.CostCheck)
	if mix != nil {
		rep.MixCheck = mixCheck(ctx, o, mix.Job)
		o.Logf("    traffic mix, %s: %s", mix.Job, rep.MixCheck)
	}
	var stories []string
	for _, e := range exps {
		stories = append(stories, e.Story)
	}
	stories = slices.Compact(stories) // a story may expect more than one alert
	err = o.Step(fmt.Sprintf("incidents: %s at once, each on its own service; each alert must fire within %s", strings.Join(stories, ", "), to.Within), func() error {
		rep.IncidentsOn = time.Now()
		judge.IncidentsOn, judge.Within = rep.IncidentsOn, to.Within
		for i, e := range exps {
			if i == 0 || exps[i-1].Story != e.Story {
				if err := o.Switch(ctx, e.Story, true); err != nil {
					return err
				}
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
		if err := pl.until(ctx, rep.IncidentsOn.Add(lastDeadline(exps, to.Within)), Incidents, judge.AllFired); err != nil {
			return err
		}
		// One last look at the alerts (violations are checked to the end).
		return pl.once(ctx, Incidents)
	})
	rep.Results, rep.Violations, rep.AlsoFired = judge.Results, judge.Violations, judge.AlsoFired
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
