package playground

import (
	"context"
	"io"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// What a test of the running playground (demo/demotest) reads of it and
// asks of it. The orchestrator answers; the test's own unit tests stand a
// fake in its place.

// Running is the live world and where its parts answer, as Up left them.
type Running struct {
	World  *World
	LiveAt time.Time // the rules went live
	Root   string    // the repository: checks run there
	RunDir string    // the run's own files (lock, pid file, the browser check's incidents)
	Out    io.Writer // progress and the checks' output
	// PromURL is Prometheus's (on Thanos, Thanos Query's); ProfilesURL the
	// profile store's.
	PromURL, ProfilesURL string
	// SandboxAt is the sandbox's URL, "" when there is none: SandboxOff
	// says why.
	SandboxAt, SandboxOff string
	// Cgroups: the CFS incident can run; NoCFSWhy says why not otherwise.
	Cgroups  bool
	NoCFSWhy string
	// AlertPath: the run was asked for the alert path (Options.Notify);
	// AlertmanagerAt is its Alertmanager once it runs, AlertingOff why it
	// does not. NotifyDir and SlackFile are where its messages land.
	AlertPath                   bool
	AlertmanagerAt, AlertingOff string
	NotifyDir, SlackFile        string
}

// Running is the live world and where its parts answer.
func (st *Status) Running() Running {
	r := Running{
		World: st.World, LiveAt: st.LiveAt, Root: st.Opt.Root, RunDir: st.StatePath("run"), Out: st.Opt.Out,
		ProfilesURL: st.World.ProfilesURL(), SandboxAt: st.SandboxAt, SandboxOff: st.SandboxOff,
		Cgroups: st.Cgroups != nil, NoCFSWhy: st.NoCFSWhy,
		AlertPath: len(st.Opt.Notify) > 0, AlertmanagerAt: st.AlertmanagerAt, AlertingOff: st.AlertingOff,
		NotifyDir: st.NotifyDir(), SlackFile: st.SlackFile(),
	}
	if st.Prom != nil {
		r.PromURL = st.Prom.URL
	}
	return r
}

// Alerts are the alerts Prometheus (or Thanos Query) serves now.
func (st *Status) Alerts(ctx context.Context) ([]promkit.Alert, error) {
	return st.Prom.Alerts(ctx)
}

// Query is an instant query now.
func (st *Status) Query(ctx context.Context, q string) ([]promkit.Sample, error) {
	return st.Prom.Query(ctx, q)
}

// QueryRange is a range query.
func (st *Status) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error) {
	return st.Prom.QueryRange(ctx, q, start, end, step)
}
