package promkit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPoll(t *testing.T) {
	ctx := context.Background()
	n := 0
	if err := Poll(ctx, time.Second, time.Millisecond, func() (bool, error) { n++; return n == 3, nil }); err != nil || n != 3 {
		t.Errorf("came true on the third call: %v after %d calls", err, n)
	}
	gaveUp := errors.New("exited")
	if err := Poll(ctx, time.Second, time.Millisecond, func() (bool, error) { return true, gaveUp }); err != gaveUp {
		t.Errorf("giving up: %v, want cond's own error", err)
	}
	err := Poll(ctx, 20*time.Millisecond, time.Millisecond, func() (bool, error) { return false, errors.New("2 of 3 up") })
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "2 of 3 up") {
		t.Errorf("timeout: %v, want ErrTimeout with the last reason", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := Poll(cancelled, time.Second, time.Millisecond, func() (bool, error) { return false, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
