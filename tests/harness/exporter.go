package harness

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Exporter serves a scripted /metrics page on 127.0.0.1. Tests set its text
// (Prometheus text exposition format) and change it as their scenario unfolds.
type Exporter struct {
	Addr string

	mu     sync.Mutex
	text   string
	render func(time.Time) string // when set, renders every scrape's page
}

// NewExporter starts an exporter serving text until the test ends.
func NewExporter(t testing.TB, text string) *Exporter {
	t.Helper()
	e := &Exporter{text: text}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err, "exporter listen")
	e.Addr = l.Addr().String()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		e.mu.Lock()
		render := e.render
		e.mu.Unlock()
		if render != nil {
			_, _ = w.Write([]byte(render(time.Now())))
			return
		}
		_, _ = w.Write([]byte(e.Text()))
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return e
}

// Set replaces the page served from the next scrape on.
func (e *Exporter) Set(text string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.text = text
}

// Text is the page served now.
func (e *Exporter) Text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.text
}

// Follow re-renders the page from render(now) every period until the test
// ends: for scripted counters that must keep growing between scrapes.
func (e *Exporter) Follow(t testing.TB, period time.Duration, render func(time.Time) string) {
	e.Set(render(time.Now()))
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				e.Set(render(now))
			}
		}
	}()
}

// RenderEachScrape serves render(now) at every scrape, now being the moment
// of the request: with samples stamped with that moment, two servers
// scraping the same exporter read points of the same lines.
func (e *Exporter) RenderEachScrape(render func(time.Time) string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.render = render
}
