//go:build bench

package detection

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// The endpoint benchmark's backfill: its fleet written as OpenMetrics text
// and imported with `promtool tsdb create-blocks-from openmetrics`, its
// rules recorded by `promtool tsdb create-blocks-from rules`, where the
// detection and function benchmarks now record in process (history.go).

// benchDataDir is the empty TSDB directory a run backfills: a temporary
// one, or under keep (-keep's directory), to query afterwards.
func benchDataDir(t *testing.T, keep string) string {
	dir := t.TempDir()
	if keep != "" {
		dir, _ = filepath.Abs(keep)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	dataDir := filepath.Join(dir, "data")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dataDir
}

// importer backfills OpenMetrics text in chunks, each its own import (and
// blocks: their series differ, so the overlapping blocks hold no sample
// twice), each well within the import's time limit on a busy machine.
type importer struct {
	t       *testing.T
	dataDir string
	om      strings.Builder
	size    int // bytes imported
}

// flush imports what was written since the last flush.
func (im *importer) flush() {
	if im.om.Len() == 0 {
		return
	}
	im.om.WriteString("# EOF\n")
	im.size += im.om.Len()
	harness.BackfillOpenMetrics(im.t, im.dataDir, im.om.String())
	im.om.Reset()
}

// openMetricsOf writes the service's three counters of minutes ms
// (seriesOf) as OpenMetrics lines.
func (s Service) openMetricsOf(b *strings.Builder, start time.Time, ms []minute) {
	for _, x := range s.seriesOf(start, ms) {
		for i, t := range x.T {
			fmt.Fprintf(b, "%s{job=%q,instance=\"i1\"} %s %d\n", x.Labels.Get("__name__"), s.Job, strconv.FormatFloat(x.V[i], 'f', 3, 64), t/1000)
		}
	}
}
