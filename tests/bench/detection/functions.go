//go:build bench

package detection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
)

// The function benchmark's fleet (`make bench-functions`): the detection
// fleet's services (diurnal traffic, cost line, noise, deploys, traffic
// doubling), sized into three classes of CPU, each with a continuous
// profile per type, exported as hotpath-profile-metrics exports it: its top
// TopK functions by the day's cost plus function="other", as counters of CPU
// seconds and allocated bytes, labelled job and function. A regression is
// one function whose cost grows by a share of its whole service's cost per
// request (+5%, +10%, +20%); the service's own counters grow by the same.

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
	Class     int     // index in SizeClasses
	Cores     float64 // its mean CPU over the day, before any regression
	Functions int     // in its profiles
	cpu       []float64
	alloc     []float64 // shares by rank; allocRank[r] is the function of alloc rank r
	allocRank []int
	Regressed string // the function that regresses ("" on a clean service)
	rank      int    // its rank in the regressed kind's profile
}

// FunctionFleet builds the fleet: for each kind and size of regression and
// each size class, perClass services, their onsets spread over the day's
// hours; then cleanPerClass clean services per class.
// fixedShares is the range of a service's fixed part of its CPU and
// allocations (the rest is per request).
func FunctionFleet(seed uint64, perClass, cleanPerClass int, fixedShares [2]float64) []FuncService {
	rng := rand.New(rand.NewPCG(seed, 13))
	var out []FuncService
	n := 0
	add := func(kind string, size float64, class int) {
		s := FuncService{Service: randomService(rng, fmt.Sprintf("svc-%03d", len(out)), seed), Class: class}
		c := SizeClasses[class]
		// the cost line rescaled to a mean of Cores over the day: the same
		// shape, a fixed part in fixedShares
		s.peak = logUniform(rng, 5, 300)
		meanTraffic := s.peak * (s.low + (1-s.low)/2)
		s.Cores = logUniform(rng, c.Lo, c.Hi)
		fixedShare := fixedShares[0] + (fixedShares[1]-fixedShares[0])*rng.Float64()
		s.fixedCPU = s.Cores * fixedShare
		s.cpuPerReq = s.Cores * (1 - fixedShare) / meanTraffic
		// allocations: 20-200 MiB per CPU second
		perCPUSecond := logUniform(rng, 20<<20, 200<<20)
		s.fixedAlloc, s.allocPerReq = s.fixedCPU*perCPUSecond, s.cpuPerReq*perCPUSecond
		// tens to thousands of functions, Zipf-like shares
		s.Functions = int(logUniform(rng, 30, 3000))
		s.cpu = ZipfShares(s.Functions, 0.9+0.4*rng.Float64())
		s.alloc = ZipfShares(s.Functions, 0.9+0.4*rng.Float64())
		s.allocRank = rng.Perm(s.Functions)
		s.Kind, s.Size = kind, size
		if kind != "" {
			// onsets spread: 7 is prime to the 12 hours of the sweep
			s.OnsetHour = OnsetHours[(n*7)%len(OnsetHours)]
			n++
			s.Onset = onsetDay + time.Duration(s.OnsetHour)*time.Hour + time.Duration(rng.IntN(60))*time.Minute
			// the function that regresses: of the top functions, the one
			// whose share is nearest the regression's (one that doubles)
			shares := s.cpu
			if kind == KindAlloc {
				shares = s.alloc
			}
			for r := range min(TopK, len(shares)) {
				if math.Abs(shares[r]-(size-1)) < math.Abs(shares[s.rank]-(size-1)) {
					s.rank = r
				}
			}
			s.Regressed = s.function(kind, s.rank)
		}
		out = append(out, s)
	}
	for _, kind := range []string{KindCPU, KindAlloc} {
		for _, size := range FunctionSizes {
			for class := range SizeClasses {
				for range perClass {
					add(kind, size, class)
				}
			}
		}
	}
	for class := range SizeClasses {
		for range cleanPerClass {
			add("", 0, class)
		}
	}
	return out
}

// function is the name of the function of a given rank in a kind's profile.
func (s FuncService) function(kind string, rank int) string {
	if kind == KindAlloc {
		return fmt.Sprintf("f%04d", s.allocRank[rank])
	}
	return fmt.Sprintf("f%04d", rank)
}

// RegressedShare is the regressed function's share of its service's cost
// (of its kind) before the regression.
func (s FuncService) RegressedShare() float64 {
	if s.Kind == KindAlloc {
		return s.alloc[s.rank]
	}
	return s.cpu[s.rank]
}

// weights are the bridge's rows' shares of a minute's samples of one kind:
// the top functions, then `other`; after the onset of a regression of
// that kind, its function carries the regression's whole added cost.
func (s FuncService) weights(kind string, regressed bool) []float64 {
	shares := s.cpu
	if kind == KindAlloc {
		shares = s.alloc
	}
	k := min(TopK, len(shares))
	out := make([]float64, k+1)
	rest := 1.0
	for r := range k {
		out[r] = shares[r]
		rest -= shares[r]
	}
	out[k] = max(0, rest)
	if regressed {
		out[s.rank] += s.Size - 1
		for i := range out {
			out[i] /= s.Size
		}
	}
	return out
}

// OpenMetrics writes the service's own counters and the bridge's rows of
// its profiles, one sample a minute (the rows from profilesFrom), the
// minute's samples drawn from the minute's CPU seconds and allocated bytes.
// A deploy's missed minute has no samples (no process to profile).
func (s FuncService) OpenMetrics(b *strings.Builder, start time.Time, rng *rand.Rand) {
	ms := s.Minutes(rng)
	s.openMetricsOf(b, start, ms)
	for _, c := range []struct {
		kind, metric string
		perSample    float64 // seconds or bytes
		samples      func(m minute) float64
	}{
		{KindCPU, "hotpath_profile_cpu_seconds_total", 1.0 / CPUSampleHz, func(m minute) float64 { return m.cpu * 60 * CPUSampleHz }},
		{KindAlloc, "hotpath_profile_alloc_bytes_total", AllocSampleBytes, func(m minute) float64 { return m.alloc * 60 / AllocSampleBytes }},
	} {
		rows := make([]string, 0, TopK+1)
		for r := range min(TopK, s.Functions) {
			rows = append(rows, s.function(c.kind, r))
		}
		rows = append(rows, "other")
		before, after := s.weights(c.kind, false), s.weights(c.kind, s.Kind == c.kind)
		counts := make([][]int64, len(ms))
		from := int(profilesFrom / time.Minute)
		for i := from; i < len(ms); i++ {
			d := time.Duration(i) * time.Minute
			if since, ok := s.sinceDeploy(d); ok && since < deployGap {
				counts[i] = make([]int64, len(rows))
				continue
			}
			w := before
			if s.Kind != "" && d >= s.Onset {
				w = after
			}
			counts[i] = SampleRows(rng, c.samples(ms[i]), w)
		}
		for r, fn := range rows {
			var total int64
			for i := from; i < len(ms); i++ {
				fmt.Fprintf(b, "%s{job=%q,function=%q,instance=\"bridge:9096\"} %s %d\n", c.metric, s.Job, fn,
					strconv.FormatFloat(float64(total)*c.perSample, 'f', -1, 64), start.Add(time.Duration(i)*time.Minute).Unix())
				total += counts[i][r]
			}
		}
	}
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

// inClass are the fleet's services of a size class (all with class < 0).
func inClass(fleet []FuncService, class int) []Service {
	var out []Service
	for _, s := range fleet {
		if class < 0 || s.Class == class {
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
