//go:build bench

package detection

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/evaluate"
)

// history is the days a benchmark judges: the fleet's generated series, and
// the rules recorded over them by the pinned Prometheus's engine in this
// process (promkit/evaluate) as promtool's rules backfill records them.
type history struct {
	*evaluate.History
	t       testing.TB
	keep    string // a directory to snapshot the history into, or ""
	samples int    // written
}

// newHistory opens an empty history; with keep set (-keep), finish
// snapshots it there.
func newHistory(t testing.TB, keep string) *history {
	if keep != "" {
		abs, err := filepath.Abs(keep)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.RemoveAll(abs); err != nil {
			t.Fatal(err)
		}
		keep = abs
	}
	h, err := evaluate.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return &history{History: h, t: t, keep: keep}
}

// write appends generated series.
func (h *history) write(series []evaluate.Series) {
	for _, s := range series {
		h.samples += len(s.T)
	}
	if err := h.Write(context.Background(), series...); err != nil {
		h.t.Fatal(err)
	}
}

// record evaluates the recording rules of groups over [start, end], both
// cores at work.
func (h *history) record(groups []rulefmt.RuleGroup, start, end time.Time) {
	err := h.Record(context.Background(), groups, start, end, evaluate.Options{Workers: runtime.NumCPU(), Logf: h.t.Logf})
	if err != nil {
		h.t.Fatal(err)
	}
}

// finish snapshots the history into keep, when set, for a Prometheus to
// query afterwards.
func (h *history) finish(start time.Time) {
	if h.keep == "" {
		return
	}
	if err := h.Snapshot(h.keep); err != nil {
		h.t.Fatal(err)
	}
	h.t.Logf("data kept in %s (start %s, %d): prometheus --storage.tsdb.path=%s", h.keep, start.UTC().Format(time.RFC3339), start.Unix(), h.keep)
}

// querier is what reads the recorded history.
type querier interface {
	QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error)
}

// checkRecorded fails unless every recorded series of groups has a value at
// mid: a detector would otherwise be judged on rules that never ran.
func checkRecorded(t *testing.T, p querier, groups []rulefmt.RuleGroup, start, mid time.Time) {
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
func readSeen(t *testing.T, p querier, detector string, start, end time.Time, key func(labels map[string]string) string) map[string]map[string]Seen {
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
