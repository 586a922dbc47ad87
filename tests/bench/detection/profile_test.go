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
