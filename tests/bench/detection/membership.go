package detection

import (
	"cmp"
	"math"
	"slices"
)

// The bridge's set of a service's functions with a row of their own
// (notify/lib/top-set.mjs), minute by minute, for the function benchmark:
// the static top K by the generated shares are members throughout; on top of
// them a function whose short-decayed share of its service's sampled cost
// reaches EntryShare enters at once (the fast entry, from one window after
// the first minute; the costliest first while there is room), and stays
// while it qualified within Stick. The sampled counts are the ones the bench exports,
// so a function that gains share (a new one, or any at night when samples
// are few) enters as the bridge would let it in. Not modelled: the bridge's
// day-decayed ranking beyond the static top K (a function that enters by the
// fast path here only renews by it) and the bound on the short-decayed map
// (a function at EntryShare is far within its 10·K costliest).

// TopK is the bridge's number of functions per service and profile type
// (its default; the rest add up in function="other").
const TopK = 20

// FastEntry is the fast entry's knobs, as the bridge's flags.
type FastEntry struct {
	Share      float64 // --entry-share: the short-decayed share that lets a function in
	WindowMins float64 // --entry-window in minutes: the short decay's time constant
	StickMins  int     // how long a member stays after it last qualified (a day)
	MaxMembers int     // the most members at once, static ones included (2·K)
}

// BridgeEntry is the bridge's default: 1% over 10 minutes, a day, 2·TopK.
var BridgeEntry = FastEntry{Share: 0.01, WindowMins: 10, StickMins: 24 * 60, MaxMembers: 2 * TopK}

// Membership steps the set one minute at a time.
type Membership struct {
	cfg       FastEntry
	decay     float64
	short     []float64 // by function, the short-decayed sampled count
	total     float64   // the service's, decayed alike
	qualified []int     // the minute each function last qualified (-1: never)
	member    []bool
	static    int // functions [0, static) are members throughout
	members   int
	first     int // the first minute stepped (-1: none yet)
}

// NewMembership is the set over n functions, the first `static` of them
// members from the start.
func NewMembership(cfg FastEntry, n, static int) *Membership {
	m := &Membership{cfg: cfg, decay: math.Exp(-1 / cfg.WindowMins), short: make([]float64, n), qualified: make([]int, n), member: make([]bool, n), static: min(static, n), first: -1}
	for f := range m.qualified {
		m.qualified[f] = -1
	}
	for f := range m.static {
		m.member[f] = true
	}
	m.members = m.static
	return m
}

// Step adds minute `at`'s sampled counts by function and updates the set,
// as the bridge does before exporting the minute: a function that enters
// at `at` has that minute's count in its own row. It returns the functions
// that entered and left.
func (m *Membership) Step(at int, counts []int64) (entered, left []int) {
	m.total *= m.decay
	for f, c := range counts {
		m.short[f] = m.short[f]*m.decay + float64(c)
		m.total += float64(c)
	}
	if m.first < 0 {
		m.first = at
	}
	// the fast entry waits for one window of samples: a first minute's
	// share is too noisy (1% of 300 samples is 3)
	warm := float64(at-m.first) >= m.cfg.WindowMins
	for f := m.static; f < len(m.short); f++ {
		if warm && m.total > 0 && m.short[f] >= m.cfg.Share*m.total {
			m.qualified[f] = at
		}
		// expired members go first: a newcomer can take the place one frees
		if m.member[f] && at-m.qualified[f] >= m.cfg.StickMins {
			m.member[f] = false
			m.members--
			left = append(left, f)
		}
	}
	// newcomers by their short-decayed cost, the costliest first, while
	// there is room
	var waiting []int
	for f := m.static; f < len(m.short); f++ {
		if !m.member[f] && m.qualified[f] == at {
			waiting = append(waiting, f)
		}
	}
	slices.SortStableFunc(waiting, func(a, b int) int { return cmp.Compare(m.short[b], m.short[a]) })
	for _, f := range waiting[:min(len(waiting), max(0, m.cfg.MaxMembers-m.members))] {
		m.member[f] = true
		m.members++
		entered = append(entered, f)
	}
	return entered, left
}

// Member is whether function f has a row of its own after the last Step.
func (m *Membership) Member(f int) bool { return m.member[f] }
