package detection

import (
	"math/rand/v2"
	"testing"
)

// A service of 0.05 cores (300 CPU samples a minute at 100 Hz): 20 static
// functions with 80% of its cost, 200 small ones of 0.09% each, one steady
// function at 0.5%, and from minute `onset` a new one at 2%. The new one
// enters within 15 minutes; the steady one never does over a day; a member
// that stops costing leaves a day after it last qualified.
func TestMembershipFastEntry(t *testing.T) {
	const (
		static, small       = 20, 200
		steady, newcomer    = static + small, static + small + 1
		onset, stops, until = 120, 600, 600 + 24*60 + 60
		samplesPerMinute    = 300.0
	)
	weights := func(minute int) []float64 {
		w := make([]float64, newcomer+1)
		for f, s := range ZipfShares(static, 1) {
			w[f] = 0.8 * s
		}
		for f := static; f < steady; f++ {
			w[f] = (1 - 0.8 - 0.005 - 0.02) / small
		}
		w[steady] = 0.005
		if minute >= onset && minute < stops {
			w[newcomer] = 0.02
		}
		sum := 0.0
		for _, x := range w {
			sum += x
		}
		for f := range w {
			w[f] /= sum
		}
		return w
	}
	rng := rand.New(rand.NewPCG(5, 6))
	m := NewMembership(BridgeEntry, newcomer+1, static)
	entered, left := -1, -1
	for at := range until {
		in, out := m.Step(at, SampleRows(rng, samplesPerMinute, weights(at)))
		for _, f := range in {
			if f == steady {
				t.Fatalf("minute %d: the steady 0.5%% function entered", at)
			}
			if f == newcomer {
				entered = at
			}
		}
		for _, f := range out {
			if f == newcomer {
				left = at
			}
		}
		for f := range static {
			if !m.Member(f) {
				t.Fatalf("minute %d: static function %d is not a member", at, f)
			}
		}
	}
	if entered < onset || entered > onset+15 {
		t.Errorf("the 2%% function entered at minute %d, want within 15 minutes of its onset at %d", entered, onset)
	}
	// it qualifies until its decayed share falls under 1% (about 7 minutes
	// after it stops), then stays a day
	if left < stops+24*60 || left > stops+24*60+15 {
		t.Errorf("the 2%% function left at minute %d, want a day after it last qualified (about %d)", left, stops+24*60+7)
	}
	if m.Member(newcomer) {
		t.Errorf("the 2%% function is still a member at minute %d", until)
	}
}

// The fast entry waits for one window of samples; then MaxMembers bounds
// the set when many functions qualify at once, and the costliest newcomers
// take the free places.
func TestMembershipMaxMembers(t *testing.T) {
	cfg := BridgeEntry
	cfg.MaxMembers = 5
	m := NewMembership(cfg, 10, 3)
	counts := []int64{100, 100, 100, 10, 11, 12, 13, 14, 15, 16}
	for at := range int(cfg.WindowMins) {
		if entered, _ := m.Step(at, counts); len(entered) > 0 {
			t.Fatalf("minute %d: %v entered within the first window", at, entered)
		}
	}
	entered, _ := m.Step(int(cfg.WindowMins), counts)
	if len(entered) != 2 || entered[0] != 9 || entered[1] != 8 {
		t.Fatalf("entered %v, want [9 8] (the costliest; 5 members at most, 3 static)", entered)
	}
	for f := 3; f < 8; f++ {
		if m.Member(f) {
			t.Errorf("function %d is a member beyond MaxMembers", f)
		}
	}
}
