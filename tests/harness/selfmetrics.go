package harness

import (
	"context"
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// SelfMetrics reads Prometheus's own /metrics (rule group durations and
// failures, process CPU), parsed with the exposition format's own parser.
func (p *Prometheus) SelfMetrics(t testing.TB) map[string]*dto.MetricFamily {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), APITimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/metrics", nil)
	must(t, err, "self metrics request")
	resp, err := http.DefaultClient.Do(req)
	must(t, err, "GET %s/metrics", p.URL)
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	must(t, err, "parse %s/metrics", p.URL)
	return families
}

// ValuesBy maps each series of a counter, gauge or untyped family to its
// value, keyed by the value of one label ("" for a family without it). A
// missing family gives an empty map.
func ValuesBy(mf *dto.MetricFamily, label string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range mf.GetMetric() {
		key := ""
		for _, l := range m.GetLabel() {
			if l.GetName() == label {
				key = l.GetValue()
			}
		}
		switch {
		case m.Counter != nil:
			out[key] = m.GetCounter().GetValue()
		case m.Gauge != nil:
			out[key] = m.GetGauge().GetValue()
		default:
			out[key] = m.GetUntyped().GetValue()
		}
	}
	return out
}
