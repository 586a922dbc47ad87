package demotest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

func testWorld() *playground.World {
	return playground.DefaultWorld(func(p int) int { return p + 20000 }, "hotpath-unit")
}

// fakePlayground stands in for the running playground: its alerts API
// answers from a script, its switches and steps are recorded.
type fakePlayground struct {
	run playground.Running
	// alerts answers the n-th call of Alerts (from 0); nil: none firing.
	alerts func(n int) ([]promkit.Alert, error)
	// query answers Query and QueryRange by the query's text.
	query   map[string][]promkit.Sample
	series  map[string][]promkit.Series
	exited  chan error // Watch returns what is sent here
	sandbox string     // SandboxExited's answer
	step    *playground.Service
	mix     *playground.MixChange

	mu       sync.Mutex
	polls    int
	switched []string
	deployed []string
	steps    []playground.Timing
	stepEnds []time.Time
	log      strings.Builder
}

func newFake(dir string) *fakePlayground {
	w := testWorld()
	return &fakePlayground{run: playground.Running{
		World: w, LiveAt: time.Now(), Root: dir, RunDir: dir, Out: io.Discard,
		PromURL: "http://127.0.0.1:1", ProfilesURL: w.ProfilesURL(), Cgroups: true,
		NotifyDir: dir + "/notify/messages", SlackFile: dir + "/notify/slack.jsonl",
	}, exited: make(chan error, 1)}
}

func (f *fakePlayground) Running() playground.Running { return f.run }

func (f *fakePlayground) Alerts(ctx context.Context) ([]promkit.Alert, error) {
	f.mu.Lock()
	n := f.polls
	f.polls++
	f.mu.Unlock()
	if f.alerts == nil {
		return nil, nil
	}
	return f.alerts(n)
}

func (f *fakePlayground) Query(ctx context.Context, q string) ([]promkit.Sample, error) {
	s, ok := f.query[q]
	if !ok {
		return nil, fmt.Errorf("no such query %q", q)
	}
	return s, nil
}

func (f *fakePlayground) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error) {
	s, ok := f.series[q]
	if !ok {
		return nil, fmt.Errorf("no such query %q", q)
	}
	return s, nil
}

func (f *fakePlayground) Switch(ctx context.Context, story string, on bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.switched = append(f.switched, fmt.Sprintf("%s=%v", story, on))
	return nil
}

func (f *fakePlayground) Deploy(ctx context.Context, story string) (*playground.Rollout, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deployed = append(f.deployed, fmt.Sprintf("%s after %d switches", story, len(f.switched)))
	r := playground.RolloutOf(story)
	return r, playground.Image(r.Job, r.From), nil
}

func (f *fakePlayground) StartTrafficStep() (*playground.Service, error) { return f.step, nil }

func (f *fakePlayground) StartMixChange() (*playground.MixChange, error) { return f.mix, nil }

func (f *fakePlayground) Watch(ctx context.Context) error {
	select {
	case err := <-f.exited:
		return err
	case <-ctx.Done():
		return nil
	}
}

func (f *fakePlayground) SandboxExited() string { return f.sandbox }

func (f *fakePlayground) Step(name string, fn func() error) error {
	began := time.Now()
	err := fn()
	f.mu.Lock()
	f.steps = append(f.steps, playground.Timing{Step: name, Took: time.Since(began)})
	f.stepEnds = append(f.stepEnds, time.Now())
	f.mu.Unlock()
	return err
}

func (f *fakePlayground) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(&f.log, format+"\n", args...)
}

func (f *fakePlayground) StepTimings() []playground.Timing {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]playground.Timing(nil), f.steps...)
}
