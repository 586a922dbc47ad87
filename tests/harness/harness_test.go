package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The harness itself: a scripted exporter is scraped by the real Prometheus
// and a value it serves comes back through the query API.
func TestPrometheusScrapesExporter(t *testing.T) {
	exp := NewExporter(t, "demo_value{job=\"api\"} 42\n")
	p := StartPrometheus(t, PromConfig{Targets: []string{exp.Addr}})
	ctx := context.Background()
	WaitFor(t, 30*time.Second, "demo_value scraped", func() (bool, string) {
		s, err := p.Query(ctx, `demo_value{job="api"}`)
		if err != nil {
			return false, err.Error()
		}
		if len(s) != 1 || s[0].Value != 42 {
			return false, fmt.Sprintf("got %+v", s)
		}
		return true, ""
	})
	if _, err := p.Query(ctx, `sum by (job) (`); err == nil {
		t.Fatal("a malformed query returned no error")
	}
	// Its own /metrics: an unlabelled counter under "", a labelled one by label.
	self := p.SelfMetrics(t)
	if cpu, ok := promkit.ValuesBy(self["process_cpu_seconds_total"], "")[""]; !ok || cpu <= 0 {
		t.Errorf("process_cpu_seconds_total: %v %v, want > 0", cpu, ok)
	}
	build := promkit.ValuesBy(self["prometheus_build_info"], "goversion")
	if len(build) != 1 {
		t.Errorf("prometheus_build_info by goversion: %v, want one series", build)
	}
	for v, x := range build {
		if !strings.HasPrefix(v, "go") || x != 1 {
			t.Errorf("prometheus_build_info{goversion=%q} = %g, want a go version and 1", v, x)
		}
	}
	if got := promkit.ValuesBy(self["no_such_metric"], "x"); len(got) != 0 {
		t.Errorf("a missing family: %v, want empty", got)
	}
}
