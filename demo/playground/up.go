package playground

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/promkit"
)

// Up starts the world, one named step after another (the progress output
// prints each name and its time): preflight, start, calibrate, the load, the
// backfilled history, the alert path, Prometheus with the rules, the sandbox.
// On error the caller still calls Down.
func (o *Orchestrator) Up(ctx context.Context) error {
	if err := o.prepare(); err != nil {
		return err
	}
	if err := o.Step("preflight: stale processes and cgroups, ports, cgroups", o.preflight); err != nil {
		return err
	}
	if err := SaveWorld(o.StatePath("run", "world.json"), o.World); err != nil {
		return err
	}
	var promLive time.Time // when the scraping Prometheus started: the history ends there
	err := o.Step("start: services, container exporter, profile store, Prometheus (scraping, no rules yet)", func() (err error) {
		promLive, err = o.startScraping(ctx)
		return err
	})
	if err != nil {
		return err
	}
	var cal *Calibration
	err = o.Step(fmt.Sprintf("calibrate: every service at two request rates (%s each)", o.Opt.CalSettle+o.Opt.CalMeasure), func() (err error) {
		cal, err = o.calibrate(ctx)
		return err
	})
	if err != nil {
		return err
	}
	loadStart := time.Now()
	if err := o.startLoad(); err != nil {
		return err
	}
	if err := o.backfillHistory(ctx, cal, promLive, loadStart); err != nil {
		return err
	}
	if err := o.startAlerting(ctx); err != nil {
		return err
	}
	restart := "restart Prometheus with the history and the rule pack"
	if o.World.Thanos {
		restart = "restart Prometheus with the history; the rule pack on Thanos Ruler through Query (sidecar, ruler, query)"
	}
	if err := o.Step(restart, func() error { return o.restartWithRules(ctx) }); err != nil {
		return err
	}
	return o.startSandbox(ctx)
}

// prepare makes the run's folders, takes its lock and checks the tools.
func (o *Orchestrator) prepare() error {
	for _, d := range []string{o.StatePath("logs"), o.StatePath("run")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := o.takeLock(); err != nil {
		return err
	}
	tools := []string{"prometheus", "promtool"}
	if o.World.Thanos {
		tools = append(tools, "thanos")
	}
	for _, t := range tools {
		if _, err := os.Stat(o.tool(t)); err != nil {
			return fmt.Errorf("%s is missing: run `make tools` first", o.tool(t))
		}
	}
	o.Sup = &Supervisor{LogDir: o.StatePath("logs"), PidFile: o.StatePath("run", "pids.json")}
	return nil
}

// preflight stops what a killed run left, takes the cgroups (or says why
// not, and drops the CFS story) and checks every port.
func (o *Orchestrator) preflight() error {
	killed, err := CleanStale(o.Sup.PidFile)
	if err != nil {
		return err
	}
	if len(killed) > 0 {
		o.Logf("    stopped what a previous run left running: %s", strings.Join(killed, ", "))
	}
	m := cgroup.Default(o.World.CgroupParent)
	switch cerr := m.Check(); {
	case o.Opt.NoCgroups:
		o.NoCFSWhy = "cgroups disabled by -no-cgroups"
	case cerr != nil:
		o.NoCFSWhy = cerr.Error()
	default:
		removed, err := m.CleanStale()
		if err != nil {
			return fmt.Errorf("removing stale cgroups: %w", err)
		}
		if len(removed) > 0 {
			o.Logf("    removed stale cgroups: %s", strings.Join(removed, " "))
		}
		if o.World.CgroupParentShares > 0 {
			if err := m.SetParentShares(o.World.CgroupParentShares); err != nil {
				return err
			}
		}
		o.Cgroups = m
	}
	if o.Cgroups == nil {
		o.Logf("    NOTE: %s.\n    Running without real CFS throttling: the worker runs unlimited, no container exporter, no CFS incident.", o.NoCFSWhy)
		for _, s := range o.World.Services {
			s.Cgroup = nil
		}
	} else {
		o.Logf("    cgroups writable: groups under /sys/fs/cgroup/cpu/%s (cpu.shares %d)", o.World.CgroupParent, o.World.CgroupParentShares)
	}
	var extra map[int]string
	if len(o.Opt.Sandbox) > 0 {
		extra = map[int]string{o.World.Ports.Sandbox: "the panel sandbox (demo/sandbox/sandbox.mjs)"}
	}
	return o.World.CheckPortsWith(extra)
}

// startScraping starts the services, the exporter, the profile store, the
// profiles-to-metrics bridge and a Prometheus that scrapes them without rules; it returns when that
// Prometheus started.
func (o *Orchestrator) startScraping(ctx context.Context) (time.Time, error) {
	if err := o.startServices(ctx); err != nil {
		return time.Time{}, err
	}
	if err := o.startSidecars(ctx); err != nil {
		return time.Time{}, err
	}
	if err := o.startProfileMetrics(ctx); err != nil {
		return time.Time{}, err
	}
	dataDir := o.StatePath("prometheus", "data")
	_ = os.RemoveAll(o.StatePath("prometheus"))
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return time.Time{}, err
	}
	live := time.Now()
	prom, err := o.startPrometheus(ctx, dataDir, nil)
	if err != nil {
		return time.Time{}, err
	}
	o.prom, o.Prom = prom, prom.Client
	return live, nil
}

