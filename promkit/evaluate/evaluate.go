// Package evaluate records a rule pack over history inside the calling
// process, with the pinned Prometheus's own query engine and storage: the
// evaluation `promtool tsdb create-blocks-from rules` makes (each recording
// rule a range query over its group's evaluation times, one dependency level
// after another, promkit.Levels), without a server, HTTP, JSON or blocks
// written and reopened between levels. The benchmarks judge thousands of
// generated series over days with it; promkit.Backfill, the same evaluation
// through the binaries, stays the playground's and the tests' path, and the
// two are compared on the same history (evaluate_test.go).
//
// The history lives in one TSDB head that never compacts: its chunk range
// spans the whole history, so a series may be written from its first sample
// whatever was written before it, and a level's results are read by the next
// level as soon as they are appended. Memory: about 1.5 bytes a sample.
package evaluate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/rules"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb"

	"github.com/hotpath/hotpath/promkit"
)

// span is the longest history a History holds: its head's chunk range.
const span = 60 * 24 * time.Hour

// History is a TSDB head to write series into and evaluate rules over.
type History struct {
	db     *tsdb.DB
	engine *promql.Engine
}

// Open makes an empty history in dir (scratch: the head's memory-mapped
// chunks; no write-ahead log).
func Open(dir string) (*History, error) {
	opts := tsdb.DefaultOptions()
	opts.MinBlockDuration = span.Milliseconds()
	opts.MaxBlockDuration = span.Milliseconds()
	opts.WALSegmentSize = -1
	db, err := tsdb.Open(dir, nil, nil, opts, nil)
	if err != nil {
		return nil, err
	}
	db.DisableCompactions()
	return &History{db: db, engine: promql.NewEngine(promql.EngineOpts{
		MaxSamples:    1 << 30,
		Timeout:       time.Hour,
		LookbackDelta: 5 * time.Minute,
		// Prometheus's own defaults: a subquery without a step steps at the
		// global evaluation interval (1m, as promkit configures servers).
		NoStepSubqueryIntervalFn: func(int64) int64 { return time.Minute.Milliseconds() },
		EnableAtModifier:         true,
		EnableNegativeOffset:     true,
	})}, nil
}

// Close releases the head.
func (h *History) Close() error { return h.db.Close() }

// Series is one series to write: its labels (with __name__) and samples in
// time order.
type Series struct {
	Labels labels.Labels
	T      []int64 // milliseconds
	V      []float64
}

// Write appends whole series, each in one commit.
func (h *History) Write(ctx context.Context, series ...Series) error {
	for _, s := range series {
		app := h.db.Appender(ctx)
		var ref storage.SeriesRef
		var err error
		for i, t := range s.T {
			if ref, err = app.Append(ref, s.Labels, t, s.V[i]); err != nil {
				_ = app.Rollback()
				return fmt.Errorf("%s at %d: %w", s.Labels, t, err)
			}
		}
		if err := app.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// QueryRange runs a range query, its result as promkit's client returns it.
func (h *History) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]promkit.Series, error) {
	var out []promkit.Series
	err := h.rangeQuery(ctx, q, start, end, step, func(m promql.Matrix) error {
		out = make([]promkit.Series, 0, len(m))
		for _, s := range m {
			x := promkit.Series{Metric: s.Metric.Map()}
			for _, p := range s.Floats {
				x.Points = append(x.Points, [2]float64{float64(p.T) / 1e3, p.F})
			}
			out = append(out, x)
		}
		return nil
	})
	return out, err
}

// rangeQuery runs a range query and hands its result to use, which must not
// keep it: closing the query returns the result's points to the engine's
// pools, where the next query of any worker takes them.
func (h *History) rangeQuery(ctx context.Context, q string, start, end time.Time, step time.Duration, use func(promql.Matrix) error) error {
	qry, err := h.engine.NewRangeQuery(ctx, h.db, nil, q, start, end, step)
	if err != nil {
		return fmt.Errorf("query_range %q: %w", q, err)
	}
	defer qry.Close()
	res := qry.Exec(ctx)
	if res.Err != nil {
		return fmt.Errorf("query_range %q: %w", q, res.Err)
	}
	m, err := res.Matrix()
	if err != nil {
		return fmt.Errorf("query_range %q: %w", q, err)
	}
	return use(m)
}

