package playground

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

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
	profiles := o.World.ProfilesURL()
	err := o.Step("sandbox: the built panel on live Prometheus and profile-store ("+strings.Join(o.Opt.Sandbox, " ")+")", func() error {
		argv := Expand(o.Opt.Sandbox, "{prometheus}", o.Prom.URL, "{profiles}", profiles, "{addr}", addr)
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
		o.Logf("    %-10s %s (the built panel; the page stands in for Grafana, profile-store for Pyroscope)", "sandbox", o.SandboxAt)
		return nil
	})
	if err != nil {
		if o.Opt.SandboxRequired || ctx.Err() != nil {
			return err
		}
		o.SandboxOff = fmt.Sprintf("%v (log: %s)", firstLine(err.Error()), filepath.Join(o.Sup.LogDir, "sandbox.log"))
		o.Logf("    NOTE: running without the panel sandbox: %v", err)
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
