package playground

import (
	"fmt"
	"path/filepath"
	"time"
)

// Run is one playground run's options, its world and its progress, which every job shares: the
// steps it printed and timed, its state directory, the binaries it runs.
type Run struct {
	Opt       Options
	World     *World
	Timings   map[string]time.Duration
	timingKey []string
}

// Logf prints one line of the run's progress.
func (r *Run) Logf(format string, args ...any) {
	fmt.Fprintf(r.Opt.Out, format+"\n", args...)
}

// Step runs one named step with its progress and duration printed.
func (r *Run) Step(name string, f func() error) error {
	r.Logf("==> %s", name)
	began := time.Now()
	err := f()
	d := time.Since(began)
	r.Timings[name] = d
	r.timingKey = append(r.timingKey, name)
	if err != nil {
		r.Logf("    %s failed after %s", name, d.Round(100*time.Millisecond))
		return err
	}
	r.Logf("    done in %s", d.Round(100*time.Millisecond))
	return nil
}

// Record adds a step timed elsewhere (the build, before the orchestrator exists).
func (r *Run) Record(name string, d time.Duration) {
	r.Timings[name] = d
	r.timingKey = append(r.timingKey, name)
}

// StatePath is a path under the run's state directory.
func (r *Run) StatePath(p ...string) string {
	return filepath.Join(append([]string{r.Opt.StateDir}, p...)...)
}

func (r *Run) bin(name string) string { return filepath.Join(r.Opt.BinDir, name) }

func (r *Run) tool(name string) string {
	return filepath.Join(r.Opt.Root, ".tools", "bin", name)
}

// Timing is one step and how long it took.
type Timing struct {
	Step string
	Took time.Duration
}

// StepTimings are the steps in the order they ran, with their durations.
func (r *Run) StepTimings() []Timing {
	out := make([]Timing, 0, len(r.timingKey))
	for _, k := range r.timingKey {
		out = append(out, Timing{k, r.Timings[k]})
	}
	return out
}
