package service

import (
	"context"
	"net/http"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// What an instrumented router adds to each route, so that hotpath can tell
// which route got more expensive: the request counted per route, as
// OpenTelemetry's HTTP server instrumentation counts it through its
// Prometheus exporter (the histogram http.server.request.duration becomes
// http_server_request_duration_seconds, its attributes http_route,
// http_request_method, http_response_status_code), and the handler run under
// the pprof label http.route (pprof.Do: the goroutines it starts inherit
// it), which the profile store keeps per sample. The rule pack divides each
// endpoint's profile cost by its own route's requests (endpointRequestSources,
// endpointProfileLabels: both defaults).

// routeLabel is the pprof label that names a sample's route.
const routeLabel = "http.route"

// newRouteDurations is OpenTelemetry's HTTP server duration histogram, with
// the buckets its semantic conventions advise.
func newRouteDurations() *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "http_server_request_duration_seconds",
		Help:    "Duration of HTTP server requests, by route (OpenTelemetry's http.server.request.duration through its Prometheus exporter).",
		Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10},
	}, []string{"http_route", "http_request_method", "http_response_status_code"})
}

// instrumentRoute counts each request of route in durations and serves it
// with the pprof label http.route=route.
func instrumentRoute(route string, durations *prometheus.HistogramVec, h http.Handler) http.Handler {
	labels := pprof.Labels(routeLabel, route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		pprof.Do(r.Context(), labels, func(ctx context.Context) {
			h.ServeHTTP(sw, r.WithContext(ctx))
		})
		durations.WithLabelValues(route, r.Method, strconv.Itoa(sw.code)).Observe(time.Since(start).Seconds())
	})
}

// statusWriter keeps the status code a handler answers with.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (s *statusWriter) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}
