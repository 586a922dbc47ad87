package realrules

import (
	"testing"
	"time"
)

// The expected rate5m just after the hour turns holds the hour before: at
// 23:02:30 UTC the healthy service served 8 req/s (hour 22) for 2.5 minutes
// and 6 (hour 23) for 2.5.
func TestMeanRequestRateAcrossTheHour(t *testing.T) {
	now := time.Date(2026, 11, 25, 23, 2, 30, 0, time.UTC)
	if got := meanRequestRate(services[0], now, 5*time.Minute); got < 6.99 || got > 7.01 {
		t.Errorf("mean over 22:57:30-23:02:30 = %g, want 7", got)
	}
	if got := meanRequestRate(services[0], now.Add(10*time.Minute), 5*time.Minute); got != 6 {
		t.Errorf("mean within hour 23 = %g, want 6", got)
	}
}
