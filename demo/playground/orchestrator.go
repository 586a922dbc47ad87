package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/promkit"
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

// Orchestrator starts the world, backfills its history and takes it down.
type Orchestrator struct {
	Opt   Options
	World *World
	Sup   *Supervisor
	Prom  *promkit.Client
	// Cgroups is nil when cgroups are not writable here (said at start).
	Cgroups  *cgroup.Manager
	NoCFSWhy string
	groups   []*cgroup.Group
	prom     *promkit.Server // the Prometheus this playground started
	// On Thanos (World.Thanos): Prom is Thanos Query, PromDirect the
	// Prometheus behind its sidecar, RulerAt the ruler's UI.
	PromDirect *promkit.Client
	RulerAt    string
	lock       *os.File
	LiveAt     time.Time // the rules went live
	Timings    map[string]time.Duration
	timingKey  []string
	// SandboxAt is the sandbox's URL once it answers; SandboxOff why there
	// is none (from Options, or its start failed).
	SandboxAt   string
	SandboxOff  string
	sandboxProc *Proc
	// AlertmanagerAt is Alertmanager's URL once the alert path runs;
	// AlertingOff why it does not.
	AlertmanagerAt string
	AlertingOff    string
}

// New prepares an orchestrator; nothing runs yet.
func New(opt Options, w *World) *Orchestrator {
	return &Orchestrator{Opt: opt, World: w, Timings: map[string]time.Duration{}, SandboxOff: opt.SandboxOff}
}

// Logf prints one line of the run's progress.
func (o *Orchestrator) Logf(format string, args ...any) {
	fmt.Fprintf(o.Opt.Out, format+"\n", args...)
}

// Step runs one named step with its progress and duration printed.
func (o *Orchestrator) Step(name string, f func() error) error {
	o.Logf("==> %s", name)
	began := time.Now()
	err := f()
	d := time.Since(began)
	o.Timings[name] = d
	o.timingKey = append(o.timingKey, name)
	if err != nil {
		o.Logf("    %s failed after %s", name, d.Round(100*time.Millisecond))
		return err
	}
	o.Logf("    done in %s", d.Round(100*time.Millisecond))
	return nil
}

// Record adds a step timed elsewhere (the build, before the orchestrator exists).
func (o *Orchestrator) Record(name string, d time.Duration) {
	o.Timings[name] = d
	o.timingKey = append(o.timingKey, name)
}

// StatePath is a path under the run's state directory.
func (o *Orchestrator) StatePath(p ...string) string {
	return filepath.Join(append([]string{o.Opt.StateDir}, p...)...)
}

func (o *Orchestrator) bin(name string) string { return filepath.Join(o.Opt.BinDir, name) }

func (o *Orchestrator) tool(name string) string {
	return filepath.Join(o.Opt.Root, ".tools", "bin", name)
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

// Watch returns an error as soon as a supervised process exits by itself
// (the load generator is allowed to finish; the sandbox is an add-on: the
// header says when it stopped, and the browser check fails without it).
func (o *Orchestrator) Watch(ctx context.Context) error {
	for {
		for _, p := range o.Sup.Procs() {
			if done, err := p.Exited(); done && p.Name != "loadgen" && p.Name != "sandbox" && !o.alertPathOff(p.Name) {
				return fmt.Errorf("%s exited unexpectedly (%v):\n%s", p.Name, err, p.Tail(1500))
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

// Down stops every process the run started, the last started first, and
// removes its cgroups. Safe to call after a failed or partial Up.
func (o *Orchestrator) Down() error {
	var errs []error
	n := 0
	if o.Sup != nil {
		n = len(o.Sup.Procs())
		o.Sup.StopAll(10 * time.Second)
	}
	for _, g := range o.groups {
		if err := g.Remove(); err != nil {
			errs = append(errs, err)
		}
	}
	if o.Cgroups != nil {
		if _, err := o.Cgroups.CleanStale(); err != nil {
			errs = append(errs, err)
		}
	}
	if o.lock != nil {
		o.lock.Close()
		o.lock = nil
	}
	msg := fmt.Sprintf("stopped %d processes", n)
	if o.Cgroups != nil {
		msg += fmt.Sprintf(", removed the cgroups under %s", o.World.CgroupParent)
	}
	o.Logf("%s", msg)
	return errors.Join(errs...)
}
