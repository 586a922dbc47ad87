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
func (o *Orchestrator) Running() Running {
	r := Running{
		World: o.World, LiveAt: o.LiveAt, Root: o.Opt.Root, RunDir: o.StatePath("run"), Out: o.Opt.Out,
		ProfilesURL: o.World.ProfilesURL(), SandboxAt: o.SandboxAt, SandboxOff: o.SandboxOff,
		Cgroups: o.Cgroups != nil, NoCFSWhy: o.NoCFSWhy,
		AlertPath: len(o.Opt.Notify) > 0, AlertmanagerAt: o.AlertmanagerAt, AlertingOff: o.AlertingOff,
		NotifyDir: o.NotifyDir(), SlackFile: o.SlackFile(),
	}
	if o.Prom != nil {
		r.PromURL = o.Prom.URL
	}
	return r
}

// Alerts are the alerts Prometheus (or Thanos Query) serves now.
func (o *Orchestrator) Alerts(ctx context.Context) ([]promkit.Alert, error) {
	return o.Prom.Alerts(ctx)
}

// Query is an instant query now.
func (o *Orchestrator) Query(ctx context.Context, q string) ([]promkit.Sample, error) {
	return o.Prom.Query(ctx, q)
}

// QueryRange is a range query.
func (o *Orchestrator) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error) {
	return o.Prom.QueryRange(ctx, q, start, end, step)
}

// Switch turns a story's incident on or off on its service.
func (o *Orchestrator) Switch(ctx context.Context, story string, on bool) error {
	return o.World.Switch(ctx, story, on)
}

// Timing is one step and how long it took.
type Timing struct {
	Step string
	Took time.Duration
}

// StepTimings are the steps in the order they ran, with their durations.
func (o *Orchestrator) StepTimings() []Timing {
	out := make([]Timing, 0, len(o.timingKey))
	for _, k := range o.timingKey {
		out = append(out, Timing{k, o.Timings[k]})
	}
	return out
}
