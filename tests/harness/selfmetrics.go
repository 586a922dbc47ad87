package harness

import (
	"context"
	"testing"

	"github.com/hotpath/hotpath/promkit"
	dto "github.com/prometheus/client_model/go"
)

// SelfMetrics reads the server's own /metrics (rule group durations and
// failures, process CPU), parsed with the exposition format's own parser.
func (p *Prometheus) SelfMetrics(t testing.TB) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := promkit.Families(context.Background(), p.URL+"/metrics")
	must(t, err, "self metrics")
	return fams
}
