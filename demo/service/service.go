// Package service is what every demo service shares: the Prometheus metrics
// hotpath reads, /debug/pprof, the admin endpoint that switches the incident,
// and a run loop with a clean shutdown. The services themselves (handlers,
// flags) are in cmd/demo-service; the incident code paths in incidents.
package service

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hotpath/hotpath/demo/incidents"
)

// Spec describes one service.
type Spec struct {
	Name string
	// Incident names the incident the service reproduces ("println",
	// "epoll", ...); empty for a service without one (the healthy control).
	Incident string
	// Switch turns the incident on and off; nil when Incident is empty.
	Switch *incidents.Switch
	// Routes are the service's own endpoints. Only these count in
	// http_requests_total and in the per-route histogram, and only these
	// carry the route's pprof label (routes.go): scrapes, profiles and admin
	// calls are not traffic, and counting them would distort CPU per request.
	Routes map[string]http.Handler
	// Background, when set, runs beside the HTTP server until ctx is done
	// (the poller's event loop).
	Background func(ctx context.Context) error
	// Collectors are extra metrics (the api's service-graph edge).
	Collectors []prometheus.Collector
}

// Service is a Spec wired to its registry, its extra-CPU knob and its mux.
type Service struct {
	Spec
	Registry *prometheus.Registry
	Extra    *ExtraCPU
	Mux      *http.ServeMux
}

// New builds the service's registry and mux. extraCPU is the CPU each request
// burns on top of its real work (0 for none; see ExtraCPU).
func New(spec Spec, extraCPU time.Duration) (*Service, error) {
	if spec.Incident != "" && spec.Switch == nil {
		return nil, fmt.Errorf("%s: incident %q has no switch", spec.Name, spec.Incident)
	}
	durations := newRouteDurations()
	reg, requests, err := newRegistry(durations, spec.Collectors...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	s := &Service{Spec: spec, Registry: reg, Extra: &ExtraCPU{}, Mux: http.NewServeMux()}
	s.Extra.Set(extraCPU)
	for path, h := range spec.Routes {
		s.Mux.Handle(path, promhttp.InstrumentHandlerCounter(
			requests.MustCurryWith(prometheus.Labels{"handler": path}), instrumentRoute(path, durations, s.Extra.Wrap(h))))
	}
	s.Mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	s.Mux.HandleFunc("/debug/pprof/", pprof.Index)
	s.Mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	s.Mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	s.Mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	s.Mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	s.Mux.Handle("/admin", http.HandlerFunc(s.adminState))
	s.Mux.Handle("/admin/incident", http.HandlerFunc(s.adminIncident))
	s.Mux.Handle("/admin/extra-cpu", http.HandlerFunc(s.adminExtraCPU))
	return s, nil
}

// Run serves on addr until ctx is done, then shuts down within 5 s. The
// listener is opened first, so a port in use is reported at once and clearly.
func (s *Service) Run(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: listen on %s: %w", s.Name, addr, err)
	}
	srv := &http.Server{Handler: s.Mux, ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	bgDone := make(chan struct{})
	bgCtx, stopBg := context.WithCancel(ctx)
	go func() {
		defer close(bgDone)
		if s.Background != nil {
			if err := s.Background(bgCtx); err != nil {
				errc <- fmt.Errorf("%s: %w", s.Name, err)
			}
		}
	}()
	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shutErr := srv.Shutdown(shutCtx)
	stopBg()
	<-bgDone
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, shutErr)
}
