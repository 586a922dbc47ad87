//go:build bench

package detection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit/evaluate"
)

// The function benchmark's fleet (`make bench-functions`): the detection
// fleet's services (diurnal traffic, cost line, noise, deploys, traffic
// doubling), sized into three classes of CPU, each with a continuous
// profile per type, exported as hotpath-profile-metrics exports it: a row
// for each function of the bridge's set (membership.go: the top TopK by the
// day's cost, and those the fast entry lets in) plus function="other", as
// counters of CPU seconds and allocated bytes, labelled job and function
// (and origin="runtime" on the runtime's own rows). A regression is one
// function, an existing one or a new one, whose cost grows by a share of its
// whole service's cost per request (+5%, +10%, +20%); the service's own
// counters grow by the same. Benign days change what a function costs
// without any code changing: a holiday, a traffic doubling, an improvement
// elsewhere, a service whose fixed costs dominate, a busy node.

// FunctionSizes are the regressions injected, as a factor on the service's
// cost per request, all of it added by one function.
var FunctionSizes = []float64{1.05, 1.1, 1.2}

// profilesFrom is when the bridge starts exporting: the second day (the
// first is the service alerts' history). A function's reference, read a day
// back once the function has 6h of history, then exists from hour 54,
// before the earliest onset (hour 72).
const profilesFrom = 24 * time.Hour

// SizeClass is a range of a service's mean CPU over the day.
type SizeClass struct {
	Name   string
	Lo, Hi float64 // cores
}

// SizeClasses: under 0.1 cores (few samples: 10 a second at most), 0.1 to
// 0.5, and 0.5 cores and up.
var SizeClasses = []SizeClass{{"< 0.1 cores", 0.02, 0.1}, {"0.1-0.5 cores", 0.1, 0.5}, {">= 0.5 cores", 0.5, 4}}

// The benign days: each on services without a regression, on the fourth
// day (the regressions' onset day), judged like every clean service: any
// function alert on them is a false alarm.
const (
	BenignHoliday     = "holiday"     // the whole day at 30-50% of the traffic, every cost on its line
	BenignDoubling    = "doubling"    // twice the traffic for 6 hours, every cost on its line
	BenignImprovement = "improvement" // from an hour on, a large function (10-30% of the service) costs half
	BenignContention  = "contention"  // for an hour, the runtime's rows and the syscall-heavy ones 2-3x dearer
	BenignFixedHeavy  = "fixed-heavy" // 50-80% of the cost fixed: timers and cache refreshes whose share swings with traffic
	BenignClean       = "clean"       // nothing happens
)

// BenignKinds are the benign days, in the report's order.
var BenignKinds = []string{BenignHoliday, BenignDoubling, BenignImprovement, BenignContention, BenignFixedHeavy, BenignClean}

// The busy node's episode: how long, and how much dearer the rows it
// touches get (one factor per episode, each row within 10% of it).
const (
	contentionFor              = time.Hour
	contentionLo, contentionHi = 2.0, 3.0
)

// FuncService is a service of the function fleet.
type FuncService struct {
	Service
	Class      int     // index in SizeClasses
	Cores      float64 // its mean CPU over the day, before any regression
	Functions  int     // in its profiles
	fixedShare float64 // of its CPU and allocations over the day (fixedCPU at its mean traffic)
	cpu        []float64
	alloc      []float64 // shares of the day by rank; allocRank[r] is the function of alloc rank r
	allocRank  []int
	cpuFixed   []float64 // by rank, the fixed fraction of each function's cost (FixedParts)
	allocFixed []float64
	runtime    []bool // by CPU rank: the runtime's own work (GC workers, the scheduler): origin="runtime"
	syscall    []bool // by CPU rank: functions whose cost is mostly the kernel's (I/O, wake-ups)
	Regressed  string // the function that regresses ("" on a clean service)
	New        bool   // it is NewFunction, absent before the onset
	rank       int    // its rank in the regressed kind's profile (an existing one)
	Benign     string // a benign day's kind, on a service without a regression
	benignAt   time.Duration
	improved   [2]int  // the improvement's function, by CPU and alloc rank
	contention float64 // the busy node's factor
}

