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
func (p *Processes) startSandbox(ctx context.Context) error {
	if len(p.Opt.Sandbox) == 0 {
		if p.SandboxOff == "" {
			p.SandboxOff = "not started (-sandbox '')"
		}
		return nil
	}
	addr := fmt.Sprintf("127.0.0.1:%d", p.World.Ports.Sandbox)
	profiles := p.World.ProfilesURL()
	err := p.Step("sandbox: the built panel on live Prometheus and profile-store ("+strings.Join(p.Opt.Sandbox, " ")+")", func() error {
		argv := Expand(p.Opt.Sandbox, "{prometheus}", p.Prom.URL, "{profiles}", profiles, "{addr}", addr)
		env := []string{"HOTPATH_PROMETHEUS_URL=" + p.Prom.URL, "HOTPATH_PROFILES_URL=" + profiles, "HOTPATH_SANDBOX_ADDR=" + addr}
		proc, err := p.Sup.Start("sandbox", false, env, argv...)
		if err != nil {
			return err
		}
		p.sandboxProc = proc
		if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/api/config", 3*time.Minute); err != nil {
			p.Sup.Stop(proc, 5*time.Second)
			return fmt.Errorf("the sandbox did not come up: %w", err)
		}
		p.SandboxAt = "http://" + addr + "/"
		p.Logf("    %-10s %s (the built panel; the page stands in for Grafana, profile-store for Pyroscope)", "sandbox", p.SandboxAt)
		return nil
	})
	if err != nil {
		if p.Opt.SandboxRequired || ctx.Err() != nil {
			return err
		}
		p.SandboxOff = fmt.Sprintf("%v (log: %s)", firstLine(err.Error()), filepath.Join(p.Sup.LogDir, "sandbox.log"))
		p.Logf("    NOTE: running without the panel sandbox: %v", err)
	}
	return nil
}

// SandboxExited says why the sandbox stopped by itself ("" while it runs,
// or when there is none).
func (p *Processes) SandboxExited() string {
	if p.sandboxProc == nil || p.SandboxAt == "" {
		return ""
	}
	if done, err := p.sandboxProc.Exited(); done {
		return fmt.Sprintf("exited (%v): %s", err, lastLine(p.sandboxProc.Tail(600)))
	}
	return ""
}
