package harness

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

// PromConfig describes one Prometheus run.
type PromConfig struct {
	RuleFiles          []string      // absolute paths, loaded unchanged
	Targets            []string      // host:port of exporters, scraped as job="scrape"
	ScrapeInterval     time.Duration // default 1s
	EvaluationInterval time.Duration // default 1s; groups with their own interval keep it
	ExtraConfig        string        // raw YAML appended to prometheus.yml (e.g. more scrape_configs)
	DataDir            string        // default: a fresh temp dir (pass one to reuse backfilled blocks)
	Args               []string      // more flags
	// ExternalLabels go to global.external_labels: the server's own rule
	// evaluation never sees them, a Thanos sidecar (and alert templates'
	// $externalLabels) do.
	ExternalLabels map[string]string
}

// Prometheus is a running pinned Prometheus server.
type Prometheus struct {
	URL string
	Dir string
	// API is client_golang's client for the server's HTTP API, every request
	// bounded by APITimeout; an API error is a *v1.Error with Prometheus's
	// own message.
	API  v1.API
	cmd  *exec.Cmd
	logs *os.File
}

// APITimeout bounds every request to the server (the caller's context may
// bound it more).
const APITimeout = time.Minute

// StartPrometheus starts .tools/bin/prometheus on a free 127.0.0.1 port and
// waits (at most 60s) until it is ready. It is killed when the test ends; its
// log is printed when the test fails.
func StartPrometheus(t testing.TB, c PromConfig) *Prometheus {
	t.Helper()
	bin := Tool(t, "prometheus")
	if c.ScrapeInterval == 0 {
		c.ScrapeInterval = time.Second
	}
	if c.EvaluationInterval == 0 {
		c.EvaluationInterval = time.Second
	}
	dir := t.TempDir()
	if c.DataDir == "" {
		c.DataDir = filepath.Join(dir, "data")
	}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "global:\n  scrape_interval: %s\n  evaluation_interval: %s\n", c.ScrapeInterval, c.EvaluationInterval)
	if len(c.ExternalLabels) > 0 {
		cfg.WriteString("  external_labels:\n")
		for _, k := range slices.Sorted(maps.Keys(c.ExternalLabels)) {
			fmt.Fprintf(&cfg, "    %s: %q\n", k, c.ExternalLabels[k])
		}
	}
	if len(c.RuleFiles) > 0 {
		cfg.WriteString("rule_files:\n")
		for _, f := range c.RuleFiles {
			fmt.Fprintf(&cfg, "  - %q\n", f)
		}
	}
	cfg.WriteString("scrape_configs:\n")
	if len(c.Targets) > 0 {
		fmt.Fprintf(&cfg, "  - job_name: scrape\n    honor_labels: true\n    static_configs:\n      - targets: [%s]\n", quoteJoin(c.Targets))
	}
	cfg.WriteString(c.ExtraConfig)
	cfgPath := filepath.Join(dir, "prometheus.yml")
	must(t, os.WriteFile(cfgPath, []byte(cfg.String()), 0o644), "write prometheus.yml")

	addr := FreeAddr(t)
	args := append([]string{
		"--config.file=" + cfgPath,
		"--storage.tsdb.path=" + c.DataDir,
		"--web.listen-address=" + addr,
		"--web.enable-lifecycle",
		"--log.level=warn",
	}, c.Args...)
	return startServer(t, "prometheus", dir, addr, bin, args...)
}

// startServer starts a server that speaks Prometheus's HTTP API on addr
// (Prometheus, or a Thanos component), logging into dir, and waits (at most
// 60s) until its /-/ready says 200. It is killed when the test ends; its log
// is printed when the test fails.
func startServer(t testing.TB, name, dir, addr, bin string, args ...string) *Prometheus {
	t.Helper()
	hc := &http.Client{Timeout: APITimeout}
	ac, err := api.NewClient(api.Config{Address: "http://" + addr, Client: hc})
	must(t, err, "%s API client", name)
	logs, err := os.Create(filepath.Join(dir, name+".log"))
	must(t, err, "create log")
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logs, logs
	must(t, cmd.Start(), "start %s", name)
	p := &Prometheus{URL: "http://" + addr, Dir: dir, API: v1.NewAPI(ac), cmd: cmd, logs: logs}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logs.Name())
			t.Logf("%s log:\n%s", name, truncate(string(b), 20000))
		}
		logs.Close()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := hc.Get(p.URL + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logs.Name())
			t.Fatalf("%s not ready after 60s:\n%s", name, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func quoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// Sample is one series of an instant-query result.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant query now and returns its vector result (scalars
// come back as one sample with no labels). An API error (bad query, ...)
// carries Prometheus's own message.
func (p *Prometheus) Query(ctx context.Context, q string) ([]Sample, error) {
	v, _, err := p.API.Query(ctx, q, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q, err)
	}
	switch v := v.(type) {
	case model.Vector:
		out := make([]Sample, 0, len(v))
		for _, s := range v {
			m := make(map[string]string, len(s.Metric))
			for k, x := range s.Metric {
				m[string(k)] = string(x)
			}
			out = append(out, Sample{Metric: m, Value: float64(s.Value)})
		}
		return out, nil
	case *model.Scalar:
		return []Sample{{Metric: map[string]string{}, Value: float64(v.Value)}}, nil
	}
	return nil, fmt.Errorf("query %q: unexpected result %T", q, v)
}

// Rule is one rule, recording or alerting, of /api/v1/rules.
type Rule struct {
	Group, Name, Health, LastError string
	EvaluationTime                 float64 // seconds, of the last evaluation
}

// Rules lists every rule of every group, in the server's order.
func (p *Prometheus) Rules(ctx context.Context) ([]Rule, error) {
	res, err := p.API.Rules(ctx)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	var out []Rule
	for _, g := range res.Groups {
		for _, r := range g.Rules {
			switch r := r.(type) {
			case v1.RecordingRule:
				out = append(out, Rule{g.Name, r.Name, string(r.Health), r.LastError, r.EvaluationTime})
			case v1.AlertingRule:
				out = append(out, Rule{g.Name, r.Name, string(r.Health), r.LastError, r.EvaluationTime})
			}
		}
	}
	return out, nil
}

// WaitFor polls cond every 500ms until it returns true or timeout passes, and
// then fails the test with what cond last said.
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		ok, msg := cond()
		if ok {
			return
		}
		last = msg
		if time.Now().After(deadline) {
			t.Fatalf("%s: not true after %s: %s", what, timeout, last)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