// NewFunction is the name of a new function's regression: no cost before
// its onset, not among a service's generated functions.
const NewFunction = "fnew"

// FleetShape is how many services a fleet has of each kind.
type FleetShape struct {
	PerCell    int        // per kind, size of regression and size class, of an existing function
	NewPerCell int        // the same, of a new function
	Benign     int        // per benign kind and size class
	Fixed      [2]float64 // the range of a service's fixed share of its costs (the fixed-heavy ones: 0.5-0.8)
}

// FunctionFleet builds one seed's fleet: for each kind and size of
// regression and each size class, PerCell services whose regression is an
// existing function's and NewPerCell a new one's; then Benign services per
// benign kind and size class. A cell's onset hours are spread so that the
// same cell of the fleets of seeds 0..n-1 (seedIndex, of nSeeds) together
// start a regression at every onset hour once, when PerCell * nSeeds is 12.
func FunctionFleet(seed uint64, seedIndex, nSeeds int, shape FleetShape) []FuncService {
	rng := rand.New(rand.NewPCG(seed, 13))
	parts := rand.New(rand.NewPCG(seed, 19)) // which functions carry the fixed cost: a stream of its own
	var out []FuncService
	add := func(kind string, size float64, class int, isNew bool, hour int, benign string) {
		s := FuncService{Service: randomService(rng, fmt.Sprintf("s%d-%03d", seed, len(out)), seed), Class: class}
		c := SizeClasses[class]
		fixed := shape.Fixed
		if benign == BenignFixedHeavy {
			fixed = [2]float64{0.5, 0.8}
		}
		// the cost line rescaled to a mean of Cores over the day: the same
		// shape, a fixed part in fixed
		s.peak = logUniform(rng, 5, 300)
		meanTraffic := s.peak * (s.low + (1-s.low)/2)
		s.Cores = logUniform(rng, c.Lo, c.Hi)
		s.fixedShare = fixed[0] + (fixed[1]-fixed[0])*rng.Float64()
		s.fixedCPU = s.Cores * s.fixedShare
		s.cpuPerReq = s.Cores * (1 - s.fixedShare) / meanTraffic
		// allocations: 20-200 MiB per CPU second
		perCPUSecond := logUniform(rng, 20<<20, 200<<20)
		s.fixedAlloc, s.allocPerReq = s.fixedCPU*perCPUSecond, s.cpuPerReq*perCPUSecond
		// tens to thousands of functions, Zipf-like shares
		s.Functions = int(logUniform(rng, 30, 3000))
		s.cpu = ZipfShares(s.Functions, 0.9+0.4*rng.Float64())
		s.alloc = ZipfShares(s.Functions, 0.9+0.4*rng.Float64())
		s.allocRank = rng.Perm(s.Functions)
		s.cpuFixed, s.allocFixed = FixedParts(parts, s.cpu, s.fixedShare), FixedParts(parts, s.alloc, s.fixedShare)
		s.runtime, s.syscall = runtimeAndSyscall(rng, s.Functions)
		s.Kind, s.Size, s.New, s.Benign = kind, size, isNew, benign
		if kind != "" {
			s.OnsetHour = hour
			s.Onset = onsetDay + time.Duration(hour)*time.Hour + time.Duration(rng.IntN(60))*time.Minute
		}
		switch {
		case kind != "" && isNew:
			s.Regressed = NewFunction
		case kind != "":
			// of the top functions that are the service's own code, the one
			// whose share is nearest the regression's (one that doubles)
			s.rank = s.nearest(kind, size-1)
			s.Regressed = s.function(kind, s.rank)
		}
		s.benignDay(rng)
		out = append(out, s)
	}
	cell := 0
	regressions := func(per int, isNew bool) {
		for _, kind := range []string{KindCPU, KindAlloc} {
			for _, size := range FunctionSizes {
				for class := range SizeClasses {
					for i := range per {
						add(kind, size, class, isNew, OnsetHours[(i*nSeeds+seedIndex+cell)%len(OnsetHours)], "")
					}
					cell++
				}
			}
		}
	}
	regressions(shape.PerCell, false)
	regressions(shape.NewPerCell, true)
	for _, benign := range BenignKinds {
		for class := range SizeClasses {
			for range shape.Benign {
				add("", 0, class, false, 0, benign)
			}
		}
	}
	return out
}

