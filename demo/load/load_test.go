package load

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	for spec, want := range map[string][]float64{ // rate at 0, period/4, period/2, 3period/4
		"25":               {25, 25, 25, 25},
		"sine:10:50:4m":    {30, 50, 30, 10},
		"square:10:50:4m":  {50, 50, 10, 10},
		"sine:0:0:1s":      {0, 0, 0, 0},
		"square:5:5:300ms": {5, 5, 5, 5},
	} {
		r, err := ParseRate(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		period := 4 * time.Minute
		if spec == "sine:0:0:1s" || spec == "square:5:5:300ms" || spec == "25" {
			period = time.Second
		}
		for i, w := range want {
			if got := r(time.Duration(i) * period / 4); math.Abs(got-w) > 1e-9 {
				t.Errorf("%s at %d/4 period: %v, want %v", spec, i, got, w)
			}
		}
	}
	for _, bad := range []string{"", "-1", "fast", "sine:10:50", "sine:50:10:1m", "square:1:2:0s", "cosine:1:2:1m", "sine:a:2:1m"} {
		if _, err := ParseRate(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Drive holds the rate and stops with its context.
func TestDriveHoldsTheRate(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			t.Error("the generator asks for gzip, as browsers do")
		}
		hits.Add(1)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	st := &Stats{}
	start := time.Now()
	const maxInFlight = 8
	Drive(ctx, NewClient(4), Target{URL: srv.URL, Rate: Constant(100)}, maxInFlight, st)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Drive returned %s after a 1s context", d)
	}
	n, ok := uint64(hits.Load()), st.OK.Load()
	if n < 80 || n > 110 {
		t.Errorf("%d requests at 100/s for 1s", n)
	}
	// A request the server saw may be cut short by the end of the run: it
	// counts as neither ok nor failed, and at most maxInFlight are.
	if ok > n || n-ok > maxInFlight || st.Failed.Load() != 0 || st.Sent.Load() < n {
		t.Errorf("server saw %d, client sent %d, ok %d, failed %d", n, st.Sent.Load(), ok, st.Failed.Load())
	}
}

// Open loop, bounded: a stuck service gets no more than maxInFlight
// requests; the rest are counted as dropped.
func TestDriveDropsBeyondMaxInFlight(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	st := &Stats{}
	Drive(ctx, NewClient(2), Target{URL: srv.URL, Rate: Constant(100)}, 2, st)
	if st.Sent.Load() != 2 || st.Dropped.Load() < 30 {
		t.Errorf("sent %d, dropped %d: want 2 sent and the rest dropped", st.Sent.Load(), st.Dropped.Load())
	}
}
