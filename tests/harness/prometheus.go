package harness

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// PromConfig describes one Prometheus run.
type PromConfig struct {
	RuleFiles          []string      // absolute paths, loaded unchanged
	Targets            []string      // host:port of exporters, scraped as job=ScrapeJob
	ScrapeInterval     time.Duration // default DefaultScrapeInterval
	EvaluationInterval time.Duration // default 1s; groups with their own interval keep it
	RuleQueryOffset    time.Duration // global.rule_query_offset (promkit.Config); default none
	ExtraConfig        string        // raw YAML appended to prometheus.yml (e.g. more scrape_configs)
	DataDir            string        // default: a fresh temp dir (pass one to reuse backfilled blocks)
	Args               []string      // more flags
	// ExternalLabels go to global.external_labels: the server's own rule
	// evaluation never sees them, a Thanos sidecar (and alert templates'
	// $externalLabels) do.
	ExternalLabels map[string]string
}

// Prometheus is a running pinned Prometheus server (or a Thanos component:
// they speak the same HTTP API): promkit's client (Query, Rules, API) and
// the directory of its config and log.
type Prometheus struct {
	*promkit.Server
	Dir string
}

// ScrapeJob is the job label of a server's scrape of PromConfig.Targets.
const ScrapeJob = "scrape"

// DefaultScrapeInterval is a server's scrape interval unless its PromConfig
// sets one.
const DefaultScrapeInterval = time.Second

// APITimeout bounds every request to a server (the caller's context may
// bound it more).
const APITimeout = promkit.APITimeout

// LeaveOverlappingBlocks: pass them to a server started on a backfilled
// DataDir (see promkit.LeaveOverlappingBlocks).
var LeaveOverlappingBlocks = promkit.LeaveOverlappingBlocks

// StartPrometheus starts .tools/bin/prometheus on a free 127.0.0.1 port and
// waits until it is ready. It is killed when the test ends; its log is
// printed when the test fails.
func StartPrometheus(t testing.TB, c PromConfig) *Prometheus {
	t.Helper()
	if c.ScrapeInterval == 0 {
		c.ScrapeInterval = DefaultScrapeInterval
	}
	if c.EvaluationInterval == 0 {
		c.EvaluationInterval = time.Second
	}
	bin := Tool(t, "prometheus")
	return start(t, "prometheus", func(dir string, l promkit.Launcher) (*promkit.Server, error) {
		if c.DataDir == "" {
			c.DataDir = filepath.Join(dir, "data")
		}
		scrape := c.ExtraConfig
		if len(c.Targets) > 0 {
			scrape = promkit.StaticJob(ScrapeJob, c.Targets, nil, true) + scrape
		}
		return promkit.StartPrometheus(context.Background(), l, promkit.Prometheus{
			Bin: bin, Name: "prometheus", Dir: dir, DataDir: c.DataDir, Addr: FreeAddr(t), Args: c.Args,
			Config: promkit.Config{
				ScrapeInterval:     c.ScrapeInterval,
				EvaluationInterval: c.EvaluationInterval,
				RuleQueryOffset:    c.RuleQueryOffset,
				ExternalLabels:     c.ExternalLabels,
				RuleFiles:          c.RuleFiles,
				ScrapeConfigs:      scrape,
			},
		})
	})
}

// Reload makes the server read its configuration and rule files again.
func (p *Prometheus) Reload(t testing.TB) {
	t.Helper()
	resp, err := http.Post(p.URL+"/-/reload", "", nil)
	must(t, err, "reload")
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("reload: %s", resp.Status)
	}
}

// start runs a promkit start function with a launcher logging into a fresh
// directory, failing the test when it fails, and stops the server when the
// test ends, printing its log if the test failed.
func start(t testing.TB, name string, run func(dir string, l promkit.Launcher) (*promkit.Server, error)) *Prometheus {
	t.Helper()
	dir := t.TempDir()
	s, err := run(dir, promkit.ExecLauncher{LogDir: dir})
	must(t, err, "start %s", name)
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, name+".log"))
			t.Logf("%s log:\n%s", name, logExcerpt(string(b), 6000))
		}
	})
	return &Prometheus{Server: s, Dir: dir}
}

// logExcerpt is a server's log as a failed test prints it: each run of
// lines with the same msg (a scrape warning every second while backfilled
// history is ahead of the clock) as its first line and a count, then the
// last n bytes of that. A test's own errors print before its servers' logs,
// and a long log pushes them out of sight where only a run's head and tail
// are kept.
func logExcerpt(s string, n int) string {
	var out []string
	lastMsg, repeats := "", 0
	flush := func() {
		if repeats > 0 {
			out = append(out, fmt.Sprintf("  (%d more lines with this msg)", repeats))
		}
		repeats = 0
	}
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		msg := logMsg.FindString(line)
		if msg != "" && msg == lastMsg {
			repeats++
			continue
		}
		flush()
		out = append(out, line)
		lastMsg = msg
	}
	flush()
	short := strings.Join(out, "\n")
	if len(short) <= n {
		return short
	}
	return fmt.Sprintf("(%d bytes before)...", len(short)-n) + short[len(short)-n:]
}

var logMsg = regexp.MustCompile(`msg="(?:[^"\\]|\\.)*"`)

// WaitFor polls cond every 500ms until it returns true or timeout passes, and
// then fails the test with what cond last said.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	last := ""
	err := promkit.Poll(context.Background(), timeout, 500*time.Millisecond, func() (bool, error) {
		ok, msg := cond()
		last = msg
		return ok, nil
	})
	if err != nil {
		t.Fatalf("%s: not true after %s: %s", what, timeout, last)
	}
}
