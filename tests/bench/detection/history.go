//go:build bench

package detection

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

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

// checkRecorded fails unless every recorded series of groups has a value at
// mid: a detector would otherwise be judged on rules that never ran.
func checkRecorded(t *testing.T, p *harness.Prometheus, groups []rulefmt.RuleGroup, start, mid time.Time) {
	for _, name := range promkit.RecordedNames(groups) {
		got, err := p.QueryRange(context.Background(), fmt.Sprintf("count(last_over_time(%s[30m]))", name), mid, mid, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || len(got[0].Points) == 0 {
			t.Errorf("%s: no series at hour %.0f", name, mid.Sub(start).Hours())
		} else {
			t.Logf("%s: %g series at hour %.0f", name, got[0].Points[0][1], mid.Sub(start).Hours())
		}
	}
}

// readSeen reads one detector's recorded conditions, and their hold
// branches, minute by minute from judgedFrom's hour before to end: job ->
// key(series labels) -> the minutes (since start) each held.
func readSeen(t *testing.T, p *harness.Prometheus, detector string, start, end time.Time, key func(labels map[string]string) string) map[string]map[string]Seen {
	seen := map[string]map[string]Seen{}
	for _, name := range []string{conditionName, holdConditionName} {
		// one evaluation a minute, at the group's own offset within it: a
		// (left-open) minute's window holds exactly that minute's sample
		series, err := p.QueryRange(context.Background(), fmt.Sprintf(`count_over_time(%s{detector=%q}[1m])`, name, detector), start.Add(judgedFrom-time.Hour), end.Add(-time.Minute), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range series {
			job, k := s.Metric["job"], key(s.Metric)
			if seen[job] == nil {
				seen[job] = map[string]Seen{}
			}
			x := seen[job][k]
			for _, pt := range s.Points {
				m := int((time.Unix(int64(pt[0]), 0).Sub(start)) / time.Minute)
				if name == conditionName {
					x.Cond = append(x.Cond, m)
				} else {
					x.Hold = append(x.Hold, m)
				}
			}
			seen[job][k] = x
		}
	}
	return seen
}
