// Command hotpath-demo runs the hotpath playground (demo/playground):
//
//	hotpath-demo run       `make demo`: the world on its well-known ports with rules/ unchanged,
//	                       a day of backfilled history, the incident schedule and a live status table
//	hotpath-demo test      `make demo-test`: the same world on free ports with the demo overlay
//	                       (only `for:` shortened), every incident at once, alerts asserted
//	hotpath-demo incident NAME on|off   switch one incident of the running playground by hand
//	                       (gzip on: gzipper's new version first, the regression 2m later)
//	hotpath-demo clean     stop what a killed run left running and remove its cgroups
//	hotpath-demo screenshots   copy the last demo-test's browser-check diffs into docs/img
//
// Run it from the repository root (the Makefile does); -h after a
// subcommand lists its flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/demo/demotest"
	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

const overlayEntry = "demo/overlay-short-for.jsonnet"

// The panel sandbox and its Chromium check (tests/browser/README.md). Both
// need plugin/dist (make plugin); the check also needs Chromium
// (tools/install-chromium.sh). The Makefile targets provide them.
const (
	defaultSandbox      = "node demo/sandbox/sandbox.mjs --prometheus {prometheus} --profiles {profiles} --listen {addr}"
	defaultBrowserCheck = "node demo/sandbox/demo-check.mjs --out {out}"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	root, err := os.Getwd()
	if err == nil {
		if _, err = os.Stat(filepath.Join(root, "demo", "go.mod")); err != nil {
			err = fmt.Errorf("run hotpath-demo from the repository root (no demo/go.mod in %s)", root)
		}
	}
	if err != nil {
		fail(err)
	}
	switch os.Args[1] {
	case "run":
		os.Exit(run(root, os.Args[2:]))
	case "test":
		os.Exit(test(root, os.Args[2:]))
	case "incident":
		os.Exit(incident(root, os.Args[2:]))
	case "clean":
		os.Exit(clean(root, os.Args[2:]))
	case "screenshots":
		os.Exit(screenshots(root, os.Args[2:]))
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: hotpath-demo run|test|incident NAME on|off|clean|screenshots [flags]")
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "hotpath-demo: %v\n", err)
	os.Exit(1)
}

// signals cancels the context at the first SIGINT/SIGTERM (orderly
// shutdown) and kills every child at the second.
func signals(o **playground.Orchestrator) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-ch
		fmt.Fprintf(os.Stderr, "\nhotpath-demo: %s: stopping every process and removing the cgroups (again to kill at once)\n", s)
		cancel()
		<-ch
		if *o != nil && (*o).Sup != nil {
			(*o).Sup.KillAll()
		}
		os.Exit(130)
	}()
	return ctx, cancel
}

func buildStep(ctx context.Context, root, binDir string) (time.Duration, error) {
	fmt.Printf("==> build: the demo binaries (go build, cached after the first run) into %s\n", binDir)
	began := time.Now()
	if err := playground.Build(ctx, root, binDir); err != nil {
		return 0, err
	}
	d := time.Since(began)
	fmt.Printf("    done in %s\n", d.Round(100*time.Millisecond))
	return d, nil
}

func splitCmd(s string) []string { return strings.Fields(s) }

