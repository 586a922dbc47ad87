package playground

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

func (o *Orchestrator) logf(format string, args ...any) {
	fmt.Fprintf(o.Opt.Out, format+"\n", args...)
}

// step runs one named step with its progress and duration printed.
func (o *Orchestrator) step(name string, f func() error) error {
	o.logf("==> %s", name)
	began := time.Now()
	err := f()
	d := time.Since(began)
	o.Timings[name] = d
	o.timingKey = append(o.timingKey, name)
	if err != nil {
		o.logf("    %s failed after %s", name, d.Round(100*time.Millisecond))
		return err
	}
	o.logf("    done in %s", d.Round(100*time.Millisecond))
	return nil
}

// Record adds a step timed elsewhere (the build, before the orchestrator exists).
func (o *Orchestrator) Record(name string, d time.Duration) {
	o.Timings[name] = d
	o.timingKey = append(o.timingKey, name)
}

// TimingSteps are the step names in the order they ran.
func (o *Orchestrator) TimingSteps() []string { return o.timingKey }

func (o *Orchestrator) path(p ...string) string {
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
		"./cmd/demo-service", "./cmd/cgroup-helper", "./cmd/container-exporter", "./cmd/loadgen", "./cmd/profile-store")
	cmd.Dir = filepath.Join(root, "demo")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	return nil
}

func (o *Orchestrator) takeLock() error {
	f, err := lockFile(o.path("run", "lock"))
	if err != nil {
		return err
	}
	o.lock = f
	return nil
}

// lockFile takes the run's lock (flock: released when the process dies,
// however it dies) and writes the pid into it.
func lockFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		return nil, fmt.Errorf("another playground is running from %s (pid %s): stop it first (Ctrl-C there)", filepath.Dir(filepath.Dir(path)), strings.TrimSpace(string(b)))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprint(os.Getpid())), 0)
	return f, nil
}

