package harness

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
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
