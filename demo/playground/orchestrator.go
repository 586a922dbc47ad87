package playground

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Options configure one playground run.
type Options struct {
	Root     string // the repository
	StateDir string // logs, pid file, Prometheus data, history (git-ignored)
	BinDir   string // the demo binaries (built by Build)
	// RuleFiles are loaded by the live Prometheus: rules/ unchanged for
	// `make demo`, the demo overlay for demo-test. The first one holds the
	// recording rules the history is backfilled with.
	RuleFiles []string
	// Duration bounds the load generator and the whole live phase.
	Duration time.Duration
	// History is how much normal history to backfill (a day).
	History time.Duration
	// CalSettle, CalMeasure time each of the two calibration rates.
	CalSettle, CalMeasure time.Duration
	// NoCgroups runs without cgroups even where they are writable.
	NoCgroups bool
	// Sandbox is an optional extra process started once Prometheus is live:
	// the panel sandbox (demo/sandbox/sandbox.mjs), the built plugin on the
	// world's live data. Its argv may use {prometheus}, {profiles} and
	// {addr}; it is printed as the sandbox URL. Empty: no sandbox.
	Sandbox []string
	// SandboxOff says why there is no sandbox (e.g. `make plugin` failed):
	// printed in the header instead of its URL.
	SandboxOff string
	// SandboxRequired makes a sandbox that does not come up an error (the
	// test's browser check needs it); otherwise the playground says why and
	// runs without it.
	SandboxRequired bool
	// Notify and NotifySink are the alert path's commands (alerting.go:
	// DefaultNotify, DefaultSlackSink); NotifyPending the loaded rules' for:,
	// from which hotpath-notify derives the windows. Empty Notify: no
	// Alertmanager, no messages.
	Notify, NotifySink []string
	NotifyPending      time.Duration
	Out                io.Writer
}

// Orchestrator runs the playground: Up composes its jobs into the run, Down ends it. Each job is a
// type of its own over the processes the run started: starting them (Processes), the backfilled
// day (Backfiller), the stories (Incidents) and what the running playground says of itself
// (Status). demo-test's Playground is the methods they give the orchestrator.
type Orchestrator struct {
	*Processes
	*Incidents
	*Status
	history *Backfiller
}

// New prepares an orchestrator; nothing runs yet.
func New(opt Options, w *World) *Orchestrator {
	p := &Processes{Run: &Run{Opt: opt, World: w, Timings: map[string]time.Duration{}}, SandboxOff: opt.SandboxOff}
	return &Orchestrator{Processes: p, Incidents: &Incidents{p}, Status: &Status{p}, history: &Backfiller{p}}
}

// Build compiles the demo binaries into BinDir (go build, cached).
func Build(ctx context.Context, root, binDir string) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", binDir+string(os.PathSeparator),
		"./cmd/demo-service", "./cmd/cgroup-helper", "./cmd/container-exporter", "./cmd/kube-state-exporter", "./cmd/loadgen", "./cmd/profile-store")
	cmd.Dir = filepath.Join(root, "demo")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}
