package thanos

import (
	"testing"
	"time"
)

// A scrape 1.35 s after the one before (late past its tick) leaves windows
// ending 1.05 s or more after the earlier one short until the later one is
// in, windows starting in the gap short 5 minutes later, and the records
// read from them within maxSkew; regular scrapes leave nothing.
func TestShortWindowsOfAGap(t *testing.T) {
	s := shortWindows{"eu1": gapSpans([]int64{4350, 0, 1000, 2000, 3350})}
	w := rateWindow.Milliseconds()
	for _, c := range []struct {
		ts    int64
		short bool
	}{
		{2900, false},                          // the sample at 2000 still within reach
		{3050, true},                           // 1.05 s after it
		{3242, true},                           // the case: the window ends 1.24 s after its last sample
		{3350 + 3999, true},                    // a record read from one in the gap within maxSkew
		{3350 + maxSkew.Milliseconds(), false}, // no longer
		{2000 + w, true},                       // a window starting in the gap, 1.35 s before its first sample
		{3350 + w - 1050, true},                // still 1.05 s before it
		{3350 + w - 1049 + 4000, false},        // past the start-side span and maxSkew
	} {
		if got := s.excuse("the reference", "eu1", c.ts, 0) != ""; got != c.short {
			t.Errorf("at %d ms: short %v, want %v (%v)", c.ts, got, c.short, s)
		}
	}
	// A record averaging 3h of rate records holds the short ones for 3h.
	hours := (2 * time.Hour).Milliseconds()
	if why := s.excuse("the reference", "eu1", 3350+w+hours, 3*time.Hour); why == "" {
		t.Errorf("a 3h average 2h after the gap: not excused")
	}
	if why := s.excuse("the reference", "eu1", 3350+w+hours, time.Hour); why != "" {
		t.Errorf("a 1h average 2h after the gap: excused: %s", why)
	}
	if why := s.excuse("the reference", "us1", 3242, 0); why != "" {
		t.Errorf("another cluster's gap excused us1: %s", why)
	}
	if spans := gapSpans([]int64{0, 1000, 2000, 3000, 4000}); len(spans) != 0 {
		t.Errorf("regular scrapes: %v, want no short windows", spans)
	}
}
