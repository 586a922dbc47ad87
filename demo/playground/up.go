package playground

import (
	"context"
	"fmt"
	"os"
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
		cal, err = o.history.calibrate(ctx)
		return err
	})
	if err != nil {
		return err
	}
	loadStart := time.Now()
	if err := o.startLoad(); err != nil {
		return err
	}
	if err := o.history.backfillHistory(ctx, cal, promLive, loadStart); err != nil {
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
func (p *Processes) prepare() error {
	for _, d := range []string{p.StatePath("logs"), p.StatePath("run")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := p.takeLock(); err != nil {
		return err
	}
	tools := []string{"prometheus", "promtool"}
	if p.World.Thanos {
		tools = append(tools, "thanos")
	}
	for _, t := range tools {
		if _, err := os.Stat(p.tool(t)); err != nil {
			return fmt.Errorf("%s is missing: run `make tools` first", p.tool(t))
		}
	}
	p.Sup = &Supervisor{LogDir: p.StatePath("logs"), PidFile: p.StatePath("run", "pids.json")}
	return nil
}

// preflight stops what a killed run left, takes the cgroups (or says why
// not, and drops the CFS story) and checks every port.
func (p *Processes) preflight() error {
	killed, err := CleanStale(p.Sup.PidFile)
	if err != nil {
		return err
	}
	if len(killed) > 0 {
		p.Logf("    stopped what a previous run left running: %s", strings.Join(killed, ", "))
	}
	m := cgroup.Default(p.World.CgroupParent)
	switch cerr := m.Check(); {
	case p.Opt.NoCgroups:
		p.NoCFSWhy = "cgroups disabled by -no-cgroups"
	case cerr != nil:
		p.NoCFSWhy = cerr.Error()
	default:
		removed, err := m.CleanStale()
		if err != nil {
			return fmt.Errorf("removing stale cgroups: %w", err)
		}
		if len(removed) > 0 {
			p.Logf("    removed stale cgroups: %s", strings.Join(removed, " "))
		}
		if p.World.CgroupParentShares > 0 {
			if err := m.SetParentShares(p.World.CgroupParentShares); err != nil {
				return err
			}
		}
		p.Cgroups = m
	}
	if p.Cgroups == nil {
		p.Logf("    NOTE: %s.\n    Running without real CFS throttling: the worker runs unlimited, no container exporter, no CFS incident.", p.NoCFSWhy)
		for _, s := range p.World.Services {
			s.Cgroup = nil
		}
	} else {
		p.Logf("    cgroups writable: groups under /sys/fs/cgroup/cpu/%s (cpu.shares %d)", p.World.CgroupParent, p.World.CgroupParentShares)
	}
	var extra map[int]string
	if len(p.Opt.Sandbox) > 0 {
		extra = map[int]string{p.World.Ports.Sandbox: "the panel sandbox (demo/sandbox/sandbox.mjs)"}
	}
	return p.World.CheckPortsWith(extra)
}

// startScraping starts the services, the exporter, the profile store, the
// profiles-to-metrics bridge and a Prometheus that scrapes them without rules; it returns when that
// Prometheus started.
func (p *Processes) startScraping(ctx context.Context) (time.Time, error) {
	if err := p.startServices(ctx); err != nil {
		return time.Time{}, err
	}
	if err := p.startSidecars(ctx); err != nil {
		return time.Time{}, err
	}
	if err := p.startProfileMetrics(ctx); err != nil {
		return time.Time{}, err
	}
	dataDir := p.StatePath("prometheus", "data")
	_ = os.RemoveAll(p.StatePath("prometheus"))
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return time.Time{}, err
	}
	live := time.Now()
	prom, err := p.startPrometheus(ctx, dataDir, nil)
	if err != nil {
		return time.Time{}, err
	}
	p.prom, p.Prom = prom, prom.Client
	return live, nil
}

// restartWithRules stops the scraping Prometheus, moves the history's blocks
// into its data and starts it again with the rule pack.
func (p *Processes) restartWithRules(ctx context.Context) error {
	p.prom.Stop()
	if err := promkit.MoveBlocks(p.StatePath("history", "data"), p.StatePath("prometheus", "data")); err != nil {
		return err
	}
	rules := p.Opt.RuleFiles
	if p.World.Thanos {
		rules = nil // the ruler evaluates them (startThanos)
	}
	prom, err := p.startPrometheus(ctx, p.StatePath("prometheus", "data"), rules)
	if err != nil {
		return err
	}
	p.prom, p.Prom = prom, prom.Client
	if p.World.Thanos {
		if err := p.startThanos(ctx, p.StatePath("prometheus", "data")); err != nil {
			return err
		}
	}
	p.LiveAt = time.Now()
	for _, f := range p.Opt.RuleFiles {
		p.Logf("    rules: %s", f)
	}
	return nil
}