func run(root string, args []string) int {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	duration := fs.Duration("duration", 3*time.Hour, "how long the playground runs before it stops by itself (the load generator's bound)")
	schedule := fs.Bool("schedule", true, "switch the incidents on and off by the schedule (false: only by hand)")
	normal := fs.Duration("normal", 10*time.Minute, "normal traffic before the first incident")
	on := fs.Duration("on", 25*time.Minute, "how long each incident stays on (rules/ fire 15-20 min after the start)")
	off := fs.Duration("off", 5*time.Minute, "pause after each incident")
	history := fs.Duration("history", 24*time.Hour, "normal history backfilled before the start")
	noCgroups := fs.Bool("no-cgroups", false, "run without cgroups (no CFS incident) even where they are writable")
	sandbox := fs.String("sandbox", defaultSandbox, "the panel sandbox: a process started once Prometheus is live, its URL shown in the header "+
		"({prometheus}, {profiles}, {addr} are replaced; '' for none)")
	sandboxOff := fs.String("sandbox-off", "", "run without the sandbox, saying why (the Makefile passes it when make plugin failed)")
	notify := fs.String("notify", playground.DefaultNotify, "the alert path: hotpath-notify behind a real Alertmanager, writing to .cache/demo/notify "+
		"({profiles}, {addr}, {out}, {slack}, {pending} are replaced; '' for none)")
	refresh := fs.Duration("refresh", 10*time.Second, "status table refresh")
	thanos := fs.Bool("thanos", false, "run the rule pack on Thanos Ruler through Thanos Query (a sidecar on Prometheus, which only scrapes); "+
		"the sandbox and the status read through Query (needs `make tools-thanos`; make demo THANOS=1)")
	_ = fs.Parse(args)

	stateDir := filepath.Join(root, ".cache", "demo")
	var o *playground.Orchestrator
	ctx, cancel := signals(&o)
	defer cancel()
	binDir := filepath.Join(root, ".cache", "demo", "bin")
	buildTook, err := buildStep(ctx, root, binDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo: %v\n", err)
		return 1
	}
	sandboxCmd := splitCmd(*sandbox)
	if *sandboxOff != "" {
		sandboxCmd = nil
		fmt.Printf("==> NOTE: no panel sandbox: %s; the rest of the playground runs\n", *sandboxOff)
	}
	w := playground.DefaultWorld(func(p int) int { return p }, "hotpath-demo")
	w.Thanos = *thanos
	o = playground.New(playground.Options{
		Root: root, StateDir: stateDir, BinDir: binDir,
		RuleFiles: []string{filepath.Join(root, "rules", "hotpath-rules.yaml"), filepath.Join(root, "rules", "hotpath-alerts.yaml")},
		Duration:  *duration, History: *history,
		CalSettle: 5 * time.Second, CalMeasure: 30 * time.Second,
		NoCgroups: *noCgroups, Sandbox: sandboxCmd, SandboxOff: *sandboxOff, Out: os.Stdout,
		Notify: splitCmd(*notify), NotifySink: splitCmd(playground.DefaultSlackSink), NotifyPending: 15 * time.Minute,
	}, w)
	o.Record("build: the demo binaries (go build)", buildTook)
	began := time.Now()
	err = o.Up(ctx)
	if err == nil {
		where := "Prometheus " + o.Prom.URL
		if o.PromDirect != nil {
			where = fmt.Sprintf("Thanos Query %s, Thanos Ruler %s (over Prometheus %s)", o.Prom.URL, o.RulerAt, o.PromDirect.URL)
		}
		fmt.Printf("==> live after %s (build %s): %s, rules loaded unchanged\n", time.Since(began).Round(time.Second), buildTook.Round(time.Second), where)
		if o.SandboxAt != "" {
			fmt.Printf("==> the panel sandbox: %s\n", o.SandboxAt)
		}
		if o.AlertmanagerAt != "" {
			fmt.Printf("==> alerts: Alertmanager %s -> hotpath-notify -> %s and %s\n", o.AlertmanagerAt, o.NotifyDir(), o.SlackFile())
		}
		var sched []playground.Step
		if *schedule {
			sched = playground.WithRollouts(playground.DemoSchedule(playground.Stories, *normal, *on, *off))
			// the endpoint story's traffic-mix change runs from the start, so
			// that its route's regression comes long after the mix moved
			if m, merr := o.StartMixChange(); merr != nil {
				err = merr
			} else if m != nil {
				fmt.Printf("==> traffic mix: %s's %s gets %s req/s more from now on (no code change)\n", m.Job, m.Route, m.Rate)
			}
		}
		fi, _ := os.Stdout.Stat()
		tty := fi != nil && fi.Mode()&os.ModeCharDevice != 0
		r := *refresh
		if !tty && r < time.Minute {
			r = time.Minute
		}
		if err == nil {
			err = o.RunLive(ctx, playground.LiveOptions{
				Schedule: sched, Refresh: r, Redraw: tty,
				RuleNote: "rules/hotpath-rules.yaml, rules/hotpath-alerts.yaml, unchanged (for: 15m: an alert fires 15-20 min after its incident starts)",
			})
		}
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	if derr := o.Down(); derr != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo: cleanup: %v\n", derr)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo: %v\n", err)
		fmt.Fprintf(os.Stderr, "logs: %s\n", filepath.Join(stateDir, "logs"))
		return 1
	}
	return 0
}