// runtimeAndSyscall draws which of n functions (by CPU rank) are the
// runtime's own work, 2 to 4 of the top 15 (Go's GC workers and scheduler
// are among a service's largest), and which are syscall-heavy: 12% of the
// rest, at least 2 of the top 20.
func runtimeAndSyscall(rng *rand.Rand, n int) (runtime, syscall []bool) {
	runtime, syscall = make([]bool, n), make([]bool, n)
	top := rng.Perm(min(15, n))
	for _, r := range top[:2+rng.IntN(3)] {
		runtime[r] = true
	}
	heavy := 0
	for r := range n {
		if !runtime[r] && rng.Float64() < 0.12 {
			syscall[r] = true
			if r < TopK {
				heavy++
			}
		}
	}
	for r := 0; heavy < 2 && r < min(TopK, n); r++ {
		if !runtime[r] && !syscall[r] {
			syscall[r], heavy = true, heavy+1
		}
	}
	return runtime, syscall
}

// nearest is the rank, among the top functions of a kind's profile that are
// the service's own code, whose day's share is nearest share.
func (s FuncService) nearest(kind string, share float64) int {
	shares := s.shares(kind)
	best := -1
	for r := range min(TopK, len(shares)) {
		if kind == KindCPU && s.runtime[r] {
			continue
		}
		if best < 0 || math.Abs(shares[r]-share) < math.Abs(shares[best]-share) {
			best = r
		}
	}
	return best
}

// benignDay sets a benign service's day: its event's time and, for the
// traffic ones, the traffic.
func (s *FuncService) benignDay(rng *rand.Rand) {
	s.benignAt = onsetDay + time.Duration(rng.IntN(24*60))*time.Minute
	switch s.Benign {
	case BenignHoliday:
		s.holidayAt, s.holidayFactor = onsetDay, 0.3+0.2*rng.Float64()
	case BenignDoubling:
		s.doubledAt, s.doubledFor = s.benignAt, 6*time.Hour
	case BenignImprovement:
		s.improved = [2]int{s.nearest(KindCPU, 0.2), s.nearest(KindAlloc, 0.2)}
	case BenignContention:
		s.contention = contentionLo + (contentionHi-contentionLo)*rng.Float64()
	}
}

// shares are the day's shares of a kind's profile, by rank.
func (s FuncService) shares(kind string) []float64 {
	if kind == KindAlloc {
		return s.alloc
	}
	return s.cpu
}

// function is the name of the function of a given rank in a kind's profile
// (rank len(shares): the new function).
func (s FuncService) function(kind string, rank int) string {
	if rank == s.Functions {
		return NewFunction
	}
	if kind == KindAlloc {
		return fmt.Sprintf("f%04d", s.allocRank[rank])
	}
	return fmt.Sprintf("f%04d", rank)
}

// origin is the origin label of a function's row ("" for the service's own
// code): the runtime's rows are the CPU profile's.
func (s FuncService) origin(kind string, rank int) string {
	if kind == KindCPU && rank < s.Functions && s.runtime[rank] {
		return "runtime"
	}
	return ""
}

// RegressedShare is the regressed function's share of its service's cost
// (of its kind) over the day before the regression (0: a new function).
func (s FuncService) RegressedShare() float64 {
	if s.New {
		return 0
	}
	return s.shares(s.Kind)[s.rank]
}

