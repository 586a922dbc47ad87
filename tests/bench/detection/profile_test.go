package detection

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestZipfShares(t *testing.T) {
	for _, n := range []int{1, 30, 3000} {
		shares := ZipfShares(n, 1.1)
		sum := 0.0
		for i, s := range shares {
			sum += s
			if i > 0 && s > shares[i-1] {
				t.Fatalf("n=%d: share %d (%g) above share %d (%g): want largest first", n, i, s, i-1, shares[i-1])
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("n=%d: shares sum to %g, want 1", n, sum)
		}
	}
	// 1/(i+1)^1: the first of two weighs twice the second
	if got := ZipfShares(2, 1); math.Abs(got[0]-2.0/3) > 1e-12 || math.Abs(got[1]-1.0/3) > 1e-12 {
		t.Errorf("ZipfShares(2, 1) = %v, want [2/3 1/3]", got)
	}
}

// Poisson's mean and variance are both lambda, on both sides of the
// method switch at 10, and its counts are never negative.
func TestPoisson(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 40000
	for _, lambda := range []float64{0.3, 4, 10, 55, 6000} {
		var sum, sq float64
		for range n {
			k := Poisson(rng, lambda)
			if k < 0 {
				t.Fatalf("lambda %g: drew %d", lambda, k)
			}
			sum += float64(k)
			sq += float64(k) * float64(k)
		}
		mean := sum / n
		variance := sq/n - mean*mean
		// 5 standard errors of the mean; the variance within 5%
		if se := math.Sqrt(lambda / n); math.Abs(mean-lambda) > 5*se {
			t.Errorf("lambda %g: mean %g, want within %g", lambda, mean, 5*se)
		}
		if math.Abs(variance/lambda-1) > 0.05 {
			t.Errorf("lambda %g: variance %g, want %g within 5%%", lambda, variance, lambda)
		}
	}
	if got := Poisson(rng, 0); got != 0 {
		t.Errorf("lambda 0: drew %d", got)
	}
}

// The rows of a minute: each row's mean is its share of the samples.
func TestSampleRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	weights := []float64{0.5, 0.3, 0.15, 0.05}
	const n, mean = 20000, 200.0
	sums := make([]float64, len(weights))
	for range n {
		for i, c := range SampleRows(rng, mean, weights) {
			sums[i] += float64(c)
		}
	}
	for i, w := range weights {
		got, want := sums[i]/n, mean*w
		if math.Abs(got-want) > 5*math.Sqrt(want/n) {
			t.Errorf("row %d: mean %g samples, want %g", i, got, want)
		}
	}
}

// The fixed parts add up to the service's fixed share, each within [0, 1],
// some functions wholly fixed; at any phi the minute's shares sum to 1,
// and a wholly fixed function's share follows phi.
func TestFixedParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	shares := ZipfShares(300, 1.1)
	for _, fixed := range []float64{0.2, 0.35, 0.5} {
		g := FixedParts(rng, shares, fixed)
		sum, whole := 0.0, 0
		for i, x := range g {
			if x < 0 || x > 1 {
				t.Fatalf("fixed %g: function %d's fixed fraction %g", fixed, i, x)
			}
			if x == 1 {
				whole++
			}
			sum += shares[i] * x
		}
		if math.Abs(sum-fixed) > 1e-9 || whole == 0 {
			t.Errorf("fixed %g: the fixed parts sum to %g (want %g), %d functions wholly fixed (want some)", fixed, sum, fixed, whole)
		}
		for _, phi := range []float64{0.1, fixed, 0.8} {
			total := 0.0
			for i := range shares {
				total += MinuteShare(shares[i], g[i], fixed, phi)
			}
			if math.Abs(total-1) > 1e-9 {
				t.Errorf("fixed %g, phi %g: shares sum to %g", fixed, phi, total)
			}
		}
		for i := range shares {
			if g[i] == 1 {
				if got, want := MinuteShare(shares[i], 1, fixed, 0.8), shares[i]*0.8/fixed; math.Abs(got-want) > 1e-12 {
					t.Errorf("a wholly fixed function at phi 0.8: share %g, want %g", got, want)
				}
				break
			}
		}
	}
}
