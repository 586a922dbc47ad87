package harness

import (
	"context"
	"fmt"
	"testing"
	"time"
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
}
