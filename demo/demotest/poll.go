package demotest

import (
	"context"
	"fmt"
	"time"
)

// poller looks at the playground's alerts every interval and hands each
// look to the judge, until a deadline, until done, or until a supervised
// process exits (watch).
type poller struct {
	p        Playground
	judge    *Judge
	interval time.Duration
	watch    <-chan error
}

// observe is one look at the alerts API, bounded to 15 s.
func observe(ctx context.Context, p Playground, phase Phase) (Observation, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	alerts, err := p.Alerts(ctx)
	if err != nil {
		return Observation{}, err
	}
	return Observation{At: time.Now(), Phase: phase, Alerts: alerts}, nil
}

// once looks once and judges what it saw, printing what is new.
func (pl *poller) once(ctx context.Context, phase Phase) error {
	obs, err := observe(ctx, pl.p, phase)
	if err != nil {
		return err
	}
	for _, l := range pl.judge.Observe(obs) {
		pl.p.Logf("    %s", l)
	}
	return nil
}

// until looks every interval until the deadline or done().
func (pl *poller) until(ctx context.Context, deadline time.Time, phase Phase, done func() bool) error {
	for time.Now().Before(deadline) && !done() {
		if err := pl.once(ctx, phase); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-pl.watch:
			if err == nil {
				err = fmt.Errorf("a process stopped")
			}
			return err
		case <-time.After(pl.interval):
		}
	}
	return nil
}
