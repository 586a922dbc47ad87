package playground

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// Backfiller is the job of the backfilled day before the rules go live: it calibrates the live
// services' costs (calibrate.go), measures the bridge's function rows on the live load
// (profilemetrics.go), writes the day as a promkit/synth model (history.go) and backfills it,
// raw series then the recording rules, into blocks that Processes.restartWithRules moves into
// Prometheus.
type Backfiller struct{ *Processes }

// calibrate measures every service's cost at two request rates: the
// history's cost model.
func (b *Backfiller) calibrate(ctx context.Context) (*Calibration, error) {
	groups := map[string]string{}
	if b.Cgroups != nil {
		for _, s := range b.World.Services {
			if s.Cgroup != nil {
				groups[s.Cgroup.Pod] = s.Job
				groups[s.Cgroup.Name()] = s.Job
			}
		}
	}
	cal, err := Calibrate(ctx, b.World, b.Sup, b.bin("loadgen"), b.Cgroups, groups, b.Opt.CalSettle, b.Opt.CalMeasure, b.Logf)
	if err != nil {
		return nil, err
	}
	if b.Cgroups != nil {
		cal.Exporter, err = promkit.Scrape(ctx, fmt.Sprintf("http://127.0.0.1:%d/metrics", b.World.Ports.Exporter))
	}
	return cal, err
}

// backfillHistory writes the day before promLive from the calibration and,
// for the bridge's function rows, from their live costs per request (raw
// series, then the recording rules level by level) into blocks that
// restartWithRules moves into Prometheus.
func (b *Backfiller) backfillHistory(ctx context.Context, cal *Calibration, promLive, loadStart time.Time) error {
	histDir := b.StatePath("history")
	histData := filepath.Join(histDir, "data")
	_ = os.RemoveAll(histDir)
	if err := os.MkdirAll(histData, 0o755); err != nil {
		return err
	}
	bf := &promkit.Backfill{Promtool: b.tool("promtool"), Prometheus: b.tool("prometheus"), Dir: histDir, DataDir: histData,
		Launcher: b.Sup, Logf: b.Logf, MaxBlockDuration: 24 * time.Hour}
	histStart := promLive.Add(-b.Opt.History)
	var fns *FunctionCosts
	err := b.Step(fmt.Sprintf("bridge: each function's share of its service's profile over %s of live load", functionMeasure), func() (err error) {
		fns, err = b.functionCostsOf(ctx, loadStart, functionSettle, functionMeasure)
		return err
	})
	if err != nil {
		return err
	}
	err = b.Step(fmt.Sprintf("history: %s of normal traffic, raw series (promtool tsdb create-blocks-from openmetrics)", b.Opt.History), func() error {
		h := &History{World: b.World, Cal: cal, End: promLive, LoadStart: loadStart, Length: b.Opt.History, Step: ScrapeInterval, Seed: uint64(promLive.Unix()),
			Functions: fns}
		om := filepath.Join(histDir, "history.om")
		ns, n, err := h.WriteOpenMetrics(om)
		if err != nil {
			return err
		}
		b.Logf("    %d series, %d samples, %s .. %s", ns, n, histStart.Format("Jan 2 15:04:05"), promLive.Add(-ScrapeInterval).Format("15:04:05"))
		if err := bf.Raw(ctx, om); err != nil {
			return err
		}
		return os.Remove(om)
	})
	if err != nil {
		return err
	}
	return b.Step("history: recording rules, one dependency level per pass (promtool tsdb create-blocks-from rules)", func() error {
		_, err := bf.Rules(ctx, histStart, promLive.Add(-time.Second), b.Opt.RuleFiles[0])
		return err
	})
}