func test(root string, args []string) int {
	fs := flag.NewFlagSet("test", flag.ExitOnError)
	normal := fs.Duration("normal", 5*time.Minute, "normal traffic after the rules went live, before the incidents (no alert may fire)")
	within := fs.Duration("within", 10*time.Minute, "each incident's alert must fire within this of its start")
	timeout := fs.Duration("timeout", 35*time.Minute, "bound on the whole test, build included")
	results := fs.String("results", "demo/demo-test-results.md", "where to write the results (committed; with -thanos demo/demo-test-results-thanos.md)")
	noCgroups := fs.Bool("no-cgroups", false, "run without cgroups (no CFS incident)")
	browser := fs.String("browser-check", defaultBrowserCheck, "command run once every alert fired: the sandbox's Chromium check "+
		"({out} is replaced by .cache/demo-test/browser-check, emptied first; '' for none)")
	sandbox := fs.String("sandbox", defaultSandbox, "the panel sandbox (see run -sandbox; '' for none, which needs -browser-check '')")
	notify := fs.String("notify", playground.DefaultNotify, "the alert path: hotpath-notify behind a real Alertmanager, writing to .cache/demo-test/notify "+
		"({profiles}, {addr}, {out}, {slack}, {pending} are replaced; '' for none)")
	thanos := fs.Bool("thanos", false, "the same test with the rule pack on Thanos Ruler through Thanos Query (see run -thanos)")
	_ = fs.Parse(args)
	if *thanos && *results == "demo/demo-test-results.md" {
		*results = "demo/demo-test-results-thanos.md" // the reference run on Prometheus stays
	}
	if *browser != "" && *sandbox == "" {
		fmt.Fprintln(os.Stderr, "hotpath-demo test: the browser check needs the sandbox: -sandbox '' goes with -browser-check ''")
		return 2
	}

	started := time.Now()
	stateDir := filepath.Join(root, ".cache", "demo-test")
	var o *playground.Orchestrator
	ctx, cancel := signals(&o)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, *timeout)
	defer cancelT()

	binDir := filepath.Join(root, ".cache", "demo", "bin")
	buildTook, err := buildStep(ctx, root, binDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo test: %v\n", err)
		return 1
	}
	overlayDir := filepath.Join(stateDir, "overlay-short-for")
	overlayBegan := time.Now()
	forChanges, err := renderOverlay(ctx, root, overlayDir)
	overlayTook := time.Since(overlayBegan)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo test: %v\n", err)
		return 1
	}
	ports, err := playground.FreePorts()
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo test: %v\n", err)
		return 1
	}
	w := playground.DefaultWorld(ports, "hotpath-demotest")
	w.Thanos = *thanos
	o = playground.New(playground.Options{
		Root: root, StateDir: stateDir, BinDir: binDir,
		RuleFiles: []string{filepath.Join(overlayDir, "rules", "hotpath-rules.yaml"), filepath.Join(overlayDir, "rules", "hotpath-alerts.yaml")},
		Duration:  *timeout, History: 24 * time.Hour,
		CalSettle: 5 * time.Second, CalMeasure: 30 * time.Second,
		NoCgroups: *noCgroups, Sandbox: splitCmd(*sandbox), SandboxRequired: *browser != "", Out: os.Stdout,
		// the demo overlay's for: (demo/overlay-short-for.jsonnet)
		Notify: splitCmd(*notify), NotifySink: splitCmd(playground.DefaultSlackSink), NotifyPending: 2 * time.Minute,
	}, w)
	o.Record("build: the demo binaries (go build)", buildTook)
	o.Record("demo overlay: render and compare with rules/", overlayTook)
	var rep *demotest.TestReport
	err = o.Up(ctx)
	if err == nil {
		fmt.Printf("==> live %s after the start: %s %s with the demo overlay's rules\n", time.Since(started).Round(time.Second), map[bool]string{false: "Prometheus", true: "Thanos Query"}[w.Thanos], o.Prom.URL)
		if o.SandboxAt != "" {
			fmt.Printf("    the panel sandbox: %s\n", o.SandboxAt)
		}
		rep, err = demotest.RunTest(ctx, o, demotest.TestOptions{Normal: *normal, Within: *within, Poll: 5 * time.Second,
			BrowserCheck: splitCmd(*browser), BrowserOut: filepath.Join(stateDir, "browser-check")}, started)
	}
	code := 0
	if rep != nil {
		rep.Total = time.Since(started)
		if !rep.Passed() || err != nil {
			diag := filepath.Join(stateDir, "diagnostics.txt")
			if derr := demotest.Diagnose(context.Background(), o, rep, diag); derr != nil {
				fmt.Fprintf(os.Stderr, "diagnostics: %v\n", derr)
			} else {
				fmt.Printf("diagnostics (the recorded series over the run): %s\n", diag)
			}
		}
		path := *results
		if !filepath.IsAbs(path) {
			path = filepath.Join(root, path)
		}
		if werr := demotest.WriteResults(o, path, rep, overlayEntry, forChanges); werr != nil {
			fmt.Fprintf(os.Stderr, "results: %v\n", werr)
		}
		fmt.Printf("\n==> results (%s)\n", path)
		rep.Summary(os.Stdout, *within)
		if !rep.Passed() {
			code = 1
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo test: %v\nlogs: %s\n", err, filepath.Join(stateDir, "logs"))
		code = 1
	}
	teardown := time.Now()
	if derr := o.Down(); derr != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo test: cleanup: %v\n", derr)
		code = 1
	}
	fmt.Printf("    teardown %s\n", time.Since(teardown).Round(100*time.Millisecond))
	if code == 0 {
		fmt.Printf("demo-test: %d passed, 0 failed\n", len(rep.Results))
	} else {
		passed := 0
		if rep != nil {
			for _, r := range rep.Results {
				if r.Fired {
					passed++
				}
			}
			failed := len(rep.Results) - passed + len(rep.Violations)
			if failed == 0 {
				failed = 1 // the run itself failed
			}
			fmt.Printf("demo-test: %d passed, %d failed\n", passed, failed)
		} else {
			fmt.Printf("demo-test: 0 passed, 1 failed\n")
		}
	}
	return code
}