// calibrate measures every service's cost at two request rates: the
// history's cost model.
func (o *Orchestrator) calibrate(ctx context.Context) (*Calibration, error) {
	groups := map[string]string{}
	if o.Cgroups != nil {
		for _, s := range o.World.Services {
			if s.Cgroup != nil {
				groups[s.Cgroup.Pod] = s.Job
				groups[s.Cgroup.Name()] = s.Job
			}
		}
	}
	cal, err := Calibrate(ctx, o.World, o.Sup, o.bin("loadgen"), o.Cgroups, groups, o.Opt.CalSettle, o.Opt.CalMeasure, o.Logf)
	if err != nil {
		return nil, err
	}
	if o.Cgroups != nil {
		cal.Exporter, err = promkit.Scrape(ctx, fmt.Sprintf("http://127.0.0.1:%d/metrics", o.World.Ports.Exporter))
	}
	return cal, err
}

// backfillHistory writes the day before promLive from the calibration and,
// for the bridge's function rows, from their live costs per request (raw
// series, then the recording rules level by level) into blocks that
// restartWithRules moves into Prometheus.
func (o *Orchestrator) backfillHistory(ctx context.Context, cal *Calibration, promLive, loadStart time.Time) error {
	histDir := o.StatePath("history")
	histData := filepath.Join(histDir, "data")
	_ = os.RemoveAll(histDir)
	if err := os.MkdirAll(histData, 0o755); err != nil {
		return err
	}
	bf := &promkit.Backfill{Promtool: o.tool("promtool"), Prometheus: o.tool("prometheus"), Dir: histDir, DataDir: histData,
		Launcher: o.Sup, Logf: o.Logf, MaxBlockDuration: 24 * time.Hour}
	histStart := promLive.Add(-o.Opt.History)
	var fns *FunctionCosts
	err := o.Step(fmt.Sprintf("bridge: each function's share of its service's profile over %s of live load", functionMeasure), func() (err error) {
		fns, err = o.functionCostsOf(ctx, loadStart, functionSettle, functionMeasure)
		return err
	})
	if err != nil {
		return err
	}
	err = o.Step(fmt.Sprintf("history: %s of normal traffic, raw series (promtool tsdb create-blocks-from openmetrics)", o.Opt.History), func() error {
		h := &History{World: o.World, Cal: cal, End: promLive, LoadStart: loadStart, Length: o.Opt.History, Step: ScrapeInterval, Seed: uint64(promLive.Unix()),
			Functions: fns}
		om := filepath.Join(histDir, "history.om")
		ns, n, err := h.WriteOpenMetrics(om)
		if err != nil {
			return err
		}
		o.Logf("    %d series, %d samples, %s .. %s", ns, n, histStart.Format("Jan 2 15:04:05"), promLive.Add(-ScrapeInterval).Format("15:04:05"))
		if err := bf.Raw(ctx, om); err != nil {
			return err
		}
		return os.Remove(om)
	})
	if err != nil {
		return err
	}
	return o.Step("history: recording rules, one dependency level per pass (promtool tsdb create-blocks-from rules)", func() error {
		_, err := bf.Rules(ctx, histStart, promLive.Add(-time.Second), o.Opt.RuleFiles[0])
		return err
	})
}

// restartWithRules stops the scraping Prometheus, moves the history's blocks
// into its data and starts it again with the rule pack.
func (o *Orchestrator) restartWithRules(ctx context.Context) error {
	o.prom.Stop()
	if err := promkit.MoveBlocks(o.StatePath("history", "data"), o.StatePath("prometheus", "data")); err != nil {
		return err
	}
	rules := o.Opt.RuleFiles
	if o.World.Thanos {
		rules = nil // the ruler evaluates them (startThanos)
	}
	prom, err := o.startPrometheus(ctx, o.StatePath("prometheus", "data"), rules)
	if err != nil {
		return err
	}
	o.prom, o.Prom = prom, prom.Client
	if o.World.Thanos {
		if err := o.startThanos(ctx, o.StatePath("prometheus", "data")); err != nil {
			return err
		}
	}
	o.LiveAt = time.Now()
	for _, f := range o.Opt.RuleFiles {
		o.Logf("    rules: %s", f)
	}
	return nil
}
