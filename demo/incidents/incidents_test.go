package incidents

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// captureStdout runs f with os.Stdout sent to a file and returns what f
// printed: the println incident writes to stdout, as the story's code did.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	tmp, err := os.CreateTemp(t.TempDir(), "stdout")
	if err != nil {
		t.Fatal(err)
	}
	orig := os.Stdout
	os.Stdout = tmp
	defer func() { os.Stdout = orig }()
	f()
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newAPI(t *testing.T, blob []byte, sw *Switch) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	cache := httptest.NewServer(CacheHandler(blob))
	t.Cleanup(cache.Close)
	calls := &atomic.Int64{}
	client := &CacheClient{BaseURL: cache.URL, HTTP: cache.Client(), OnCall: func() { calls.Add(1) }}
	api := httptest.NewServer(APIHandler(client, sw))
	t.Cleanup(api.Close)
	return api, calls
}

// The api streams the cache's bytes unchanged, prints the message only while
// the incident is on, and counts one edge call per request either way.
func TestAPIPrintsTheFetchedMessageOnlyDuringTheIncident(t *testing.T) {
	blob := NewBlob(2048, 7)
	sw := &Switch{}
	api, calls := newAPI(t, blob, sw)
	get := func() []byte {
		resp, err := http.Get(api.URL + "/emoji")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		return b
	}
	if out := captureStdout(t, func() {
		if !bytes.Equal(get(), blob) {
			t.Error("healthy api did not stream the blob unchanged")
		}
	}); out != "" {
		t.Errorf("healthy api printed %d bytes", len(out))
	}
	sw.Set(true)
	out := captureStdout(t, func() {
		if !bytes.Equal(get(), blob) {
			t.Error("api with the incident did not stream the blob unchanged")
		}
	})
	// prototext of a BytesValue: `err value:"\x..." <nil>`, every byte escaped.
	if !strings.HasPrefix(out, "err value:\"") || len(out) < 2*len(blob) {
		t.Errorf("want the text-marshalled message on stdout, got %d bytes: %.60q", len(out), out)
	}
	if calls.Load() != 2 {
		t.Errorf("edge counted %d calls, want 2", calls.Load())
	}
}

// A failing cache is a 502 from the api, and still a counted edge call.
func TestAPIReportsCacheErrors(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	defer down.Close()
	calls := 0
	client := &CacheClient{BaseURL: down.URL, HTTP: down.Client(), OnCall: func() { calls++ }}
	rec := httptest.NewRecorder()
	APIHandler(client, &Switch{}).ServeHTTP(rec, httptest.NewRequest("GET", "/emoji", nil))
	if rec.Code != http.StatusBadGateway || calls != 1 {
		t.Errorf("got status %d after %d calls, want 502 after 1", rec.Code, calls)
	}
}

func gzipGet(t *testing.T, h http.Handler, acceptGzip bool) (*httptest.ResponseRecorder, []byte) {
	t.Helper()
	req := httptest.NewRequest("GET", "/flags", nil)
	if acceptGzip {
		req.Header.Set("Accept-Encoding", "gzip, deflate")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body := rec.Body.Bytes()
	if rec.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return rec, body
}

// Both middleware paths serve the same valid gzip; clients that do not ask
// for gzip get the plain document.
func TestCompressServesTheSameDocumentBothWays(t *testing.T) {
	doc := FlagsDocument(10)
	sw := &Switch{}
	h := Compress(6, sw, FlagsHandler(doc))
	for _, on := range []bool{false, true, false} {
		sw.Set(on)
		rec, body := gzipGet(t, h, true)
		if rec.Header().Get("Content-Encoding") != "gzip" || !bytes.Equal(body, doc) {
			t.Errorf("incident=%v: encoding %q, body equal %v", on, rec.Header().Get("Content-Encoding"), bytes.Equal(body, doc))
		}
	}
	rec, body := gzipGet(t, h, false)
	if rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(body, doc) {
		t.Error("a client without Accept-Encoding: gzip must get the plain document")
	}
	var v map[string][]Flag
	if err := json.Unmarshal(doc, &v); err != nil || len(v["flags"]) != 10 {
		t.Errorf("document: %v, %d flags", err, len(v["flags"]))
	}
}

// The incident allocates a new flate compressor per response (hundreds of
// KB); the pool reuses one.
func TestCompressAllocatesPerResponseOnlyDuringTheIncident(t *testing.T) {
	sw := &Switch{}
	h := Compress(6, sw, FlagsHandler(FlagsDocument(10)))
	perRequest := func() float64 {
		gzipGet(t, h, true) // warm the pool
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const n = 20
		for range n {
			gzipGet(t, h, true)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / n
	}
	healthy := perRequest()
	sw.Set(true)
	incident := perRequest()
	t.Logf("bytes allocated per response: pooled %.0f, per-response writer %.0f", healthy, incident)
	if incident < 300<<10 || incident < 5*healthy {
		t.Errorf("want the per-response writer to allocate >= 300 KiB and 5x the pooled path")
	}
}

// The event loop serves events in both modes; with the timeout at 0 it spins
// (thousands of empty epoll_wait returns), healthy it barely wakes up.
func TestEventLoopSpinsOnlyWithZeroTimeout(t *testing.T) {
	sw := &Switch{}
	loop, err := NewEventLoop(50*time.Millisecond, sw)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- loop.Run(ctx) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the event loop did not return within 10s of its context's end")
		}
		_ = loop.Close()
	}()
	idleIn := func(d time.Duration) uint64 {
		before := loop.Idle.Load()
		sctx, scancel := context.WithTimeout(context.Background(), time.Second)
		defer scancel()
		if err := loop.Submit(sctx); err != nil {
			t.Fatalf("submit: %v", err)
		}
		time.Sleep(d)
		return loop.Idle.Load() - before
	}
	healthy := idleIn(200 * time.Millisecond)
	sw.Set(true)
	busy := idleIn(200 * time.Millisecond)
	sw.Set(false)
	t.Logf("empty epoll_wait returns in 200ms: healthy %d, timeout 0 %d", healthy, busy)
	if healthy > 10 || busy < 1000 {
		t.Errorf("want <= 10 idle wakeups healthy and >= 1000 with timeout 0")
	}
}

