package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
}

// Prometheus is a running pinned Prometheus server.
type Prometheus struct {
	URL  string
	Dir  string
	cmd  *exec.Cmd
	logs *os.File
}

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
	logs, err := os.Create(filepath.Join(dir, "prometheus.log"))
	must(t, err, "create log")
	args := append([]string{
		"--config.file=" + cfgPath,
		"--storage.tsdb.path=" + c.DataDir,
		"--web.listen-address=" + addr,
		"--web.enable-lifecycle",
		"--log.level=warn",
	}, c.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logs, logs
	must(t, cmd.Start(), "start prometheus")
	p := &Prometheus{URL: "http://" + addr, Dir: dir, cmd: cmd, logs: logs}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logs.Name())
			t.Logf("prometheus log:\n%s", b)
		}
		logs.Close()
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(p.URL + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logs.Name())
			t.Fatalf("prometheus not ready after 60s:\n%s", b)
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

// API calls GET /api/v1/<path> and decodes the "data" field into out. An API
// error (bad query, ...) is returned with Prometheus's own message.
func (p *Prometheus) API(ctx context.Context, path string, params url.Values, out any) error {
	u := p.URL + "/api/v1/" + path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Status    string          `json:"status"`
		ErrorType string          `json:"errorType"`
		Error     string          `json:"error"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("%s: HTTP %d, undecodable body %.200q", path, resp.StatusCode, body)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s: %s: %s", path, env.ErrorType, env.Error)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(env.Data, out)
}

// Query runs an instant query now and returns its vector result (scalars
// come back as one sample with no labels).
func (p *Prometheus) Query(ctx context.Context, q string) ([]Sample, error) {
	var data struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := p.API(ctx, "query", url.Values{"query": {q}}, &data); err != nil {
		return nil, err
	}
	switch data.ResultType {
	case "vector":
		var raw []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		}
		if err := json.Unmarshal(data.Result, &raw); err != nil {
			return nil, err
		}
		out := make([]Sample, 0, len(raw))
		for _, r := range raw {
			v, err := parseValue(r.Value[1])
			if err != nil {
				return nil, err
			}
			out = append(out, Sample{Metric: r.Metric, Value: v})
		}
		return out, nil
	case "scalar":
		var raw [2]any
		if err := json.Unmarshal(data.Result, &raw); err != nil {
			return nil, err
		}
		v, err := parseValue(raw[1])
		return []Sample{{Metric: map[string]string{}, Value: v}}, err
	default:
		return nil, fmt.Errorf("query %q: unexpected result type %s", q, data.ResultType)
	}
}

func parseValue(v any) (float64, error) {
	s, ok := v.(string)
	if !ok {
		return 0, fmt.Errorf("sample value %v is not a string", v)
	}
	var f float64
	_, err := fmt.Sscan(s, &f)
	if err != nil && (s == "NaN" || s == "+Inf" || s == "-Inf") {
		return 0, fmt.Errorf("sample value is %s", s)
	}
	return f, err
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