// renderOverlay renders the demo overlay with tools/render-mixin.sh and
// proves that its rules differ from rules/ only in `for:`.
func renderOverlay(ctx context.Context, root, dir string) ([]string, error) {
	fmt.Printf("==> demo overlay: %s rendered into %s\n", overlayEntry, dir)
	cmd := exec.CommandContext(ctx, filepath.Join(root, "tools", "render-mixin.sh"), filepath.Join(root, overlayEntry), dir)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("render %s: %v\n%s", overlayEntry, err, out)
	}
	var all []string
	for _, f := range []string{"hotpath-rules.yaml", "hotpath-alerts.yaml"} {
		shipped, err := promkit.ReadRules(filepath.Join(root, "rules", f))
		if err != nil {
			return nil, err
		}
		overlay, err := promkit.ReadRules(filepath.Join(dir, "rules", f))
		if err != nil {
			return nil, err
		}
		diffs, forChanges := promkit.DiffExceptFor(shipped, overlay)
		if len(diffs) > 0 {
			return nil, fmt.Errorf("the demo overlay's %s differs from rules/%s beyond for: (is rules/ generated from jsonnet/? make generate):\n  %s", f, f, strings.Join(diffs, "\n  "))
		}
		all = append(all, forChanges...)
	}
	fmt.Printf("    same rules as rules/ except for: %s\n", strings.Join(all, "; "))
	return all, nil
}

