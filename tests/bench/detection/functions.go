//go:build bench

package detection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
)

// The function benchmark's fleet (`make bench-functions`): the detection
// fleet's services (diurnal traffic, cost line, noise, deploys, traffic
// doubling), sized into three classes of CPU, each with a continuous
// profile per type, exported as hotpath-profile-metrics exports it: a row
// for each function of the bridge's set (membership.go: the top TopK by the
// day's cost, and those the fast entry lets in) plus function="other", as
// counters of CPU seconds and allocated bytes, labelled job and function. A
// regression is one function, an existing one or a new one, whose cost
// grows by a share of its whole service's cost per request (+5%, +10%,
// +20%); the service's own counters grow by the same.

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
// 0.5, and 0.5 cores and up (the goal's services).
var SizeClasses = []SizeClass{{"< 0.1 cores", 0.02, 0.1}, {"0.1-0.5 cores", 0.1, 0.5}, {">= 0.5 cores", 0.5, 4}}

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
	Regressed  string // the function that regresses ("" on a clean service)
	New        bool   // it is NewFunction, absent before the onset
	rank       int    // its rank in the regressed kind's profile (an existing one)
}

// NewFunction is the name of a new function's regression: no cost before
// its onset, not among a service's generated functions.
const NewFunction = "fnew"

