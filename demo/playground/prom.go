package playground

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
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
	b.WriteString(w.externalLabels())
	if len(ruleFiles) > 0 {
		b.WriteString(w.alertingConfig())
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

// Prom is a client for one Prometheus server's HTTP API: thin helpers over
// client_golang's v1.API, which returns an API error as *v1.Error carrying
// Prometheus's own message.
type Prom struct {
	URL string
	API v1.API
}

// NewProm is a client for the server at base URL, every call bounded.
func NewProm(base string) (*Prom, error) {
	base = strings.TrimRight(base, "/")
	c, err := api.NewClient(api.Config{Address: base, Client: &http.Client{Timeout: 20 * time.Second}})
	if err != nil {
		return nil, fmt.Errorf("prometheus client for %s: %w", base, err)
	}
	return &Prom{URL: base, API: v1.NewAPI(c)}, nil
}

// Sample is one series of an instant vector.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant query now.
func (p *Prom) Query(ctx context.Context, q string) ([]Sample, error) {
	v, _, err := p.API.Query(ctx, q, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q, err)
	}
	vec, ok := v.(model.Vector)
	if !ok {
		return nil, fmt.Errorf("query %q: result %T, want a vector", q, v)
	}
	out := make([]Sample, 0, len(vec))
	for _, s := range vec {
		out = append(out, Sample{Metric: labelMap(model.LabelSet(s.Metric)), Value: float64(s.Value)})
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
	v, _, err := p.API.QueryRange(ctx, q, v1.Range{Start: start, End: end, Step: step})
	if err != nil {
		return nil, fmt.Errorf("query_range %q: %w", q, err)
	}
	m, ok := v.(model.Matrix)
	if !ok {
		return nil, fmt.Errorf("query_range %q: result %T, want a matrix", q, v)
	}
	out := make([]Series, 0, len(m))
	for _, ss := range m {
		s := Series{Metric: labelMap(model.LabelSet(ss.Metric))}
		for _, pt := range ss.Values {
			s.Points = append(s.Points, [2]float64{float64(pt.Timestamp) / 1e3, float64(pt.Value)})
		}
		out = append(out, s)
	}
	return out, nil
}

// Alert is one entry of /api/v1/alerts.
type Alert struct {
	Labels      map[string]string
	Annotations map[string]string
	State       string
	ActiveAt    time.Time
	Value       string
}

// Alerts lists the pending and firing alerts.
func (p *Prom) Alerts(ctx context.Context) ([]Alert, error) {
	res, err := p.API.Alerts(ctx)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	out := make([]Alert, 0, len(res.Alerts))
	for _, a := range res.Alerts {
		out = append(out, Alert{Labels: labelMap(a.Labels), Annotations: labelMap(a.Annotations), State: string(a.State), ActiveAt: a.ActiveAt, Value: a.Value})
	}
	return out, nil
}

func labelMap(ls model.LabelSet) map[string]string {
	m := make(map[string]string, len(ls))
	for k, v := range ls {
		m[string(k)] = string(v)
	}
	return m
}

// RuleGroups counts the rule groups the server evaluates (or, for Thanos
// Query, that its rulers do).
func (p *Prom) RuleGroups(ctx context.Context) (int, error) {
	r, err := p.API.Rules(ctx)
	if err != nil {
		return 0, err
	}
	return len(r.Groups), nil
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
	p, err := NewProm("http://" + addr)
	if err != nil {
		sup.Stop(proc, 5*time.Second)
		return nil, nil, err
	}
	if err := p.WaitReady(ctx, proc, 90*time.Second); err != nil {
		sup.Stop(proc, 5*time.Second)
		return nil, nil, err
	}
	return proc, p, nil
}
