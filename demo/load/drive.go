package load

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Target is one service to drive.
type Target struct {
	Name string
	URL  string
	Rate Rate
}

// Stats counts what Drive did for one target.
type Stats struct {
	Sent, OK, Failed atomic.Uint64
	// Dropped counts requests not sent because MaxInFlight were already
	// outstanding: the generator is open-loop (a slow service does not slow
	// the offered load), but bounded.
	Dropped atomic.Uint64
}

// NewClient is the HTTP client the generator uses. It asks for gzip as
// browsers do (so the gzipper compresses) but never decodes: bodies are
// discarded, and decoding would only burn the generator's CPU.
func NewClient(maxConns int) *http.Client {
	return &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			DisableCompression:  true,
			MaxIdleConnsPerHost: maxConns,
			MaxConnsPerHost:     maxConns,
		},
	}
}

// Drive sends GET requests to t at t.Rate until ctx is done, with at most
// maxInFlight outstanding, and waits for the outstanding ones before it
// returns.
func Drive(ctx context.Context, client *http.Client, t Target, maxInFlight int, stats *Stats) {
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, maxInFlight)
	start := time.Now()
	next := start
	for {
		rps := t.Rate(time.Since(start))
		if rps <= 0 {
			if !sleep(ctx, 100*time.Millisecond) {
				return
			}
			next = time.Now()
			continue
		}
		next = next.Add(time.Duration(float64(time.Second) / rps))
		if wait := time.Until(next); wait > 0 {
			if !sleep(ctx, wait) {
				return
			}
		} else if wait < -time.Second {
			next = time.Now() // after a stall, do not burst to catch up
		}
		if ctx.Err() != nil {
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			stats.Dropped.Add(1)
			continue
		}
		stats.Sent.Add(1)
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			switch {
			case get(ctx, client, t.URL):
				stats.OK.Add(1)
			case ctx.Err() == nil: // cut short by the end of the run is no failure
				stats.Failed.Add(1)
			}
		}()
	}
}

// Accept-Encoding is set by hand because the client's transport does not
// add it (DisableCompression).
func get(ctx context.Context, client *http.Client, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode < 400
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
