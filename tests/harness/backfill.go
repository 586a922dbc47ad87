package harness

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
)

// DataDir is a new, empty data directory for a test's Prometheus, to
// backfill before the server starts on it.
func DataDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	must(t, os.MkdirAll(dir, 0o755), "data dir")
	return dir
}

// BackfillOpenMetrics writes OpenMetrics text (samples with timestamps, ending
// in "# EOF") into TSDB blocks in dataDir: raw history for a server started
// on dataDir afterwards.
func BackfillOpenMetrics(t testing.TB, dataDir, text string) {
	t.Helper()
	b := backfill(t, dataDir)
	in := filepath.Join(b.Dir, "history.om")
	must(t, os.WriteFile(in, []byte(text), 0o644), "write openmetrics")
	must(t, b.Raw(context.Background(), in), "backfill openmetrics")
}

// BackfillRules evaluates the recording rules in ruleFiles over [start, end]
// into dataDir, one dependency level per pass (promkit.Backfill).
func BackfillRules(t testing.TB, dataDir string, ruleFiles []string, start, end time.Time) {
	t.Helper()
	b := backfill(t, dataDir)
	b.Logf = t.Logf
	_, err := b.Rules(context.Background(), start, end, ruleFiles...)
	must(t, err, "backfill rules")
}

func backfill(t testing.TB, dataDir string) *promkit.Backfill {
	dir := t.TempDir()
	return &promkit.Backfill{
		Promtool: Tool(t, "promtool"), Prometheus: Tool(t, "prometheus"),
		Dir: dir, DataDir: dataDir, Launcher: promkit.ExecLauncher{LogDir: dir},
	}
}

// RawHistory is a test's scraped series over [from, start), every step, as
// OpenMetrics lines without "# EOF": at calls counter with each counter's
// rate and gauge with each gauge's value at t. A counter ends where the live
// one begins, at synth.CounterBase at start, each step integrated backwards
// at its own rate.
func RawHistory(from, start time.Time, step time.Duration, at func(t time.Time, counter, gauge func(key string, v float64))) string {
	value := map[string]float64{}
	lines := map[string][]string{}
	for t := start.Add(-step); !t.Before(from); t = t.Add(-step) {
		at(t, func(key string, perSecond float64) {
			if _, ok := value[key]; !ok {
				value[key] = synth.CounterBase
			}
			value[key] -= perSecond * step.Seconds()
			lines[key] = append(lines[key], fmt.Sprintf("%s %g %d", key, value[key], t.Unix()))
		}, func(key string, v float64) {
			lines[key] = append(lines[key], fmt.Sprintf("%s %g %d", key, v, t.Unix()))
		})
	}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(lines)) {
		ls := lines[k]
		slices.Reverse(ls) // written backwards from start; each series in time order
		b.WriteString(strings.Join(ls, "\n") + "\n")
	}
	return b.String()
}
