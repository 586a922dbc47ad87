package promkit

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrTimeout is what Poll returns (joined with cond's last error) when
// cond did not come true in time.
var ErrTimeout = errors.New("timed out")

// Poll calls cond every `every` until it reports done, ctx ends or timeout
// passes: the one bounded wait of promkit and its callers. cond returns
// (true, nil) when the wait is over, (true, err) to give up now with err (a
// process that exited), and (false, err) to try again, err saying why not
// yet; at the timeout Poll returns ErrTimeout joined with that last err.
func Poll(ctx context.Context, timeout, every time.Duration, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		done, err := cond()
		if done {
			return err
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("%w after %s: %w", ErrTimeout, timeout, err)
			}
			return fmt.Errorf("%w after %s", ErrTimeout, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}