// The builds handler answers the same in both modes; the incident fans the
// request out to every worker of the pool.
func TestBuildsHandlerFansOutDuringTheIncident(t *testing.T) {
	pool := NewWorkerPool(4)
	defer pool.Close()
	sw := &Switch{}
	h := BuildsHandler(pool, BuildsPage(50), 4, time.Millisecond, sw)
	for _, on := range []bool{false, true} {
		sw.Set(on)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/builds", nil))
		if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"builds":50}` {
			t.Errorf("incident=%v: %d %s", on, rec.Code, rec.Body.String())
		}
	}
	// Four jobs of the pool run at once: each blocks until all have started.
	var started atomic.Int32
	release := make(chan struct{})
	job := func() {
		if started.Add(1) == 4 {
			close(release)
		}
		<-release
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := pool.Do(ctx, job, job, job, job); err != nil || started.Load() != 4 {
		t.Errorf("pool did not run 4 jobs concurrently: %v", err)
	}
}

// A request costs one job of jobCPU healthy and shards of them with the
// incident on, measured as the process's CPU time: what decides whether the
// incident outruns the playground's quota, on any machine.
func TestBuildsRequestCostsJobCPUPerShard(t *testing.T) {
	pool := NewWorkerPool(4)
	defer pool.Close()
	sw := &Switch{}
	const jobCPU = 30 * time.Millisecond
	h := BuildsHandler(pool, BuildsPage(200), 4, jobCPU, sw)
	cost := func() time.Duration {
		before := processCPU(t)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/builds", nil))
		if rec.Code != 200 || strings.TrimSpace(rec.Body.String()) != `{"builds":200}` {
			t.Fatalf("%d %s", rec.Code, rec.Body.String())
		}
		return processCPU(t) - before
	}
	healthy := cost()
	sw.Set(true)
	incident := cost()
	t.Logf("CPU per request: healthy %s, incident %s (job %s)", healthy, incident, jobCPU)
	if healthy < jobCPU || healthy > 3*jobCPU {
		t.Errorf("healthy request cost %s, want one job of %s (at most 3x with GC)", healthy, jobCPU)
	}
	if incident < 4*jobCPU {
		t.Errorf("incident request cost %s, want at least 4 jobs of %s", incident, jobCPU)
	}
}

func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The search answers the same both ways; the incident's per-request
// expressions cost the route several times its healthy CPU per request,
// while the health check costs a small fraction of a healthy search.
func TestSearchCostsSeveralTimesMoreOnlyDuringTheIncident(t *testing.T) {
	sw := &Switch{}
	products := Catalogue(800)
	const rankCPU = time.Millisecond
	search, health := SearchHandler(products, rankCPU, sw), HealthHandler()
	get := func(h http.Handler, url string) string {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", url, rec.Code, rec.Body.String())
		}
		return strings.TrimSpace(rec.Body.String())
	}
	cost := func(h http.Handler, url string) time.Duration {
		get(h, url)
		const n = 100
		before := processCPU(t)
		for range n {
			get(h, url)
		}
		return (processCPU(t) - before) / n
	}
	for _, q := range []string{"/search", "/search?q=RED+Lamp", "/search?q=nothing"} {
		sw.Set(false)
		healthy := get(search, q)
		sw.Set(true)
		if incident := get(search, q); incident != healthy {
			t.Errorf("%s: %s healthy, %s with the incident", q, healthy, incident)
		}
	}
	if got := get(search, "/search?q=blue+shoes"); got != `{"query":"blue shoes","matches":15}` {
		t.Errorf("blue shoes: %s", got)
	}
	sw.Set(false)
	healthy := cost(search, "/search")
	check := cost(health, "/healthz")
	sw.Set(true)
	incident := cost(search, "/search")
	t.Logf("CPU per request: search %s healthy, %s with the incident; health check %s", healthy, incident, check)
	if healthy < rankCPU || healthy > 3*rankCPU {
		t.Errorf("a healthy search costs %s, want its ranking's %s (at most 3x with the matching and GC)", healthy, rankCPU)
	}
	// the regexps compiled per request cost a fixed amount of CPU while the
	// ranking is a fixed 1ms of it, so the ratio moves with the CPU and with
	// what else runs on it (2.85x on a quiet AMD EPYC, 1.97x beside a running
	// playground, whose GC and cache misses the regexps feel most): 1.5x is
	// still several times what the endpoint alert needs
	if incident*2 < 3*healthy {
		t.Errorf("the incident's search costs %s, want at least 1.5x the healthy %s", incident, healthy)
	}
	if check*5 > healthy {
		t.Errorf("the health check costs %s, want under a fifth of a healthy search (%s)", check, healthy)
	}
}