// Options steer Record.
type Options struct {
	// Interval of a group that sets none (promtool's --eval-interval, 1m).
	Interval time.Duration
	// Chunk bounds one range query's span, and so the memory of its result.
	Chunk time.Duration
	// Workers evaluate that many rules of a level at once.
	Workers int
	// Logf reports each level; may be nil.
	Logf func(string, ...any)
}

func (o Options) withDefaults() Options {
	if o.Interval <= 0 {
		o.Interval = time.Minute
	}
	if o.Chunk <= 0 {
		o.Chunk = 12 * time.Hour
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	return o
}

// Record evaluates groups' recording rules over [start, end], level by
// level, and appends their results to the history. Each group is evaluated
// at the times promtool's rules backfill evaluates it (promkit.Backfill
// writes level k's groups to level-0k.yaml, and Prometheus offsets a group's
// evaluations within its interval by a hash of its name and file), from the
// start of the two-hour block holding start; a result is named by its record
// and carries the rule's labels over the query's (an expression's own
// metric name dropped, promkit.DropName).
func (h *History) Record(ctx context.Context, groups []rulefmt.RuleGroup, start, end time.Time, o Options) error {
	o = o.withDefaults()
	levels, err := promkit.Levels(groups)
	if err != nil {
		return err
	}
	start = promkit.RuleBlockStart(start)
	for i, level := range levels {
		began := time.Now()
		file := promkit.LevelFile(i + 1)
		var jobs []job
		for _, g := range level {
			interval := time.Duration(g.Interval)
			if interval <= 0 {
				interval = o.Interval
			}
			// to the millisecond, as Prometheus's HTTP API reads the times
			// promtool sends it
			first := rules.NewGroup(rules.GroupOptions{Name: g.Name, File: file, Interval: interval}).EvalTimestamp(start.UnixNano()).Round(time.Millisecond)
			for first.Before(start) {
				first = first.Add(interval)
			}
			for _, r := range g.Rules {
				if r.Record != "" {
					jobs = append(jobs, job{rule: r, first: first, interval: interval})
				}
			}
		}
		if err := h.run(ctx, jobs, end, o); err != nil {
			return fmt.Errorf("level %d/%d: %w", i+1, len(levels), err)
		}
		if o.Logf != nil {
			o.Logf("  level %d/%d: %d rules in %.1fs (%s)", i+1, len(levels), len(jobs), time.Since(began).Seconds(), promkit.Abbreviate(promkit.RecordedNames(level), 3))
		}
	}
	return nil
}

// job is one recording rule and its evaluation times: first, then every
// interval to the end.
type job struct {
	rule     rulefmt.Rule
	first    time.Time
	interval time.Duration
}

// run evaluates a level's rules, o.Workers at once: no rule of a level
// reads another's results.
func (h *History) run(ctx context.Context, jobs []job, end time.Time, o Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan job)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				if err := h.record(ctx, j, end, o.Chunk); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s: %w", j.rule.Record, err))
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
	for _, j := range jobs {
		select {
		case work <- j:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	return errors.Join(errs...)
}

// record evaluates one rule chunk by chunk and appends its results.
func (h *History) record(ctx context.Context, j job, end time.Time, chunk time.Duration) error {
	expr := promkit.DropName(j.rule.Expr)
	// whole intervals a chunk: every chunk starts on the group's grid
	steps := max(1, chunk/j.interval)
	for from := j.first; !from.After(end); from = from.Add(steps * j.interval) {
		to := from.Add((steps - 1) * j.interval)
		if to.After(end) {
			to = end
		}
		err := h.rangeQuery(ctx, expr, from, to, j.interval, func(m promql.Matrix) error {
			out := make([]Series, 0, len(m))
			for _, s := range m {
				b := labels.NewBuilder(s.Metric)
				for k, v := range j.rule.Labels {
					b.Set(k, v)
				}
				b.Set(labels.MetricName, j.rule.Record)
				x := Series{Labels: b.Labels(), T: make([]int64, len(s.Floats)), V: make([]float64, len(s.Floats))}
				for i, p := range s.Floats {
					x.T[i], x.V[i] = p.T, p.F
				}
				out = append(out, x)
			}
			return h.Write(ctx, out...)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Snapshot writes the history as TSDB blocks into dir, for a Prometheus
// started on it (--storage.tsdb.path) to query afterwards.
func (h *History) Snapshot(dir string) error { return h.db.Snapshot(dir, true) }
