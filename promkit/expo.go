package promkit

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Metric is one sample line of a /metrics page: histograms and summaries
// come as their _bucket (le, +Inf included), quantile, _sum and _count
// lines, as Prometheus stores them.
type Metric struct {
	Name   string
	Labels map[string]string
	Value  float64
}

// Key is the sample's identity: name and sorted labels.
func (m Metric) Key() string { return m.Name + "{" + FormatLabels(m.Labels) + "}" }

// FormatLabels renders labels as in the exposition format, sorted by name.
func FormatLabels(l map[string]string) string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(l)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteString("=")
		b.WriteString(strconv.Quote(l[k]))
	}
	return b.String()
}

// Families fetches a text exposition page (at most APITimeout) and parses
// it with the exposition format's own parser.
func Families(ctx context.Context, url string) (map[string]*dto.MetricFamily, error) {
	ctx, cancel := context.WithTimeout(ctx, APITimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	fams, err := ParseFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	return fams, nil
}

// ParseFamilies parses the text exposition format.
func ParseFamilies(r io.Reader) (map[string]*dto.MetricFamily, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// Scrape fetches and parses a text exposition page into its sample lines,
// families in name order.
func Scrape(ctx context.Context, url string) ([]Metric, error) {
	fams, err := Families(ctx, url)
	if err != nil {
		return nil, err
	}
	return Lines(fams), nil
}

// ParseMetrics parses the text exposition format into its sample lines.
func ParseMetrics(r io.Reader) ([]Metric, error) {
	fams, err := ParseFamilies(r)
	if err != nil {
		return nil, err
	}
	return Lines(fams), nil
}

// Lines flattens families into sample lines, families in name order.
func Lines(fams map[string]*dto.MetricFamily) []Metric {
	var out []Metric
	for _, name := range slices.Sorted(maps.Keys(fams)) {
		for _, m := range fams[name].GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			with := func(k, v string) map[string]string {
				c := maps.Clone(labels)
				c[k] = v
				return c
			}
			switch {
			case m.Counter != nil:
				out = append(out, Metric{name, labels, m.GetCounter().GetValue()})
			case m.Gauge != nil:
				out = append(out, Metric{name, labels, m.GetGauge().GetValue()})
			case m.Histogram != nil:
				h := m.GetHistogram()
				for _, b := range h.GetBucket() {
					out = append(out, Metric{name + "_bucket", with("le", formatFloat(b.GetUpperBound())), float64(b.GetCumulativeCount())})
				}
				out = append(out, Metric{name + "_sum", labels, h.GetSampleSum()}, Metric{name + "_count", labels, float64(h.GetSampleCount())})
			case m.Summary != nil:
				s := m.GetSummary()
				for _, q := range s.GetQuantile() {
					out = append(out, Metric{name, with("quantile", formatFloat(q.GetQuantile())), q.GetValue()})
				}
				out = append(out, Metric{name + "_sum", labels, s.GetSampleSum()}, Metric{name + "_count", labels, float64(s.GetSampleCount())})
			default:
				out = append(out, Metric{name, labels, m.GetUntyped().GetValue()})
			}
		}
	}
	return out
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// ValuesBy maps each series of a counter, gauge or untyped family to its
// value, keyed by the value of one label ("" for a series without it). A
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
