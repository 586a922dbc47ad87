package promkit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"
)

// Backfill writes history into a TSDB data directory with the pinned
// promtool: raw series from OpenMetrics, then the recording rules one
// dependency level per pass, each pass evaluated by a Prometheus started on
// the data directory with the previous passes' blocks moved in.
type Backfill struct {
	Promtool, Prometheus string // the pinned binaries
	Dir                  string // scratch: rule files per level, pass outputs
	DataDir              string
	Launcher             Launcher
	Logf                 func(string, ...any) // progress, one line per pass; may be nil
	// MaxBlockDuration is promtool's --max-block-duration for raw series
	// (0: promtool's default, 2h): day-long blocks leave fewer blocks for the
	// live server to open.
	MaxBlockDuration time.Duration
}

// Raw turns an OpenMetrics file (samples with timestamps, ending in "# EOF")
// into blocks in DataDir.
func (b *Backfill) Raw(ctx context.Context, omPath string) error {
	out := filepath.Join(b.Dir, "raw-blocks")
	_ = os.RemoveAll(out)
	args := []string{"tsdb", "create-blocks-from", "openmetrics", "--quiet"}
	if b.MaxBlockDuration > 0 {
		args = append(args, "--max-block-duration="+time.Duration(b.MaxBlockDuration).String())
	}
	if err := run(ctx, importTimeout, b.Promtool, append(args, omPath, out)...); err != nil {
		return err
	}
	return MoveBlocks(out, b.DataDir)
}

// Rules backfills the recording rules of ruleFiles over [start, end], one
// level per pass, and returns how many passes it ran.
func (b *Backfill) Rules(ctx context.Context, start, end time.Time, ruleFiles ...string) (int, error) {
	groups, err := ReadRules(ruleFiles...)
	if err != nil {
		return 0, err
	}
	levels, err := Levels(groups)
	if err != nil {
		return 0, err
	}
	start = RuleBlockStart(start)
	for i, level := range levels {
		began := time.Now()
		path := filepath.Join(b.Dir, LevelFile(i+1))
		if err := WriteRules(path, withoutNames(level)); err != nil {
			return i, err
		}
		if err := b.pass(ctx, i+1, path, start, end); err != nil {
			return i, fmt.Errorf("rules backfill pass %d/%d: %w", i+1, len(levels), err)
		}
		if b.Logf != nil {
			names := RecordedNames(level)
			b.Logf("  pass %d/%d: %d rules in %.1fs (%s)", i+1, len(levels), len(names), time.Since(began).Seconds(), Abbreviate(names, 3))
		}
	}
	return len(levels), nil
}

// ruleBlock is the block promtool cuts a rules backfill into (its default
// --max-block-duration), from the Unix epoch.
const ruleBlock = 2 * time.Hour

// LevelFile is the rule file a pass evaluates level (from 1) from: its name
// sets the offset of each group's evaluations within its interval.
func LevelFile(level int) string { return fmt.Sprintf("level-%02d.yaml", level) }

// RuleBlockStart is the start of the rule block holding t. promtool evaluates
// a group block by block from its start and stops at a block that has no
// evaluation time of the group in it (prometheus/prometheus#19714, open in
// the pinned v0.309): a start less than one interval before a block's end
// (07:58 for a 5m group, the block ending at 08:00) leaves that group, and
// every rule that reads it, without any history. From the block's start each
// group has an evaluation in its first block; the evaluations before the
// data find nothing and write nothing.
func RuleBlockStart(t time.Time) time.Time {
	ms := ruleBlock.Milliseconds()
	return time.UnixMilli(t.UnixMilli() / ms * ms).UTC()
}

// Abbreviate lists the first n of xs and how many more there are.
func Abbreviate(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", +%d", len(xs)-n)
}