// minuteWeights fills w (by rank, then the new function) with the
// functions' shares of a kind's cost at minute d, whose fixed share of the
// service's cost is phi (MinuteShare), and returns that cost's factor over
// the service's cost line at the minute: when regressed, the regressed
// function carries the regression's whole added cost on top (the service's
// line already carries it: factor 1); the benign day's improvement and
// busy node change some rows and the service's cost with them.
func (s FuncService) minuteWeights(w []float64, kind string, phi float64, d time.Duration) float64 {
	shares, fixed := s.cpu, s.cpuFixed
	if kind == KindAlloc {
		shares, fixed = s.alloc, s.allocFixed
	}
	for r := range shares {
		w[r] = MinuteShare(shares[r], fixed[r], s.fixedShare, phi)
	}
	w[len(shares)] = 0
	if s.Kind == kind && d >= s.Onset {
		r := s.rank
		if s.New {
			r = len(shares)
		}
		w[r] += s.Size - 1
		for i := range w {
			w[i] /= s.Size
		}
	}
	factor := 1.0
	switch {
	case s.Benign == BenignImprovement && d >= s.benignAt:
		r := s.improved[0]
		if kind == KindAlloc {
			r = s.improved[1]
		}
		factor -= w[r] / 2
		w[r] /= 2
	case s.Benign == BenignContention && kind == KindCPU && d >= s.benignAt && d < s.benignAt+contentionFor:
		for r := range shares {
			if s.runtime[r] || s.syscall[r] {
				// each row within 10% of the episode's factor, the same all hour
				x := w[r] * (s.contention*(0.9+0.2*jitter(s.Seed, r)) - 1)
				factor += x
				w[r] += x
			}
		}
	}
	for i := range w {
		w[i] /= factor
	}
	return factor
}

// jitter is a fixed number in [0, 1) for a seed and a row.
func jitter(seed uint64, r int) float64 {
	return rand.New(rand.NewPCG(seed, uint64(r)+1000)).Float64()
}

// Entry is a function's time in the bridge's set beyond the static top K:
// it entered at minute From (that minute's samples in its own row), left at
// minute To (-1: a member to the end).
type Entry struct {
	Kind, Function string
	From, To       int
}

// row is one of the bridge's counters: its samples, minute and value.
type row struct {
	function, origin string
	at               []int
	value            []int64
	total            int64
}

func (r *row) sample(at int) {
	r.at = append(r.at, at)
	r.value = append(r.value, r.total)
}

