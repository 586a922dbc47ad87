package playground

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Backfill writes history into a TSDB data directory with the pinned
// promtool: raw series from OpenMetrics, then the recording rules one
// dependency level per pass, each pass evaluated by a Prometheus started on
// the data directory with the previous passes' blocks moved in.
type Backfill struct {
	Promtool, Prometheus string
	Dir                  string // scratch: rule files per level, pass outputs
	DataDir              string
	Sup                  *Supervisor
	Logf                 func(string, ...any)
}

// Raw turns an OpenMetrics file into blocks in DataDir.
func (b *Backfill) Raw(ctx context.Context, omPath string) error {
	out := filepath.Join(b.Dir, "raw-blocks")
	_ = os.RemoveAll(out)
	// Day-long blocks: fewer blocks for the live server to merge.
	if err := b.run(ctx, 5*time.Minute, b.Promtool, "tsdb", "create-blocks-from", "openmetrics", "--quiet", "--max-block-duration=24h", omPath, out); err != nil {
		return err
	}
	return moveBlocks(out, b.DataDir)
}

// Rules backfills the recording rules of ruleFile over [start, end], one
// level per pass, and returns how many passes it ran.
func (b *Backfill) Rules(ctx context.Context, ruleFile string, start, end time.Time) (int, error) {
	rf, err := ReadRules(ruleFile)
	if err != nil {
		return 0, err
	}
	levels, err := rf.Levels()
	if err != nil {
		return 0, err
	}
	for i, lf := range levels {
		began := time.Now()
		path := filepath.Join(b.Dir, fmt.Sprintf("level-%02d.yaml", i+1))
		if err := lf.Write(path); err != nil {
			return i, err
		}
		if err := b.pass(ctx, i+1, path, start, end); err != nil {
			return i, fmt.Errorf("rules backfill pass %d/%d: %w", i+1, len(levels), err)
		}
		var names []string
		for _, g := range lf.Groups {
			for _, r := range g.Rules {
				names = append(names, r.Record)
			}
		}
		b.Logf("  pass %d/%d: %d rules in %.1fs (%s)", i+1, len(levels), len(names), time.Since(began).Seconds(), abbreviate(names, 3))
	}
	return len(levels), nil
}

func abbreviate(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", +%d", len(xs)-n)
}

func (b *Backfill) pass(ctx context.Context, level int, ruleFile string, start, end time.Time) error {
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	proc, prom, err := StartPrometheus(ctx, b.Sup, "prometheus-backfill", b.Prometheus, b.Dir, b.DataDir, addr, "global: {}\n")
	if err != nil {
		return err
	}
	out := filepath.Join(b.Dir, fmt.Sprintf("level-%02d-blocks", level))
	_ = os.RemoveAll(out)
	err = b.run(ctx, 5*time.Minute, b.Promtool, "tsdb", "create-blocks-from", "rules", "--quiet",
		"--url="+prom.URL,
		"--start="+strconv.FormatInt(start.Unix(), 10),
		"--end="+strconv.FormatInt(end.Unix(), 10),
		"--output-dir="+out,
		ruleFile)
	b.Sup.Stop(proc, 10*time.Second)
	if err != nil {
		return err
	}
	return moveBlocks(out, b.DataDir)
}

// run runs a tool with a bounded wait; its output is returned in the error.
func (b *Backfill) run(ctx context.Context, timeout time.Duration, bin string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		s := out.String()
		if len(s) > 3000 {
			s = s[len(s)-3000:]
		}
		return fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args[:3], " "), err, s)
	}
	return nil
}

// moveBlocks moves every block directory of from into to.
func moveBlocks(from, to string) error {
	entries, err := os.ReadDir(from)
	if os.IsNotExist(err) {
		return nil // nothing recorded at this level
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

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