// TryLock takes a run's lock for a moment (hotpath-demo clean): an error
// means a playground is running there.
func TryLock(path string) (func(), error) {
	f, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

func (o *Orchestrator) startServices(ctx context.Context) error {
	cache := o.World.Service("cache")
	for _, s := range o.World.Services {
		for i, in := range s.Instances {
			argv := []string{o.bin("demo-service"), s.Kind, "-listen", in.Addr()}
			for _, a := range s.Args {
				if a == "{cache}" && cache != nil {
					a = cache.Instances[0].URL()
				}
				argv = append(argv, a)
			}
			name := s.Job
			if len(s.Instances) > 1 {
				name = fmt.Sprintf("%s-%d", s.Job, i)
			}
			if s.Cgroup != nil && o.Cgroups != nil {
				g, err := o.Cgroups.Create(s.Cgroup.Name(), s.Cgroup.CPUs, 100*time.Millisecond)
				if err != nil {
					return err
				}
				o.groups = append(o.groups, g)
				if s.Cgroup.Shares > 0 {
					if err := g.SetShares(s.Cgroup.Shares); err != nil {
						return err
					}
				}
				// exec-in joins the group before it execs the service.
				argv = append([]string{o.bin("cgroup-helper"), "exec-in", "-parent", o.World.CgroupParent, "-name", s.Cgroup.Name(), "--"}, argv...)
			}
			proc, err := o.Sup.Start(name, s.Quiet, nil, argv...)
			if err != nil {
				return err
			}
			if err := promkit.WaitHTTP(ctx, proc, in.URL()+"/admin", 20*time.Second); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			how := ""
			if s.Cgroup != nil && o.Cgroups != nil {
				how = fmt.Sprintf(" in cgroup %s/%s", o.World.CgroupParent, s.Cgroup.Name())
				if s.Cgroup.CPUs > 0 {
					how += fmt.Sprintf(" (CFS quota %.2g cores)", s.Cgroup.CPUs)
				}
				if s.Cgroup.Shares > 0 {
					how += fmt.Sprintf(" (cpu.shares %d)", s.Cgroup.Shares)
				}
			}
			o.logf("    %-10s %s%s", name, in.URL(), how)
		}
	}
	return nil
}

func (o *Orchestrator) startSidecars(ctx context.Context) error {
	if o.Cgroups != nil {
		addr := fmt.Sprintf("127.0.0.1:%d", o.World.Ports.Exporter)
		proc, err := o.Sup.Start("container-exporter", false, nil, o.bin("container-exporter"),
			"-listen", addr, "-parent", o.World.CgroupParent, "-namespace", o.World.Namespace)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/metrics", 30*time.Second); err != nil {
			return fmt.Errorf("container-exporter: %w", err)
		}
		o.logf("    %-10s http://%s/metrics (cAdvisor v0.52.1)", "cadvisor", addr)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", o.World.Ports.Profiles)
	argv := []string{o.bin("profile-store"), "-listen", addr}
	for _, t := range o.profileTargets() {
		argv = append(argv, "-target", t)
	}
	proc, err := o.Sup.Start("profile-store", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/services", 20*time.Second); err != nil {
		return fmt.Errorf("profile-store: %w", err)
	}
	o.logf("    %-10s http://%s (profile store, a stand-in for Pyroscope)", "profiles", addr)
	return nil
}

// profileTargets names each instance for the profile store by its job: the
// store merges a service's instances, as a Pyroscope query on service_name
// does, so the outlier instance's extra work shows in its service's profile.
func (o *Orchestrator) profileTargets() []string {
	var out []string
	for _, s := range o.World.Services {
		for _, in := range s.Instances {
			out = append(out, s.Job+"="+in.URL())
		}
	}
	return out
}

func (o *Orchestrator) startLoad() error {
	argv := []string{o.bin("loadgen"), "-duration", o.Opt.Duration.String(), "-report", "1m"}
	for _, t := range o.World.LoadTargets() {
		argv = append(argv, "-target", fmt.Sprintf("%s=%s@%s", t.Name, t.URL, t.Rate))
	}
	_, err := o.Sup.Start("loadgen", false, nil, argv...)
	return err
}

// startSandbox starts the panel sandbox once Prometheus is live and waits
// until it answers (it bundles its page first: seconds to a minute). When it
// does not come up, the playground says why and runs without it, unless it is
// required (demo-test).
func (o *Orchestrator) startSandbox(ctx context.Context) error {
	if len(o.Opt.Sandbox) == 0 {
		if o.SandboxOff == "" {
			o.SandboxOff = "not started (-sandbox '')"
		}
		return nil
	}
	addr := fmt.Sprintf("127.0.0.1:%d", o.World.Ports.Sandbox)
	profiles := fmt.Sprintf("http://127.0.0.1:%d", o.World.Ports.Profiles)
	err := o.step("sandbox: the built panel on live Prometheus and profile-store ("+strings.Join(o.Opt.Sandbox, " ")+")", func() error {
		argv := expand(o.Opt.Sandbox, "{prometheus}", o.Prom.URL, "{profiles}", profiles, "{addr}", addr)
		env := []string{"HOTPATH_PROMETHEUS_URL=" + o.Prom.URL, "HOTPATH_PROFILES_URL=" + profiles, "HOTPATH_SANDBOX_ADDR=" + addr}
		proc, err := o.Sup.Start("sandbox", false, env, argv...)
		if err != nil {
			return err
		}
		o.sandboxProc = proc
		if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/api/config", 3*time.Minute); err != nil {
			o.Sup.Stop(proc, 5*time.Second)
			return fmt.Errorf("the sandbox did not come up: %w", err)
		}
		o.SandboxAt = "http://" + addr + "/"
		o.logf("    %-10s %s (the built panel; the page stands in for Grafana, profile-store for Pyroscope)", "sandbox", o.SandboxAt)
		return nil
	})
	if err != nil {
		if o.Opt.SandboxRequired || ctx.Err() != nil {
			return err
		}
		o.SandboxOff = fmt.Sprintf("%v (log: %s)", firstLine(err.Error()), filepath.Join(o.Sup.LogDir, "sandbox.log"))
		o.logf("    NOTE: running without the panel sandbox: %v", err)
	}
	return nil
}

// SandboxExited says why the sandbox stopped by itself ("" while it runs,
// or when there is none).
func (o *Orchestrator) SandboxExited() string {
	if o.sandboxProc == nil || o.SandboxAt == "" {
		return ""
	}
	if done, err := o.sandboxProc.Exited(); done {
		return fmt.Sprintf("exited (%v): %s", err, lastLine(o.sandboxProc.Tail(600)))
	}
	return ""
}

// expand replaces placeholders ("{addr}", ...) in every argument of a
// command given on the command line.
func expand(argv []string, oldnew ...string) []string {
	r := strings.NewReplacer(oldnew...)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSuffix(s[:i], ":")
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
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
	o.logf("%s", msg)
	return errors.Join(errs...)
}
