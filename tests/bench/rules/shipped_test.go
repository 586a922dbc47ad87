//go:build bench

package rules

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// TestShippedIntervals is the side-by-side run alone, on the first fleet of
// BENCH_SIZES (10k input series by default), against BENCH_BEFORE_REF: the
// goal's measure without the rest of `make bench-rules`. It prints its
// report, and writes it to BENCH_OUT when set
// (tests/bench/RESULTS-rules-shipped.md under `make bench-rules-shipped`).
func TestShippedIntervals(t *testing.T) {
	ref := os.Getenv("BENCH_BEFORE_REF")
	if ref == "" {
		t.Skip("BENCH_BEFORE_REF names no earlier pack to compare with")
	}
	n := 10000
	if s := os.Getenv("BENCH_SIZES"); s != "" {
		var err error
		if n, err = strconv.Atoi(strings.Split(s, ",")[0]); err != nil {
			t.Fatal(err)
		}
	}
	pk := packs{shipped: map[string]time.Duration{}, before: ref}
	for _, g := range harness.ShippedRules(t) {
		pk.shipped[g.Name] = time.Duration(g.Interval)
	}
	f := newSynthetic(n)
	s := runShipped(t, f, ref)
	var b strings.Builder
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "# Rule pack at the shipped intervals\n\nWritten by `make bench-rules-shipped` (tests/bench/rules, `shipped.go`) on %s: %s, %d cores (shared with other work), %s, Prometheus v0.309.1. "+
		"The fleet and its backfill are `make bench-rules`' (tests/bench/RESULTS-rules.md says what they hold).\n\n## %d input series (%d services, %d function rows)\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), harness.CPUModel(), runtime.NumCPU(), host, f.inputSeries(), f.services, 2*f.functionRowCount())
	renderShipped(&b, s, f, pk)
	fmt.Println(b.String())
	if path := os.Getenv("BENCH_OUT"); path != "" {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