func (b *Backfill) pass(ctx context.Context, level int, ruleFile string, start, end time.Time) error {
	addr, err := FreeAddr()
	if err != nil {
		return err
	}
	srv, err := StartPrometheus(ctx, b.Launcher, Prometheus{
		Bin: b.Prometheus, Name: "prometheus-backfill", Dir: b.Dir, DataDir: b.DataDir, Addr: addr,
		Config: Config{ScrapeInterval: time.Minute, EvaluationInterval: time.Minute},
		Args:   LeaveOverlappingBlocks,
	})
	if err != nil {
		return err
	}
	out, err := filepath.Abs(filepath.Join(b.Dir, fmt.Sprintf("level-%02d-blocks", level)))
	if err != nil {
		srv.Stop()
		return err
	}
	_ = os.RemoveAll(out)
	// The rule file by its name alone, from its own directory: promtool
	// evaluates each group at an offset within its interval that Prometheus
	// derives from the group's name and the file's path as given, so a
	// scratch directory's random path would move every evaluation from run
	// to run (and the verdicts of anything judged on them).
	err = runIn(ctx, filepath.Dir(ruleFile), importTimeout, b.Promtool, "tsdb", "create-blocks-from", "rules", "--quiet",
		"--url="+srv.URL,
		"--start="+strconv.FormatInt(start.Unix(), 10),
		"--end="+strconv.FormatInt(end.Unix(), 10),
		"--output-dir="+out,
		filepath.Base(ruleFile))
	srv.Stop()
	if err != nil {
		return err
	}
	return MoveBlocks(out, b.DataDir)
}

// importTimeout bounds one promtool import. A pass takes seconds to a few
// minutes (the detection benchmark's rules over five days, the longest); a
// machine whose cores are busy with other work stretches that several times,
// so the bound is far above it and still ends a hung import.
const importTimeout = 30 * time.Minute

// run runs a tool with a bounded wait; its output is returned in the error.
func run(ctx context.Context, timeout time.Duration, bin string, args ...string) error {
	return runIn(ctx, "", timeout, bin, args...)
}

// runIn is run in the working directory dir ("": this process's).
func runIn(ctx context.Context, dir string, timeout time.Duration, bin string, args ...string) error {
	if dir != "" && strings.ContainsRune(bin, os.PathSeparator) && !filepath.IsAbs(bin) {
		// a relative binary would be looked up from dir
		abs, err := filepath.Abs(bin)
		if err != nil {
			return err
		}
		bin = abs
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		s := out.String()
		if len(s) > 3000 {
			s = s[len(s)-3000:]
		}
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("did not finish within %s (stopped): %w", timeout, err)
		}
		return fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args[:min(3, len(args))], " "), err, s)
	}
	return nil
}

// MoveBlocks moves every TSDB block directory of from into to, and removes
// from; a missing from is nothing to move (no rule had data).
func MoveBlocks(from, to string) error {
	entries, err := os.ReadDir(from)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(from, e.Name(), "meta.json")); err != nil {
			continue
		}
		if err := os.Rename(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return os.RemoveAll(from)
}

// withoutNames is groups with each recording rule's expression stripped of
// its result's metric name, as Prometheus records it: each evaluation's
// samples named by the record. promtool instead backfills a rule from range
// queries and names each series of the result by the record, so two series
// that differ only in their name (a branch of `or` that keeps its input's,
// last_over_time's, beside one that drops it, as a function moves from one
// to the other) would become one series written twice, out of order.
func withoutNames(groups []rulefmt.RuleGroup) []rulefmt.RuleGroup {
	out := make([]rulefmt.RuleGroup, len(groups))
	for i, g := range groups {
		g.Rules = append([]rulefmt.Rule(nil), g.Rules...)
		for j, r := range g.Rules {
			if r.Record != "" {
				g.Rules[j].Expr = DropName(r.Expr)
			}
		}
		out[i] = g
	}
	return out
}

// DropName is expr with its result's metric name removed (the values and
// every other label as they are).
func DropName(expr string) string {
	return fmt.Sprintf("label_replace(\n%s\n, \"__name__\", \"\", \"\", \"\")", strings.TrimSpace(expr))
}