func incident(root string, args []string) int {
	if len(args) != 2 || (args[1] != "on" && args[1] != "off" && args[1] != "1" && args[1] != "0") {
		fmt.Fprintf(os.Stderr, "usage: hotpath-demo incident %s on|off\n", strings.Join(playground.Stories, "|"))
		return 2
	}
	w, err := playground.LoadWorld(filepath.Join(root, ".cache", "demo", "run", "world.json"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo incident: no running playground (%v): start it with make demo\n", err)
		return 1
	}
	on := args[1] == "on" || args[1] == "1"
	if on && playground.RolloutOf(args[0]) != nil {
		// the regression follows its deploy, as on the schedule
		r, was, err := w.Deploy(context.Background(), args[0])
		if err != nil {
			fmt.Fprintf(os.Stderr, "hotpath-demo incident: %v\n", err)
			return 1
		}
		if now := playground.Image(r.Job, r.To); was != now {
			fmt.Printf("rolled out %s (was %s); the %s incident follows in %s\n", now, was, args[0], playground.DeployLead)
			time.Sleep(playground.DeployLead)
		}
	}
	if err := w.Switch(context.Background(), args[0], on); err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo incident: %v\n", err)
		return 1
	}
	fmt.Printf("%s incident %s\n", args[0], map[bool]string{true: "ON", false: "off"}[on])
	return 0
}

func clean(root string, args []string) int {
	fs := flag.NewFlagSet("clean", flag.ExitOnError)
	only := fs.String("only", "", "demo or demo-test (default: both)")
	_ = fs.Parse(args)
	code := 0
	for _, c := range []struct{ dir, parent string }{{"demo", "hotpath-demo"}, {"demo-test", "hotpath-demotest"}} {
		if *only != "" && *only != c.dir {
			continue
		}
		// A running playground holds its lock: leave it alone.
		unlock, err := playground.TryLock(filepath.Join(root, ".cache", c.dir, "run", "lock"))
		if err != nil {
			fmt.Printf("clean: %v: left alone\n", err)
			continue
		}
		killed, err := playground.CleanStale(filepath.Join(root, ".cache", c.dir, "run", "pids.json"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "clean: %v\n", err)
			code = 1
		}
		if len(killed) > 0 {
			fmt.Printf("stopped: %s\n", strings.Join(killed, ", "))
		}
		m := cgroup.Default(c.parent)
		if m.Check() == nil {
			removed, err := m.CleanStale()
			if err != nil {
				fmt.Fprintf(os.Stderr, "clean: %v\n", err)
				code = 1
			}
			if len(removed) > 0 {
				fmt.Printf("removed cgroups: %s\n", strings.Join(removed, " "))
			}
		}
		unlock()
	}
	return code
}

// screenshots copies the last demo-test's diff screenshots (println, epoll,
// gzip) into docs/img for the README: an explicit step (make
// demo-screenshots), so that a test run never changes committed files.
func screenshots(root string, args []string) int {
	fs := flag.NewFlagSet("screenshots", flag.ExitOnError)
	from := fs.String("from", ".cache/demo-test/browser-check", "the browser check's output (its result.json and screenshots)")
	to := fs.String("to", "docs/img", "where the README's pictures live")
	_ = fs.Parse(args)
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	shots, err := playground.CopyScreenshots(abs(*from), abs(*to), playground.ReadmeShots)
	if err != nil {
		fmt.Fprintf(os.Stderr, "hotpath-demo screenshots: %v\n", err)
		return 1
	}
	for _, s := range shots {
		rel, _ := filepath.Rel(root, s.To)
		fmt.Printf("%-8s %s (%d KB, from %d KB): %s\n", s.Story, rel, s.After/1024, s.Before/1024, s.Verdict)
	}
	fmt.Printf("review them, then commit: git add %s\n", *to)
	return 0
}
