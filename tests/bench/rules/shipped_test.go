//go:build bench

package rules

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// TestShippedIntervals is the side-by-side run alone, on the first fleet of
// BENCH_SIZES (10k input series by default), against BENCH_BEFORE_REF: the
// goal's measure without the rest of `make bench-rules`. It prints its
// paragraph and writes no file.
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
	renderShipped(&b, s, f, pk)
	fmt.Println(b.String())
}
