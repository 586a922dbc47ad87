package demotest

import (
	"context"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// Playground is what demo-test needs from the running playground:
// *playground.Orchestrator once Up returned (demo/playground/running.go),
// and a fake in this package's unit tests.
type Playground interface {
	// Running is the live world and where its parts answer.
	Running() playground.Running
	// Alerts, Query and QueryRange read Prometheus (Thanos Query on Thanos).
	Alerts(ctx context.Context) ([]promkit.Alert, error)
	Query(ctx context.Context, q string) ([]promkit.Sample, error)
	QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error)
	// Switch turns a story's incident on or off.
	Switch(ctx context.Context, story string, on bool) error
	// Deploy rolls out the new version that precedes a story
	// (playground.Rollouts); it returns the rollout and the image before.
	Deploy(ctx context.Context, story string) (*playground.Rollout, string, error)
	// StartTrafficStep doubles the traffic of the world's TrafficStepJob
	// until the run ends; nil when the world has none.
	StartTrafficStep() (*playground.Service, error)
	// StartMixChange adds the world's traffic-mix change (World.MixChange)
	// until the run ends; nil when the world has none.
	StartMixChange() (*playground.MixChange, error)
	// Watch returns an error as soon as a supervised process exits by
	// itself, nil when ctx ends.
	Watch(ctx context.Context) error
	// SandboxExited says why the sandbox stopped by itself ("" while it
	// runs, or when there is none).
	SandboxExited() string
	// Step runs one named step with its progress and duration printed and
	// recorded; Logf prints a line of progress; StepTimings are the steps
	// so far, in order.
	Step(name string, f func() error) error
	Logf(format string, args ...any)
	StepTimings() []playground.Timing
}

var _ Playground = (*playground.Orchestrator)(nil)
