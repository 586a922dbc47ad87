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
	grid   time.Duration          // the scrape interval render's ticks are apart
	origin map[string]time.Time   // each scraper's (remote address's) first tick
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
			_, _ = w.Write([]byte(render(e.tick(r.RemoteAddr, time.Now()))))
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

// RenderEachScrape serves render(tick) at every scrape, for pages whose
// samples are stamped with tick: the scraper's tick that the scrape is for,
// on a grid of interval (the scrape interval) that is the scraper's own.
// Why not the moment of the request: Prometheus extrapolates a rate only
// up to 1.1 sampling intervals from a window's last sample, so a scrape
// that runs 0.1 interval late on a busy machine would leave a gap in which
// a rate window ends short, on one server and not on another scraping the
// same exporter. Stamped with its tick, a scrape late by up to four fifths
// of an interval stores the same sample as one on time; the values are the
// lines' at that tick, so two servers still read points of the same lines.
func (e *Exporter) RenderEachScrape(interval time.Duration, render func(tick time.Time) string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.render, e.grid, e.origin = render, interval, map[string]time.Time{}
}

// tick is the latest tick at or before now of scraper's grid: interval
// apart, the first one a fifth of an interval before the scraper's first
// request (so a scrape a little earlier than that one keeps its tick).
// Scrapers are told apart by their connection's remote address: Prometheus
// keeps one open per target.
func (e *Exporter) tick(scraper string, now time.Time) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	o, ok := e.origin[scraper]
	if !ok {
		o = now.Add(-e.grid / 5)
		e.origin[scraper] = o
	}
	return o.Add(now.Sub(o).Truncate(e.grid))
}
