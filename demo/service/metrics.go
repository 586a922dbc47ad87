package service

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// newRegistry registers what hotpath's input contract reads from a service:
// process_cpu_seconds_total (process collector), go_memstats_alloc_bytes_total
// and go_sched_gomaxprocs_threads (Go collector; client_golang >= 1.20 exports
// the latter by default) and http_requests_total. job and instance are not
// set here: Prometheus's scrape configuration adds them. durations is the
// per-route histogram (routes.go).
func newRegistry(durations *prometheus.HistogramVec, extra ...prometheus.Collector) (*prometheus.Registry, *prometheus.CounterVec, error) {
	reg := prometheus.NewRegistry()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "http_requests_total",
		Help: "Requests served by the service's own endpoints (not /metrics, /debug/pprof or /admin).",
	}, []string{"handler", "code", "method"})
	cs := append([]prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		requests,
		durations,
	}, extra...)
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, nil, err
		}
	}
	return reg, requests, nil
}

// NewEdgeCounter is the service-graph edge client -> server, the metric
// Tempo's and Alloy's service-graph processors export
// (traces_service_graph_request_total{client, server}); hotpath reads it to
// compare a service with its upstream. The client counts its own calls.
func NewEdgeCounter(client, server string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{
		Name:        "traces_service_graph_request_total",
		Help:        "Calls from client to server, as a service-graph processor would count them.",
		ConstLabels: prometheus.Labels{"client": client, "server": server},
	})
}
