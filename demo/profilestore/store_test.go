package profilestore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/hotpath/hotpath/demo/service"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// cpuProfile is a CPU profile whose samples are fn -> main.main, cpu
// nanoseconds as given, "samples" counts alongside.
func cpuProfile(t *testing.T, values map[string]int64) []byte {
	t.Helper()
	main := &profile.Function{ID: 1, Name: "main.main"}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1e7,
		Function: []*profile.Function{main},
		Location: []*profile.Location{{ID: 1, Line: []profile.Line{{Function: main}}}},
	}
	id := uint64(2)
	for name, v := range values {
		f := &profile.Function{ID: id, Name: name}
		l := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, l)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l, p.Location[0]}, Value: []int64{v / 1e7, v}})
		id++
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// storeWithThree holds three back-to-back 10 s CPU profiles of "api":
// 12:00:00-10 a, 12:00:10-20 a+b, 12:00:20-30 b.
func storeWithThree(t *testing.T) *Store {
	s := New(time.Hour, 1<<20)
	s.now = func() time.Time { return t0.Add(time.Minute) }
	for i, v := range []map[string]int64{{"a": 1e8}, {"a": 1e8, "b": 3e8}, {"b": 2e8}} {
		start := t0.Add(time.Duration(i) * 10 * time.Second)
		s.Add(Entry{Service: "api", Kind: KindCPU, Start: start, End: start.Add(10 * time.Second), Data: cpuProfile(t, v)})
	}
	return s
}

func query(t *testing.T, h http.Handler, q string) (*http.Response, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/profile?"+q, nil))
	return rec.Result(), rec.Body.Bytes()
}

func ms(d time.Duration) int64 { return t0.Add(d).UnixMilli() }

