package detection

import (
	"math"
	"math/rand/v2"
)

// The synthetic continuous profiles of the function benchmark (`make
// bench-functions`): a service's functions with Zipf-like self-cost shares,
// and each minute's samples as a sampling profiler takes them (100 Hz CPU
// samples; one allocation sample per so many bytes), a Poisson count of
// samples split multinomially over the functions. Without the bench tag:
// its unit test runs with the other Go tests.

const (
	// CPUSampleHz is the CPU profiler's sampling rate: a second of CPU is 100
	// samples of 10 ms each (Go's and Pyroscope's default).
	CPUSampleHz = 100
	// AllocSampleBytes is the heap profiler's mean sampling interval (Go's
	// runtime.MemProfileRate, 512 KiB): one sample per that many bytes
	// allocated on average, each weighing that many.
	AllocSampleBytes = 512 << 10
)

// ZipfShares are n functions' shares of a profile's self cost, largest
// first: the i-th (from 0) weighs 1/(i+1)^exponent, the whole sums to 1.
func ZipfShares(n int, exponent float64) []float64 {
	out := make([]float64, n)
	sum := 0.0
	for i := range out {
		out[i] = math.Pow(float64(i+1), -exponent)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// SampleRows draws one minute of a profile's rows: a Poisson number of
// samples of the given mean, split multinomially over the rows by weights
// (which sum to 1). A Poisson total split multinomially is the same as an
// independent Poisson count per row, with the row's share of the mean.
func SampleRows(rng *rand.Rand, mean float64, weights []float64) []int64 {
	out := make([]int64, len(weights))
	for i, w := range weights {
		out[i] = Poisson(rng, mean*w)
	}
	return out
}

// Poisson draws a count of mean lambda: by multiplying uniforms below 10,
// by Hörmann's transformed rejection (PTRS, as numpy draws it) above.
func Poisson(rng *rand.Rand, lambda float64) int64 {
	if lambda <= 0 {
		return 0
	}
	if lambda < 10 {
		limit, p, k := math.Exp(-lambda), 1.0, int64(0)
		for {
			p *= rng.Float64()
			if p <= limit {
				return k
			}
			k++
		}
	}
	slam, loglam := math.Sqrt(lambda), math.Log(lambda)
	b := 0.931 + 2.53*slam
	a := -0.059 + 0.02483*b
	invalpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := rng.Float64() - 0.5
		v := rng.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lambda + 0.43)
		if us >= 0.07 && v <= vr {
			return int64(k)
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		lg, _ := math.Lgamma(k + 1)
		if math.Log(v)+math.Log(invalpha)-math.Log(a/(us*us)+b) <= -lambda+k*loglam-lg {
			return int64(k)
		}
	}
}

// FixedParts splits a profile's day into the service's fixed cost and its
// cost per request, function by function: of shares (the day's, summing to
// 1), a random subset whose shares fit within fixedShare carries its whole
// cost fixed (background work: GC, timers, caches), and the rest of
// fixedShare is spread evenly over the other functions' costs. The result
// is each function's fixed fraction g; the shares of the fixed part sum to
// fixedShare (sum of shares[i]*g[i]). At a minute whose fixed share of the
// service's cost is phi, function i's share is MinuteShare.
func FixedParts(rng *rand.Rand, shares []float64, fixedShare float64) []float64 {
	g := make([]float64, len(shares))
	inB := 0.0
	for _, i := range rng.Perm(len(shares)) {
		if inB+shares[i] <= fixedShare {
			g[i] = 1
			inB += shares[i]
		}
	}
	rest := 0.0
	if inB < 1 {
		rest = (fixedShare - inB) / (1 - inB)
	}
	for i := range g {
		if g[i] == 0 {
			g[i] = rest
		}
	}
	return g
}

// MinuteShare is a function's share of its service's cost at a minute whose
// fixed share of that cost is phi, given its day's share, its fixed
// fraction g (FixedParts) and the service's fixed share of the day: its
// fixed part scaled by phi/fixedShare, its part per request by
// (1-phi)/(1-fixedShare). A fixed-cost function's share rises at night,
// when fewer requests make phi larger; over all functions they sum to 1.
func MinuteShare(share, g, fixedShare, phi float64) float64 {
	if fixedShare <= 0 {
		return share // no fixed part: every function's cost is per request
	}
	return share * (g*phi/fixedShare + (1-g)*(1-phi)/(1-fixedShare))
}
