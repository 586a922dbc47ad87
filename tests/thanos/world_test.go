package thanos

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/tests/harness"
)

// world holds what every topology shares: the rendered rule files, the
// counters' origin, one exporter per cluster.
type world struct {
	ruleFiles []string
	start     time.Time // the live counters' origin; history ends here
	exporters map[string]*harness.Exporter
}

// historyHours of recorded history: more than the 6h the baselines need
// before they say anything, far less than their 1d window (a short test).
const historyHours = 8

func newWorld(t *testing.T) *world {
	// The shipped pack with only its groups' intervals shortened (2s, the
	// baseline 4s; realrules' overlay): the comparison sees many evaluations
	// in a minute.
	ruleFiles := harness.FastRuleFiles(t, "fast-intervals.jsonnet")
	w := &world{ruleFiles: ruleFiles, start: time.Now().Truncate(time.Second), exporters: map[string]*harness.Exporter{}}
	for _, c := range clusters {
		c := c
		e := harness.NewExporter(t, "")
		e.RenderEachScrape(harness.DefaultScrapeInterval, func(tick time.Time) string { return page(c, w.start, tick) })
		w.exporters[c] = e
	}
	return w
}

// queryOffset: both sides evaluate every rule this far in the past
// (Prometheus's rule_query_offset, the ruler's --rule-query-offset), so an
// evaluation reads the scrapes of its window once they are stored, however
// late a busy machine ran them. Without it an evaluation can run before the
// scrape at its window's end is appended (on one side and not the other)
// and read a window ending a sample short: Prometheus extrapolates a rate
// 1.1 scrape intervals at most past the last sample, so the rate comes out
// short by the rest (a window 0.79 s short of 5m reads 19.149 req/s of a
// 19.2 line), and so does every record built on it. A scrape is stamped when
// it starts and stored once its body is read, seconds later on a machine
// whose cores are busy with other builds, so the offset is many scrape
// intervals: with 2s, on such a machine, the ruler's 3h load fit left the
// exact line of the synthetic fleet by 0.3% with no scrape missed by its
// stamps.
const queryOffset = 10 * time.Second

// dataDir backfills a fresh data dir with OpenMetrics text (no "# EOF").
func (w *world) dataDir(t *testing.T, om string) string {
	dir := harness.DataDir(t)
	if om != "" {
		harness.BackfillOpenMetrics(t, dir, om+"# EOF\n")
	}
	return dir
}

// rawAhead: the raw series are backfilled this far past the start, on the
// lines the exporters continue. Why: the processes take a minute to start,
// and an evaluation between the history's end and the first scrape would
// read a rate window with a gap at its end (extrapolated differently on each
// side, and remembered for 30m by the cost model's averages). Prometheus
// drops the scraped samples older than its newest block ("out of bounds")
// and takes the live ones from there on: every window is full from the
// first evaluation on, on both sides.
const rawAhead = 90 * time.Second

// raw is the scraped history (6 minutes: the rate windows, and rawAhead)
// of the clusters in only ("" for all), with or without their cluster label.
func (w *world) raw(only string, withCluster bool) string {
	return rawHistory(w.start.Add(-6*time.Minute), w.start.Add(rawAhead), w.start, only, withCluster)
}

// live is when the scraped samples take over from the backfilled ones.
func (w *world) live() time.Time { return w.start.Add(rawAhead) }

// recorded is the recorded history of the clusters in only ("" for all).
func (w *world) recorded(only string, withCluster bool) string {
	return recordedHistory(w.start.Add(-historyHours*time.Hour), w.start, only, withCluster)
}

// scrapeConfig scrapes the clusters' exporters, each series keeping its own
// labels; with clusterTarget each cluster's series get `cluster` from the
// target (one Prometheus holding both clusters).
func (w *world) scrapeConfig(cs []string, clusterTarget bool) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "  - job_name: %s\n    honor_labels: true\n    static_configs:\n      - targets: [%q]\n", c, w.exporters[c].Addr)
		if clusterTarget {
			fmt.Fprintf(&b, "        labels: {cluster: %q}\n", c)
		}
	}
	return b.String()
}

// thanosSide is Prometheus (no rules) behind sidecars, Query and a ruler
// evaluating the pack through Query.
type thanosSide struct {
	query *harness.Query
	ruler *harness.Ruler
}

// startThanos starts a ruler over the given sidecars, on a data dir holding
// rulerHistory, and the Query it evaluates through (listing the ruler).
//
// A ruler with history also holds a fence: one sample at live(), so that it
// drops what it records before live() as "out of bounds", as the reference
// Prometheus does (its newest block is the raw history backfilled up to
// live()). Otherwise the ruler keeps records the reference never has, some of
// them made while Query was still starting (a group whose first rules failed
// and later ones did not); the 3h averages of the cost model hold such
// records for hours, and their fit then differs from the reference's.
func (w *world) startThanos(t *testing.T, sidecars []*harness.Sidecar, rulerHistory string) thanosSide {
	if rulerHistory != "" {
		rulerHistory += promkit.OpenMetricsGauges(map[string][]string{
			"hotpath_test_fence": {fmt.Sprintf("hotpath_test_fence 1 %d", w.live().Unix())},
		})
	}
	queryAddr := harness.FreeAddr(t)
	ruler := harness.StartRuler(t, harness.RulerConfig{
		RuleFiles:   w.ruleFiles,
		QueryURL:    "http://" + queryAddr,
		DataDir:     w.dataDir(t, rulerHistory),
		QueryOffset: queryOffset,
	})
	endpoints := []string{ruler.GRPC}
	for _, s := range sidecars {
		endpoints = append(endpoints, s.GRPC)
	}
	q := harness.StartQuery(t, harness.QueryConfig{Endpoints: endpoints, Addr: queryAddr})
	return thanosSide{query: q, ruler: ruler}
}

// sidecarOver starts a Prometheus without rules on dataDir, scraping the
// clusters in cs, with external labels, and a sidecar next to it.
func (w *world) sidecarOver(t *testing.T, dataDir string, cs []string, clusterTarget bool, external map[string]string) *harness.Sidecar {
	p := harness.StartPrometheus(t, harness.PromConfig{
		DataDir:        dataDir,
		ExtraConfig:    w.scrapeConfig(cs, clusterTarget),
		ExternalLabels: external,
		Args:           harness.LeaveOverlappingBlocks,
	})
	return harness.StartSidecar(t, p, dataDir)
}
