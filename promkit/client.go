package promkit

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

// Client talks to a server that speaks Prometheus's HTTP API (Prometheus,
// Thanos Query or Ruler): thin helpers over client_golang's v1.API, which
// returns an API error as *v1.Error carrying the server's own message.
type Client struct {
	URL string
	API v1.API
}

// NewClient is a client for the server at base URL, every request bounded by
// timeout (the caller's context may bound it more).
func NewClient(base string, timeout time.Duration) (*Client, error) {
	base = strings.TrimRight(base, "/")
	c, err := api.NewClient(api.Config{Address: base, Client: &http.Client{Timeout: timeout}})
	if err != nil {
		return nil, fmt.Errorf("prometheus client for %s: %w", base, err)
	}
	return &Client{URL: base, API: v1.NewAPI(c)}, nil
}

// Sample is one series of an instant vector.
type Sample struct {
	Metric map[string]string
	Value  float64
}

// Query runs an instant query now and returns its vector (a scalar comes
// back as one sample with no labels).
func (c *Client) Query(ctx context.Context, q string) ([]Sample, error) {
	v, _, err := c.API.Query(ctx, q, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("query %q: %w", q, err)
	}
	switch v := v.(type) {
	case model.Vector:
		out := make([]Sample, 0, len(v))
		for _, s := range v {
			out = append(out, Sample{Metric: LabelMap(model.LabelSet(s.Metric)), Value: float64(s.Value)})
		}
		return out, nil
	case *model.Scalar:
		return []Sample{{Metric: map[string]string{}, Value: float64(v.Value)}}, nil
	}
	return nil, fmt.Errorf("query %q: result %T, want a vector", q, v)
}

// Series is one series of a range query.
type Series struct {
	Metric map[string]string
	Points [][2]float64 // unix seconds, value
}

// QueryRange runs a range query.
func (c *Client) QueryRange(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]Series, error) {
	v, _, err := c.API.QueryRange(ctx, q, v1.Range{Start: start, End: end, Step: step})
	if err != nil {
		return nil, fmt.Errorf("query_range %q: %w", q, err)
	}
	m, ok := v.(model.Matrix)
	if !ok {
		return nil, fmt.Errorf("query_range %q: result %T, want a matrix", q, v)
	}
	out := make([]Series, 0, len(m))
	for _, ss := range m {
		s := Series{Metric: LabelMap(model.LabelSet(ss.Metric))}
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
func (c *Client) Alerts(ctx context.Context) ([]Alert, error) {
	res, err := c.API.Alerts(ctx)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	out := make([]Alert, 0, len(res.Alerts))
	for _, a := range res.Alerts {
		out = append(out, Alert{Labels: LabelMap(a.Labels), Annotations: LabelMap(a.Annotations), State: string(a.State), ActiveAt: a.ActiveAt, Value: a.Value})
	}
	return out, nil
}

// Rule is one rule, recording or alerting, of /api/v1/rules.
type Rule struct {
	Group, Name, Health, LastError string
	Query                          string  // the rule's expression
	EvaluationTime                 float64 // seconds, of the last evaluation
}

// Rules lists every rule of every group, in the server's order.
func (c *Client) Rules(ctx context.Context) ([]Rule, error) {
	res, err := c.API.Rules(ctx)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	var out []Rule
	for _, g := range res.Groups {
		for _, r := range g.Rules {
			switch r := r.(type) {
			case v1.RecordingRule:
				out = append(out, Rule{g.Name, r.Name, string(r.Health), r.LastError, r.Query, r.EvaluationTime})
			case v1.AlertingRule:
				out = append(out, Rule{g.Name, r.Name, string(r.Health), r.LastError, r.Query, r.EvaluationTime})
			}
		}
	}
	return out, nil
}

// RuleGroups counts the rule groups the server evaluates (or, for Thanos
// Query, that its rulers do).
func (c *Client) RuleGroups(ctx context.Context) (int, error) {
	r, err := c.API.Rules(ctx)
	if err != nil {
		return 0, fmt.Errorf("rules: %w", err)
	}
	return len(r.Groups), nil
}

// LabelMap is a label set as a plain map.
func LabelMap(ls model.LabelSet) map[string]string {
	m := make(map[string]string, len(ls))
	for k, v := range ls {
		m[string(k)] = string(v)
	}
	return m
}