// FunctionFleet builds the fleet: for each kind and size of regression and
// each size class, perClass services whose regression is an existing
// function's, their onsets spread over the day's hours; then cleanPerClass
// clean services per class; then newPerClass per kind, size and class whose
// regression is a new function's (after the others: a fleet's first
// services are the same whatever newPerClass is).
// fixedShares is the range of a service's fixed part of its CPU and
// allocations (the rest is per request).
func FunctionFleet(seed uint64, perClass, cleanPerClass, newPerClass int, fixedShares [2]float64) []FuncService {
	rng := rand.New(rand.NewPCG(seed, 13))
	parts := rand.New(rand.NewPCG(seed, 19)) // which functions carry the fixed cost: a stream of its own
	var out []FuncService
	n := 0
	add := func(kind string, size float64, class int, isNew bool) {
		s := FuncService{Service: randomService(rng, fmt.Sprintf("svc-%03d", len(out)), seed), Class: class}
		c := SizeClasses[class]
		// the cost line rescaled to a mean of Cores over the day: the same
		// shape, a fixed part in fixedShares
		s.peak = logUniform(rng, 5, 300)
		meanTraffic := s.peak * (s.low + (1-s.low)/2)
		s.Cores = logUniform(rng, c.Lo, c.Hi)
		s.fixedShare = fixedShares[0] + (fixedShares[1]-fixedShares[0])*rng.Float64()
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
		s.Kind, s.Size, s.New = kind, size, isNew
		if kind != "" {
			// onsets spread: 7 is prime to the 12 hours of the sweep
			s.OnsetHour = OnsetHours[(n*7)%len(OnsetHours)]
			n++
			s.Onset = onsetDay + time.Duration(s.OnsetHour)*time.Hour + time.Duration(rng.IntN(60))*time.Minute
		}
		if kind != "" && isNew {
			s.Regressed = NewFunction
		} else if kind != "" {
			// the function that regresses: of the top functions, the one
			// whose share is nearest the regression's (one that doubles)
			shares := s.shares(kind)
			for r := range min(TopK, len(shares)) {
				if math.Abs(shares[r]-(size-1)) < math.Abs(shares[s.rank]-(size-1)) {
					s.rank = r
				}
			}
			s.Regressed = s.function(kind, s.rank)
		}
		out = append(out, s)
	}
	regressions := func(per int, isNew bool) {
		for _, kind := range []string{KindCPU, KindAlloc} {
			for _, size := range FunctionSizes {
				for class := range SizeClasses {
					for range per {
						add(kind, size, class, isNew)
					}
				}
			}
		}
	}
	regressions(perClass, false)
	for class := range SizeClasses {
		for range cleanPerClass {
			add("", 0, class, false)
		}
	}
	regressions(newPerClass, true)
	return out
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

// RegressedShare is the regressed function's share of its service's cost
// (of its kind) over the day before the regression (0: a new function).
func (s FuncService) RegressedShare() float64 {
	if s.New {
		return 0
	}
	return s.shares(s.Kind)[s.rank]
}

// minuteWeights fills w (by rank, then the new function) with the
// functions' shares of a minute of one kind whose fixed share of the
// service's cost is phi (MinuteShare); when regressed, the regressed
// function carries the regression's whole added cost on top.
func (s FuncService) minuteWeights(w []float64, kind string, phi float64, regressed bool) {
	shares, fixed := s.cpu, s.cpuFixed
	if kind == KindAlloc {
		shares, fixed = s.alloc, s.allocFixed
	}
	for r := range shares {
		w[r] = MinuteShare(shares[r], fixed[r], s.fixedShare, phi)
	}
	w[len(shares)] = 0
	if regressed {
		r := s.rank
		if s.New {
			r = len(shares)
		}
		w[r] += s.Size - 1
		for i := range w {
			w[i] /= s.Size
		}
	}
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
	function string
	at       []int
	value    []int64
	total    int64
}

func (r *row) sample(at int) {
	r.at = append(r.at, at)
	r.value = append(r.value, r.total)
}

// OpenMetrics writes the service's own counters and the bridge's rows of
// its profiles, one sample a minute from profilesFrom, and returns the
// functions that entered the bridge's set beyond the static top K. Each
// minute's samples are drawn from the minute's CPU seconds and allocated
// bytes over all its functions, at their shares of that minute (a
// fixed-cost function's higher at night); the set (Membership) sees those
// samples as the bridge would: a member's row exists from the minute it
// enters (its counter starting at that minute's count), its cost before in
// `other`. A deploy's missed minute has no samples (no process to profile).
func (s FuncService) OpenMetrics(b *strings.Builder, start time.Time, rng *rand.Rand) []Entry {
	ms := s.Minutes(rng)
	s.openMetricsOf(b, start, ms)
	var entries []Entry
	for _, c := range []struct {
		kind, metric string
		perSample    float64 // seconds or bytes
		samples      func(m minute) float64
	}{
		{KindCPU, "hotpath_profile_cpu_seconds_total", 1.0 / CPUSampleHz, func(m minute) float64 { return m.cpu * 60 * CPUSampleHz }},
		{KindAlloc, "hotpath_profile_alloc_bytes_total", AllocSampleBytes, func(m minute) float64 { return m.alloc * 60 / AllocSampleBytes }},
	} {
		n := s.Functions
		set := NewMembership(BridgeEntry, n+1, TopK)
		rows := map[int]*row{}
		var order, members []int // rows in the order they first entered; current members
		for r := range min(TopK, n) {
			rows[r] = &row{function: s.function(c.kind, r)}
			order = append(order, r)
			members = append(members, r)
		}
		other := &row{function: "other"}
		open := map[int]int{} // an entered member's index in entries
		w := make([]float64, n+1)
		from := int(profilesFrom / time.Minute)
		for i := from; i < len(ms); i++ {
			// the scrape at minute i: each row's total through minute i-1
			for _, f := range members {
				rows[f].sample(i)
			}
			other.sample(i)
			d := time.Duration(i) * time.Minute
			counts := make([]int64, n+1)
			if since, ok := s.sinceDeploy(d); !ok || since >= deployGap {
				phi := s.fixedCPU / (s.fixedCPU + s.cpuPerReq*ms[i].req)
				s.minuteWeights(w, c.kind, phi, s.Kind == c.kind && d >= s.Onset)
				counts = SampleRows(rng, c.samples(ms[i]), w)
			}
			entered, left := set.Step(i, counts)
			for _, f := range left {
				entries[open[f]].To = i
				members = slices.DeleteFunc(members, func(x int) bool { return x == f })
			}
			for _, f := range entered {
				if rows[f] == nil {
					rows[f] = &row{function: s.function(c.kind, f)}
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
			for k, at := range x.at {
				fmt.Fprintf(b, "%s{job=%q,function=%q,instance=\"bridge:9096\"} %s %d\n", c.metric, s.Job, x.function,
					strconv.FormatFloat(float64(x.value[k])*c.perSample, 'f', -1, 64), start.Add(time.Duration(at)*time.Minute).Unix())
			}
		}
	}
	return entries
}

// The two detectors of the function benchmark, on the same data.
const (
	DetectorService  = "service"  // CPUPerRequestRegression and AllocationsPerRequestRegression, as shipped
	DetectorFunction = "function" // FunctionCostPerRequestRegression, as shipped
)

var FunctionDetectors = []string{DetectorService, DetectorFunction}

const functionAlert = "FunctionCostPerRequestRegression"

// functionConditions records FunctionCostPerRequestRegression's condition,
// labelled with the detector (its own labels: job, function, profile_type).
func functionConditions(groups []rulefmt.RuleGroup) (rulefmt.RuleGroup, error) {
	g := rulefmt.RuleGroup{Name: "bench-function-conditions", Interval: model.Duration(60e9)}
	for _, grp := range groups {
		for _, r := range grp.Rules {
			if r.Alert != functionAlert {
				continue
			}
			if r.For != model.Duration(forDuration) {
				return g, fmt.Errorf("%s: for %s, the judge applies %s", r.Alert, r.For, forDuration)
			}
			if hold, err := holdBranch(r.Alert, r.Expr); err != nil || hold != "" {
				return g, fmt.Errorf("%s: reads its own ALERTS (%v): the function judge models no hold branch", r.Alert, err)
			}
			keepFor[DetectorFunction] = time.Duration(r.KeepFiringFor)
			g.Rules = append(g.Rules, rulefmt.Rule{Record: conditionName, Expr: "(" + strings.TrimSpace(r.Expr) + ") * 1", Labels: map[string]string{"detector": DetectorFunction}})
		}
	}
	if len(g.Rules) != 1 {
		return g, fmt.Errorf("found %d %s alerts, want 1", len(g.Rules), functionAlert)
	}
	return g, nil
}

// functionKey names a function alert's series for the judge: its kind and
// function (a regression is detected when the function that regressed is
// the one named).
func functionKey(labels map[string]string) string {
	kind := KindCPU
	if labels["profile_type"] != "cpu" {
		kind = KindAlloc
	}
	return kind + "/" + labels["function"]
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
