package promkit

import (
	"strings"
	"testing"
)

func TestParseMetrics(t *testing.T) {
	page := "# HELP x y\nhttp_requests_total{code=\"200\",handler=\"/a\"} 12\nprocess_cpu_seconds_total 0.5\n" +
		"container_cpu_usage_seconds_total{id=\"/a b\",name=\"q\\\"x\"} 1.5e+03 1795321130234\n" +
		"# TYPE rpc_seconds histogram\nrpc_seconds_bucket{le=\"0.1\"} 3\nrpc_seconds_bucket{le=\"+Inf\"} 5\nrpc_seconds_sum 0.7\nrpc_seconds_count 5\n"
	ms, err := ParseMetrics(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, m := range ms {
		got[m.Key()] = m.Value
	}
	want := map[string]float64{
		`container_cpu_usage_seconds_total{id="/a b",name="q\"x"}`: 1500,
		`http_requests_total{code="200",handler="/a"}`:             12,
		`process_cpu_seconds_total{}`:                              0.5,
		`rpc_seconds_bucket{le="0.1"}`:                             3,
		`rpc_seconds_bucket{le="+Inf"}`:                            5,
		`rpc_seconds_sum{}`:                                        0.7,
		`rpc_seconds_count{}`:                                      5,
	}
	if len(got) != len(want) || len(ms) != len(want) {
		t.Errorf("%d lines %v, want %v", len(ms), got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %g, want %g", k, got[k], v)
		}
	}
	if ms[0].Name != "container_cpu_usage_seconds_total" {
		t.Errorf("first line %s: want families in name order", ms[0].Name)
	}
	if _, err := ParseMetrics(strings.NewReader("x{a=\"1\" 2\n")); err == nil {
		t.Error("a broken line was parsed")
	}
}