// A window gets the merge of exactly the profiles it overlaps, with one
// sample type, and headers saying which profiles went in.
func TestProfileMergesTheProfilesOverlappingTheWindow(t *testing.T) {
	h := Handler(storeWithThree(t))
	for _, c := range []struct {
		from, to time.Duration
		count    string
		want     map[string]int64
	}{
		{0, 30 * time.Second, "3", map[string]int64{"a": 2e8, "b": 5e8}},
		{12 * time.Second, 18 * time.Second, "1", map[string]int64{"a": 1e8, "b": 3e8}},
		{15 * time.Second, 25 * time.Second, "2", map[string]int64{"a": 1e8, "b": 5e8}},
		{-time.Minute, 5 * time.Second, "1", map[string]int64{"a": 1e8}},
	} {
		resp, body := query(t, h, fmt.Sprintf("service=api&type=cpu&from=%d&to=%d", ms(c.from), ms(c.to)))
		if resp.StatusCode != 200 {
			t.Fatalf("[%s, %s): %d %s", c.from, c.to, resp.StatusCode, body)
		}
		if got := resp.Header.Get("X-Profile-Count"); got != c.count {
			t.Errorf("[%s, %s): %s profiles, want %s", c.from, c.to, got, c.count)
		}
		p, err := profile.Parse(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if len(p.SampleType) != 1 || p.SampleType[0].Type != "cpu" {
			t.Errorf("sample types %v, want only cpu", p.SampleType)
		}
		got := map[string]int64{}
		for _, s := range p.Sample {
			got[s.Location[0].Line[0].Function.Name] += s.Value[0]
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("[%s, %s): %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// Instances of one service (targets with the same name) are one service, as
// a Pyroscope query on service_name merges them: an outlier instance's extra
// work shows in the service's profile.
func TestInstancesOfAServiceMerge(t *testing.T) {
	s := New(time.Hour, 1<<20)
	s.now = func() time.Time { return t0.Add(time.Minute) }
	for i, v := range []map[string]int64{{"serve": 1e8}, {"serve": 1e8}, {"serve": 1e8, "sha256": 4e8}} {
		// Three instances collecting over the same 10 s, slightly staggered.
		start := t0.Add(time.Duration(i) * time.Second)
		s.Add(Entry{Service: "catalog", Kind: KindCPU, Start: start, End: start.Add(10 * time.Second), Data: cpuProfile(t, v)})
	}
	if got := s.Services(); len(got) != 1 || got[0].Coverage["cpu"].Profiles != 3 {
		t.Fatalf("services %+v, want catalog with 3 profiles", got)
	}
	resp, body := query(t, Handler(s), fmt.Sprintf("service=catalog&type=cpu&from=%d&to=%d", ms(0), ms(20*time.Second)))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	p, err := profile.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, smp := range p.Sample {
		got[smp.Location[0].Line[0].Function.Name] += smp.Value[0]
	}
	if want := map[string]int64{"serve": 3e8, "sha256": 4e8}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("merged %v, want %v", got, want)
	}
}

// Bad parameters are 400s that say what is wrong; an unknown service and an
// empty window are 404s that say which.
func TestProfileErrorsSayWhatIsWrong(t *testing.T) {
	s := storeWithThree(t)
	s.Register("idle")
	h := Handler(s)
	ok := fmt.Sprintf("from=%d&to=%d", ms(0), ms(30*time.Second))
	for _, c := range []struct {
		q    string
		code int
		says string
	}{
		{"type=cpu&" + ok, 400, "missing parameter service"},
		{"service=api&" + ok, 400, "want one of alloc_objects, alloc_space, cpu"},
		{"service=api&type=wall&" + ok, 400, `parameter type is "wall"`},
		{"service=api&type=cpu&to=5", 400, "missing parameter from"},
		{"service=api&type=cpu&from=5", 400, "missing parameter to"},
		{"service=api&type=cpu&from=yesterday&to=5", 400, `parameter from is "yesterday"`},
		{"service=api&type=cpu&from=1.5&to=5", 400, "unix milliseconds"},
		{fmt.Sprintf("service=api&type=cpu&from=%d&to=%d", ms(time.Second), ms(time.Second)), 400, "from must be before to"},
		{"service=nope&type=cpu&" + ok, 404, `unknown service "nope"`},
		{"service=idle&type=cpu&" + ok, 404, "no samples in this window"},
		{"service=api&type=alloc_space&" + ok, 404, "no samples in this window: alloc_space of api"},
		{fmt.Sprintf("service=api&type=cpu&from=%d&to=%d", ms(time.Hour), ms(2*time.Hour)), 404, "no samples in this window"},
	} {
		resp, body := query(t, h, c.q)
		var e map[string]string
		_ = json.Unmarshal(body, &e)
		if resp.StatusCode != c.code || !strings.Contains(e["error"], c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.q, resp.StatusCode, body, c.code, c.says)
		}
	}
}

// Profiles whose samples are all zero for the asked type are "no samples".
func TestAllZeroProfilesAreNoSamples(t *testing.T) {
	s := New(time.Hour, 1<<20)
	s.now = func() time.Time { return t0 }
	s.Add(Entry{Service: "idle", Kind: KindCPU, Start: t0, End: t0.Add(10 * time.Second), Data: cpuProfile(t, map[string]int64{})})
	resp, body := query(t, Handler(s), fmt.Sprintf("service=idle&type=cpu&from=%d&to=%d", ms(0), ms(10*time.Second)))
	if resp.StatusCode != 404 || !strings.Contains(string(body), "no samples in this window") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}

// The store forgets profiles past the retention, and the oldest first when
// over its byte budget.
func TestStoreIsBounded(t *testing.T) {
	now := t0
	s := New(30*time.Second, 0)
	s.now = func() time.Time { return now }
	data := cpuProfile(t, map[string]int64{"a": 1e8})
	add := func(svc string, i int) {
		start := t0.Add(time.Duration(i) * 10 * time.Second)
		s.Add(Entry{Service: svc, Kind: KindCPU, Start: start, End: start.Add(10 * time.Second), Data: data})
	}
	for i := range 10 {
		now = t0.Add(time.Duration(i+1) * 10 * time.Second)
		add("api", i)
	}
	if got, _ := s.Overlapping("api", KindCPU, t0, t0.Add(time.Hour)); len(got) != 4 {
		t.Errorf("%d profiles kept with a 30s retention of 10s profiles, want 4", len(got))
	}
	s.MaxBytes = 3 * len(data)
	add("cache", 9)
	api, _ := s.Overlapping("api", KindCPU, t0, t0.Add(time.Hour))
	cache, _ := s.Overlapping("cache", KindCPU, t0, t0.Add(time.Hour))
	if len(api) != 2 || len(cache) != 1 || s.Bytes() != 3*len(data) {
		t.Errorf("over budget: kept api %d, cache %d, %d bytes; want the oldest dropped", len(api), len(cache), s.Bytes())
	}
	if !api[0].Start.Equal(t0.Add(80 * time.Second)) {
		t.Errorf("kept api from %s, want the newest", api[0].Start)
	}
}

// GET /services lists every target, what it holds and its last error.
func TestServicesListsWhatTheStoreHolds(t *testing.T) {
	s := storeWithThree(t)
	s.Register("poller")
	s.SetError("poller", "connection refused")
	rec := httptest.NewRecorder()
	Handler(s).ServeHTTP(rec, httptest.NewRequest("GET", "/services", nil))
	var got []ServiceInfo
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || len(got) != 2 {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	api, poller := got[0], got[1]
	if api.Service != "api" || api.Coverage["cpu"].Profiles != 3 || api.Coverage["cpu"].FromMs != ms(0) ||
		api.Coverage["cpu"].ToMs != ms(30*time.Second) || fmt.Sprint(api.Types) != "[cpu]" {
		t.Errorf("api: %+v", api)
	}
	if poller.LastError != "connection refused" || len(poller.Types) != 0 {
		t.Errorf("poller: %+v", poller)
	}
	if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Error("the sandbox page fetches from another origin: CORS must be open")
	}
}

// The collector pulls real CPU and allocation profiles from a demo service's
// /debug/pprof, and the store answers both alloc types from the heap delta.
func TestCollectorPullsRealProfiles(t *testing.T) {
	svc, err := service.New(service.Spec{Name: "svc"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Mux)
	defer srv.Close()
	s := New(time.Hour, 1<<24)
	c := &Collector{Store: s, Window: time.Second, Retry: 100 * time.Millisecond, Client: srv.Client()}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Busy work while profiling, so the CPU profile has samples.
		for ctx.Err() == nil {
			_, _ = fmt.Fprint(io.Discard, strings.Repeat("x", 1<<16))
		}
	}()
	done := make(chan struct{})
	go func() { c.Run(ctx, []Target{{Service: "svc", BaseURL: srv.URL}}); close(done) }()
	deadline := time.After(10 * time.Second)
	for {
		info := s.Services()
		if len(info) == 1 && info[0].Coverage["cpu"].Profiles >= 1 && info[0].Coverage["alloc"].Profiles >= 1 {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("no profiles after 10s: %+v", info)
		case <-time.After(100 * time.Millisecond):
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the collector did not return within 10s of its context's end")
	}
	h := Handler(s)
	for _, typ := range []string{"cpu", "alloc_space", "alloc_objects"} {
		resp, body := query(t, h, fmt.Sprintf("service=svc&type=%s&from=0&to=%d", typ, time.Now().Add(time.Minute).UnixMilli()))
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", typ, resp.StatusCode, body)
			continue
		}
		p, err := profile.Parse(bytes.NewReader(body))
		if err != nil || p.SampleType[0].Type != typ {
			t.Errorf("%s: %v, sample types %v", typ, err, p.SampleType)
		}
	}
}

// A target that is down is retried, and its error is shown.
func TestCollectorRecordsErrors(t *testing.T) {
	s := New(time.Hour, 1<<20)
	c := &Collector{Store: s, Window: time.Second, Retry: 50 * time.Millisecond, Client: &http.Client{Timeout: time.Second}}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	c.Run(ctx, []Target{{Service: "down", BaseURL: "http://127.0.0.1:1"}})
	info := s.Services()
	if len(info) != 1 || !strings.Contains(info[0].LastError, "connection refused") {
		t.Errorf("%+v", info)
	}
}
