package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ScrapeInterval is the live scrape interval, and the step of the history.
const ScrapeInterval = 15 * time.Second

// PromConfig writes prometheus.yml for the world: one job per service
// (job = service name, instance = host:port), the cAdvisor exporter as
// job="cadvisor", and the rule files (none while the history is backfilled).
func (w *World) PromConfig(ruleFiles []string, withExporter bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by the hotpath playground (demo/playground). Regenerated at every start.\n")
	fmt.Fprintf(&b, "global:\n  scrape_interval: %s\n  scrape_timeout: 10s\n  evaluation_interval: 1m\n", ScrapeInterval)
	if len(ruleFiles) > 0 {
		b.WriteString("rule_files:\n")
		for _, f := range ruleFiles {
			fmt.Fprintf(&b, "  - %q\n", f)
		}
	}
	b.WriteString("scrape_configs:\n")
	for _, s := range w.Services {
		fmt.Fprintf(&b, "  - job_name: %q\n    static_configs:\n      - targets: [", s.Job)
		for i, in := range s.Instances {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", in.Addr())
		}
		b.WriteString("]\n")
		if len(s.Labels) > 0 {
			b.WriteString("        labels:\n")
			for _, k := range sortedKeys(s.Labels) {
				fmt.Fprintf(&b, "          %s: %q\n", k, s.Labels[k])
			}
		}
	}
	if withExporter {
		fmt.Fprintf(&b, "  - job_name: cadvisor\n    static_configs:\n      - targets: [%q]\n", fmt.Sprintf("127.0.0.1:%d", w.Ports.Exporter))
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// Prom is a Prometheus HTTP API client.
type Prom struct {
	URL    string
	Client *http.Client
}

// NewProm is a client for the server at base URL, every call bounded.
func NewProm(base string) *Prom {
	return &Prom{URL: strings.TrimRight(base, "/"), Client: &http.Client{Timeout: 20 * time.Second}}
}

// API calls GET /api/v1/<path> and decodes "data" into out.
func (p *Prom) API(ctx context.Context, path string, params url.Values, out any) error {
	u := p.URL + "/api/v1/" + path
	if len(params) > 0 {
		u += "?" + params.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := p.Client.Do(req)
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

// Sample is one series of an instant vector.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant query now.
func (p *Prom) Query(ctx context.Context, q string) ([]Sample, error) {
	var data struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		} `json:"result"`
	}
	if err := p.API(ctx, "query", url.Values{"query": {q}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %q: result type %s, want vector", q, data.ResultType)
	}
	out := make([]Sample, 0, len(data.Result))
	for _, r := range data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("query %q: value %v", q, r.Value[1])
		}
		out = append(out, Sample{Metric: r.Metric, Value: v})
	}
	return out, nil
}

// Series is one series of a range query.
type Series struct {
	Metric map[string]string
	Points [][2]float64 // unix seconds, value
}

// QueryRange runs a range query.
func (p *Prom) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]Series, error) {
	var data struct {
		Result []struct {
			Metric map[string]string `json:"metric"`
			Values [][2]any          `json:"values"`
		} `json:"result"`
	}
	err := p.API(ctx, "query_range", url.Values{
		"query": {q},
		"start": {strconv.FormatInt(start.Unix(), 10)},
		"end":   {strconv.FormatInt(end.Unix(), 10)},
		"step":  {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)},
	}, &data)
	if err != nil {
		return nil, err
	}
	out := make([]Series, 0, len(data.Result))
	for _, r := range data.Result {
		s := Series{Metric: r.Metric}
		for _, v := range r.Values {
			ts, _ := v[0].(float64)
			str, _ := v[1].(string)
			f, _ := strconv.ParseFloat(str, 64)
			s.Points = append(s.Points, [2]float64{ts, f})
		}
		out = append(out, s)
	}
	return out, nil
}

// Alert is one entry of /api/v1/alerts.
type Alert struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
	State       string            `json:"state"`
	ActiveAt    time.Time         `json:"activeAt"`
	Value       string            `json:"value"`
}

// Alerts lists the pending and firing alerts.
func (p *Prom) Alerts(ctx context.Context) ([]Alert, error) {
	var data struct {
		Alerts []Alert `json:"alerts"`
	}
	err := p.API(ctx, "alerts", nil, &data)
	return data.Alerts, err
}

// WaitReady waits until /-/ready answers 200, failing early with the log
// when the server exits.
func (p *Prom) WaitReady(ctx context.Context, proc *Proc, timeout time.Duration) error {
	if err := waitHTTP(ctx, proc, p.URL+"/-/ready", timeout); err != nil {
		return fmt.Errorf("prometheus: %w", err)
	}
	return nil
}

// StartPrometheus starts the pinned prometheus on addr with the config
// written to dir/prometheus.yml and data in dataDir, and waits until ready.
func StartPrometheus(ctx context.Context, sup *Supervisor, name, bin, dir, dataDir, addr, config string) (*Proc, *Prom, error) {
	cfgPath := filepath.Join(dir, name+".yml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		return nil, nil, err
	}
	proc, err := sup.Start(name, false, nil, bin,
		"--config.file="+cfgPath,
		"--storage.tsdb.path="+dataDir,
		"--web.listen-address="+addr,
		"--log.level=warn",
	)
	if err != nil {
		return nil, nil, err
	}
	p := NewProm("http://" + addr)
	if err := p.WaitReady(ctx, proc, 90*time.Second); err != nil {
		sup.Stop(proc, 5*time.Second)
		return nil, nil, err
	}
	return proc, p, nil
}
