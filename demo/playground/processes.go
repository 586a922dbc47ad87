package playground

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/promkit"
)

// Processes is the job of starting the playground's processes and taking them down: the
// supervisor that owns them, the cgroups, the services, their sidecars and load (services.go),
// Prometheus and Thanos (prom.go, thanos.go), the alert path (alerting.go), the sandbox
// (sandbox.go); the steps of Up that start them (up.go). The other jobs read what it started.
type Processes struct {
	*Run
	Sup  *Supervisor
	Prom *promkit.Client
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

// Watch returns an error as soon as a supervised process exits by itself
// (the load generator is allowed to finish; the sandbox is an add-on: the
// header says when it stopped, and the browser check fails without it).
func (p *Processes) Watch(ctx context.Context) error {
	for {
		for _, proc := range p.Sup.Procs() {
			if done, err := proc.Exited(); done && proc.Name != "loadgen" && proc.Name != "sandbox" && !p.alertPathOff(proc.Name) {
				return fmt.Errorf("%s exited unexpectedly (%v):\n%s", proc.Name, err, proc.Tail(1500))
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
func (p *Processes) Down() error {
	var errs []error
	n := 0
	if p.Sup != nil {
		n = len(p.Sup.Procs())
		p.Sup.StopAll(10 * time.Second)
	}
	for _, g := range p.groups {
		if err := g.Remove(); err != nil {
			errs = append(errs, err)
		}
	}
	if p.Cgroups != nil {
		if _, err := p.Cgroups.CleanStale(); err != nil {
			errs = append(errs, err)
		}
	}
	if p.lock != nil {
		p.lock.Close()
		p.lock = nil
	}
	msg := fmt.Sprintf("stopped %d processes", n)
	if p.Cgroups != nil {
		msg += fmt.Sprintf(", removed the cgroups under %s", p.World.CgroupParent)
	}
	p.Logf("%s", msg)
	return errors.Join(errs...)
}
