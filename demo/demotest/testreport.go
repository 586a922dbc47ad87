package demotest

import (
	"strings"
	"time"
)

// Fired is one expectation's outcome.
type Fired struct {
	Expectation
	After time.Duration // from the incident's start to the first poll that saw it firing
	Fired bool
	Value string
}

// TestReport is what demo-test measured.
type TestReport struct {
	Started, IncidentsOn time.Time
	Results              []Fired
	// Violations are firing alerts that must never fire: any during the
	// normal phase, any for a healthy service or instance at any time.
	Violations []string
	// AlsoFired are other alerts that fired for an incident's service (e.g.
	// the api's own CPUPerRequestRegression): true, and not asserted.
	AlsoFired []string
	// BrowserCheck is the browser check's outcome: "passed", "FAILED: ..."
	// or "not run: ..."; BrowserLines its verdict lines (one per story and
	// the last one), BrowserTook how long it ran, BrowserOut where its
	// screenshots are.
	BrowserCheck string
	BrowserLines []string
	BrowserTook  time.Duration
	BrowserOut   string
	// CostCheck is each service's live CPU and allocations over what the
	// backfilled cost model predicts, at the end of the normal phase.
	CostCheck string
	// TrafficStep is the service whose traffic doubled with the incidents
	// (World.TrafficStepJob), "" without one.
	TrafficStep string
	// MixChange is the traffic-mix change that ran from the normal phase's
	// start (World.MixChange), "" without one; MixCheck what it did to its
	// service, at the normal phase's end (mixCheck).
	MixChange, MixCheck string
	Total               time.Duration
	NoCFSWhy            string
	// Notify is the alert path's check (notifycheck.go).
	Notify NotifyReport
}

// Passed reports whether every expectation fired in time and nothing fired
// that must not.
func (r *TestReport) Passed() bool {
	for _, f := range r.Results {
		if !f.Fired {
			return false
		}
	}
	return len(r.Violations) == 0 && !strings.HasPrefix(r.BrowserCheck, "FAILED") && !strings.HasPrefix(r.Notify.Verdict, "FAILED")
}

// TestOptions configure the compressed schedule.
type TestOptions struct {
	Normal time.Duration // normal traffic before the incidents
	Within time.Duration // each alert must fire within this of its incident's start
	Poll   time.Duration
	// BrowserCheck is the sandbox's Chromium check (demo/sandbox/demo-check.mjs
	// by default): a command run once every alert fired, with
	// HOTPATH_PROMETHEUS_URL, HOTPATH_PROFILES_URL, HOTPATH_SANDBOX_URL and
	// HOTPATH_INCIDENTS (a JSON file: each story's service, alert and
	// start/end in unix ms). "{out}" in its argv is replaced by BrowserOut,
	// emptied first, where it saves its screenshots. Empty: not run.
	BrowserCheck []string
	BrowserOut   string
}
