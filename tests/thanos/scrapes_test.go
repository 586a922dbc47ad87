package thanos

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/tests/harness"
)

// rateWindow is the pack's (the fast-intervals overlay keeps it).
const rateWindow = 5 * time.Minute

// A gap between two stored scrapes longer than this is one a rate window
// can end or start in and be extrapolated short: Prometheus extrapolates a
// window's ends by at most 1.1 average sampling intervals. Scrapes stamped
// with their tick (harness.Exporter) are exactly one interval apart unless
// one was missed or ran later than its tick's slack.
const gapOver = harness.DefaultScrapeInterval * 105 / 100

// span is a half-open range of record timestamps, in ms.
type span struct{ from, to int64 }

// shortWindows are, per cluster, the record timestamps at which one
// server's rate windows over that cluster's scrapes were short: they ended
// in, or started in, a gap its scrapes left. Such a record is that server's
// answer to other inputs than the other side's (a window with less in it),
// not a difference in how the two evaluate the same rule; so are the
// records other groups made from it within maxSkew after.
type shortWindows map[string][]span

// scrapeGaps finds p's short windows from the stored samples of one scraped
// counter per cluster (every counter of a cluster comes from the same
// scrape), from since (when the scrapes took over from the backfilled
// history, which has no gaps) to at: a record averaging hours of records
// holds a short window read at any time since. Series without a cluster
// label are cluster (a cluster's own Prometheus).
func scrapeGaps(t *testing.T, p *harness.Prometheus, since, at time.Time, cluster string) shortWindows {
	t.Helper()
	out := shortWindows{}
	for k, vals := range rawSamples(t, p, `http_requests_total{job="api"}`, at, at.Sub(since)+rateWindow) {
		c := string(parseLabels(k)["cluster"])
		if c == "" {
			c = cluster
		}
		ts := make([]int64, 0, len(vals))
		for x := range vals {
			ts = append(ts, x)
		}
		out[c] = append(out[c], gapSpans(ts)...)
	}
	return out
}

// gapSpans are the record timestamps whose rate window ends or starts in a
// gap of the scrape timestamps ts (ms): windows (t-rateWindow, t] ending
// beyond the extrapolation reach of the sample before the gap, and windows
// starting in the gap too far from the sample after it.
func gapSpans(ts []int64) []span {
	ts = slices.Sorted(slices.Values(ts))
	w, slack := rateWindow.Milliseconds(), gapOver.Milliseconds()
	var out []span
	for i := 1; i < len(ts); i++ {
		a, b := ts[i-1], ts[i]
		if b-a > slack {
			out = append(out, span{a + slack, b}, span{a + w, b + w - slack + 1})
		}
	}
	return out
}

// excuse says why a record of cluster at ts (ms) is not comparable, or "":
// it read a short window itself, or it holds one read up to after before
// (the record's memory past its rate windows: memories.afterRate).
func (s shortWindows) excuse(side, cluster string, ts int64, after time.Duration) string {
	for _, sp := range s[cluster] {
		if sp.from <= ts && sp.to+after.Milliseconds() > ts-maxSkew.Milliseconds() {
			return fmt.Sprintf("%s's rate windows over %s's scrapes were short from %s to %s (a scrape missed or late past its tick)",
				side, cluster, time.UnixMilli(sp.from).UTC().Format("15:04:05.000"), time.UnixMilli(sp.to).UTC().Format("15:04:05.000"))
		}
	}
	return ""
}

// String lists the gaps' spans per cluster, for the log.
func (s shortWindows) String() string {
	var b strings.Builder
	for _, c := range slices.Sorted(maps.Keys(s)) {
		for _, sp := range s[c] {
			fmt.Fprintf(&b, " %s %s-%s", c, clock(sp.from), clock(sp.to))
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()[1:]
}