// Series are the service's own counters and the bridge's rows of its
// profiles, one sample a minute from profilesFrom, and the functions that
// entered the bridge's set beyond the static top K. Each minute's samples
// are drawn from the minute's CPU seconds and allocated bytes over all its
// functions, at their shares of that minute (a fixed-cost function's higher
// at night); the set (Membership) sees those samples as the bridge would: a
// member's row exists from the minute it enters (its counter starting at
// that minute's count), its cost before in `other`. A deploy's missed
// minute has no samples (no process to profile).
func (s FuncService) Series(start time.Time, rng *rand.Rand) ([]evaluate.Series, []Entry) {
	ms := s.Minutes(rng)
	n := s.Functions
	w := make([]float64, n+1)
	phi := func(i int) float64 { return s.fixedCPU / (s.fixedCPU + s.cpuPerReq*ms[i].req) }
	// the benign day's factors on the service's own counters first; the
	// rows' weights are the same again, minute by minute, below
	for i := range ms {
		d := time.Duration(i) * time.Minute
		ms[i].cpu *= s.minuteWeights(w, KindCPU, phi(i), d)
		ms[i].alloc *= s.minuteWeights(w, KindAlloc, phi(i), d)
	}
	out := s.seriesOf(start, ms)
	var entries []Entry
	for _, c := range []struct {
		kind, metric string
		perSample    float64 // seconds or bytes
		samples      func(m minute) float64
	}{
		{KindCPU, "hotpath_profile_cpu_seconds_total", 1.0 / CPUSampleHz, func(m minute) float64 { return m.cpu * 60 * CPUSampleHz }},
		{KindAlloc, "hotpath_profile_alloc_bytes_total", AllocSampleBytes, func(m minute) float64 { return m.alloc * 60 / AllocSampleBytes }},
	} {
		set := NewMembership(BridgeEntry, n+1, TopK)
		rows := map[int]*row{}
		var order, members []int // rows in the order they first entered; current members
		for r := range min(TopK, n) {
			rows[r] = &row{function: s.function(c.kind, r), origin: s.origin(c.kind, r)}
			order = append(order, r)
			members = append(members, r)
		}
		other := &row{function: "other"}
		open := map[int]int{} // an entered member's index in entries
		for i := int(profilesFrom / time.Minute); i < len(ms); i++ {
			// the scrape at minute i: each row's total through minute i-1
			for _, f := range members {
				rows[f].sample(i)
			}
			other.sample(i)
			d := time.Duration(i) * time.Minute
			counts := make([]int64, n+1)
			if since, ok := s.sinceDeploy(d); !ok || since >= deployGap {
				s.minuteWeights(w, c.kind, phi(i), d)
				counts = SampleRows(rng, c.samples(ms[i]), w)
			}
			entered, left := set.Step(i, counts)
			for _, f := range left {
				entries[open[f]].To = i
				members = slices.DeleteFunc(members, func(x int) bool { return x == f })
			}
			for _, f := range entered {
				if rows[f] == nil {
					rows[f] = &row{function: s.function(c.kind, f), origin: s.origin(c.kind, f)}
					order = append(order, f)
				}
				rows[f].total = 0 // a counter the bridge creates anew
				open[f] = len(entries)
				entries = append(entries, Entry{Kind: c.kind, Function: rows[f].function, From: i, To: -1})
				members = append(members, f)
			}
			rest := int64(0)
			for f, x := range counts {
				rest += x
				if set.Member(f) {
					rows[f].total += x
					rest -= x
				}
			}
			other.total += rest
		}
		for _, r := range append(order, -1) {
			x := other
			if r >= 0 {
				x = rows[r]
			}
			ls := []string{"__name__", c.metric, "job", s.Job, "function", x.function, "instance", "bridge:9096"}
			if x.origin != "" {
				ls = append(ls, "origin", x.origin)
			}
			series := evaluate.Series{Labels: labels.FromStrings(ls...)}
			for j, at := range x.at {
				series.T = append(series.T, start.Add(time.Duration(at)*time.Minute).UnixMilli())
				series.V = append(series.V, float64(x.value[j])*c.perSample)
			}
			out = append(out, series)
		}
	}
	return out, entries
}

// The detectors of the function benchmark, on the same data.
const (
	DetectorService = "service" // CPUPerRequestRegression and AllocationsPerRequestRegression, as shipped
	DetectorShare   = "share"   // FunctionCostPerRequestRegression before its cost model: the day's highest share (testdata/pack-e96ff95)
	DetectorModel   = "model"   // FunctionCostPerRequestRegression as shipped: each function against its own cost model
)

// FunctionDetectors are the detectors, in the report's order.
var FunctionDetectors = []string{DetectorService, DetectorShare, DetectorModel}

const functionAlert = "FunctionCostPerRequestRegression"

// functionConditions records a pack's FunctionCostPerRequestRegression
// condition, and its hold branch (holdBranch) when it has one, labelled
// with the detector (its own labels: job, function, profile_type).
func functionConditions(detector string, groups []rulefmt.RuleGroup) (rulefmt.RuleGroup, error) {
	return alertConditions(detector, functionAlert, groups, true)
}

// inClass are the fleet's services of a size class (all with class < 0)
// that pick picks (all with nil).
func inClass(fleet []FuncService, class int, pick func(FuncService) bool) []Service {
	var out []Service
	for _, s := range fleet {
		if (class < 0 || s.Class == class) && (pick == nil || pick(s)) {
			out = append(out, s.Service)
		}
	}
	return out
}

// regressedKey is the judge's key of a service's regressed function.
func regressedKey(fleet []FuncService) func(Service) string {
	by := map[string]string{}
	for _, s := range fleet {
		by[s.Job] = s.Kind + "/" + s.Regressed
	}
	return func(s Service) string { return by[s.Job] }
}
