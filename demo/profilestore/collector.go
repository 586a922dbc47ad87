package profilestore

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Target is a service to collect from: its base URL serves /debug/pprof/.
type Target struct {
	Service string
	BaseURL string
}

// Collector pulls profiles back to back, as Pyroscope's pull mode does: a CPU
// profile of Window seconds (/debug/pprof/profile?seconds=N), and beside it
// the allocations of the same window (/debug/pprof/heap?seconds=N, a delta
// heap profile).
type Collector struct {
	Store  *Store
	Window time.Duration
	// Retry is the pause after a failed fetch (service down or restarting).
	Retry  time.Duration
	Client *http.Client
}

// Run collects from every target until ctx is done.
func (c *Collector) Run(ctx context.Context, targets []Target) {
	done := make(chan struct{})
	n := 0
	for _, t := range targets {
		c.Store.Register(t.Service)
		for _, k := range []Kind{KindCPU, KindAlloc} {
			n++
			go func() { c.loop(ctx, t, k); done <- struct{}{} }()
		}
	}
	for range n {
		<-done
	}
}

func (c *Collector) loop(ctx context.Context, t Target, k Kind) {
	for ctx.Err() == nil {
		e, err := c.Fetch(ctx, t, k)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.Store.SetError(t.Service, fmt.Sprintf("%s %s: %v", time.Now().Format(time.RFC3339), k, err))
			select {
			case <-time.After(c.Retry):
			case <-ctx.Done():
			}
			continue
		}
		c.Store.Add(e)
	}
}

// Fetch collects one profile of kind k from t; its time range is the wall
// clock around the request, which is what the profile covers.
func (c *Collector) Fetch(ctx context.Context, t Target, k Kind) (Entry, error) {
	secs := int(c.Window / time.Second)
	if secs < 1 {
		secs = 1
	}
	path := "/debug/pprof/profile"
	if k == KindAlloc {
		path = "/debug/pprof/heap"
	}
	url := fmt.Sprintf("%s%s?seconds=%d", strings.TrimRight(t.BaseURL, "/"), path, secs)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Entry{}, err
	}
	start := time.Now()
	resp, err := c.Client.Do(req)
	if err != nil {
		return Entry{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Entry{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Entry{}, fmt.Errorf("%s: %s: %s", url, resp.Status, strings.TrimSpace(string(data)))
	}
	return Entry{Service: t.Service, Instance: req.URL.Host, Kind: k, Start: start, End: time.Now(), Data: data}, nil
}
