package service

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hotpath/hotpath/demo/incidents"
)

func newTestService(t *testing.T, withIncident bool) (*Service, *httptest.Server) {
	t.Helper()
	spec := Spec{Name: "svc", Routes: map[string]http.Handler{
		"/work": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") }),
	}}
	if withIncident {
		spec.Incident, spec.Switch = "story", &incidents.Switch{}
	}
	svc, err := New(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Mux)
	t.Cleanup(srv.Close)
	return svc, srv
}

func call(t *testing.T, method, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// POST /admin/incident switches the incident; GET /admin shows it.
func TestAdminSwitchesTheIncident(t *testing.T) {
	svc, srv := newTestService(t, true)
	for _, on := range []string{"true", "false", "1"} {
		code, body := call(t, "POST", srv.URL+"/admin/incident?on="+on)
		var st State
		if err := json.Unmarshal([]byte(body), &st); code != 200 || err != nil {
			t.Fatalf("on=%s: %d %s", on, code, body)
		}
		want := on != "false"
		if st.IncidentOn != want || svc.Switch.On() != want {
			t.Errorf("on=%s: state says %v, switch %v", on, st.IncidentOn, svc.Switch.On())
		}
	}
	code, body := call(t, "GET", srv.URL+"/admin")
	if code != 200 || !strings.Contains(body, `"incident":"story","incident_on":true`) {
		t.Errorf("GET /admin: %d %s", code, body)
	}
}

// Bad admin calls are refused with a reason, and change nothing.
func TestAdminRejectsBadCalls(t *testing.T) {
	svc, srv := newTestService(t, true)
	_, plain := newTestService(t, false)
	for _, c := range []struct {
		method, url string
		code        int
		says        string
	}{
		{"POST", srv.URL + "/admin/incident?on=maybe", 400, "on must be true or false"},
		{"POST", srv.URL + "/admin/incident", 400, "on must be true or false"},
		{"GET", srv.URL + "/admin/incident?on=true", 405, "use POST"},
		{"POST", srv.URL + "/admin/extra-cpu?per_request=fast", 400, "Go duration"},
		{"POST", srv.URL + "/admin/extra-cpu?per_request=5s", 400, "between 0s and 1s"},
		{"POST", plain.URL + "/admin/incident?on=true", 404, "has no incident"},
	} {
		code, body := call(t, c.method, c.url)
		if code != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s %s: %d %s, want %d saying %q", c.method, c.url, code, body, c.code, c.says)
		}
	}
	if svc.Switch.On() || svc.Extra.Get() != 0 {
		t.Error("a rejected call changed the service")
	}
}

// The extra CPU knob makes each request of this instance cost more.
func TestExtraCPUSlowsEveryRequest(t *testing.T) {
	svc, srv := newTestService(t, false)
	if code, body := call(t, "POST", srv.URL+"/admin/extra-cpu?per_request=20ms"); code != 200 || !strings.Contains(body, `"extra_cpu_per_request":"20ms"`) {
		t.Fatalf("%d %s", code, body)
	}
	start := time.Now()
	call(t, "GET", srv.URL+"/work")
	if d := time.Since(start); d < 20*time.Millisecond || svc.Extra.Get() != 20*time.Millisecond {
		t.Errorf("request took %s with 20ms of extra CPU", d)
	}
}

// /metrics has every series hotpath's input contract reads, and
// http_requests_total counts the service's own routes only.
func TestMetricsHaveTheInputContract(t *testing.T) {
	_, srv := newTestService(t, true)
	call(t, "GET", srv.URL+"/work")
	call(t, "GET", srv.URL+"/work")
	call(t, "GET", srv.URL+"/admin")
	call(t, "GET", srv.URL+"/debug/pprof/")
	call(t, "GET", srv.URL+"/metrics")
	_, body := call(t, "GET", srv.URL+"/metrics")
	for _, want := range []string{
		`http_requests_total{code="200",handler="/work",method="get"} 2`,
		"process_cpu_seconds_total ",
		"go_memstats_alloc_bytes_total ",
		"go_sched_gomaxprocs_threads ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if n := strings.Count(body, "http_requests_total{"); n != 1 {
		t.Errorf("%d http_requests_total series, want only /work's", n)
	}
	if strings.Contains(body, `job=`) || strings.Contains(body, `instance=`) {
		t.Error("job and instance come from the scrape configuration, not the service")
	}
}

// Each route is counted in OpenTelemetry's per-route histogram, and its
// handler runs under the pprof label http.route (what its goroutines
// inherit and its profile samples carry); /admin and /metrics are neither.
func TestRoutesAreCountedAndLabelledPerRoute(t *testing.T) {
	seen := map[string]string{}
	labelOf := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v, _ := pprof.Label(r.Context(), "http.route")
			seen[name] = v
			if name == "/missing" {
				http.NotFound(w, r)
			}
		})
	}
	svc, err := New(Spec{Name: "shop", Routes: map[string]http.Handler{"/search": labelOf("/search"), "/missing": labelOf("/missing")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Mux)
	defer srv.Close()
	for _, path := range []string{"/search", "/search", "/missing", "/admin"} {
		call(t, "GET", srv.URL+path)
	}
	if seen["/search"] != "/search" || seen["/missing"] != "/missing" {
		t.Errorf("pprof labels seen by the handlers: %v", seen)
	}
	_, body := call(t, "GET", srv.URL+"/metrics")
	for _, want := range []string{
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="200",http_route="/search"} 2`,
		`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="404",http_route="/missing"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if n := strings.Count(body, "http_server_request_duration_seconds_count{"); n != 2 {
		t.Errorf("%d per-route counts, want the two routes' only", n)
	}
}

// The edge counter is exported with the client and server labels.
func TestEdgeCounterIsExported(t *testing.T) {
	edge := NewEdgeCounter("api", "cache")
	svc, err := New(Spec{Name: "api", Collectors: []prometheus.Collector{edge}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	edge.Add(3)
	rec := httptest.NewRecorder()
	svc.Mux.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), `traces_service_graph_request_total{client="api",server="cache"} 3`) {
		t.Error("edge counter missing from /metrics")
	}
}

// Run reports a port in use at once, and shuts down (with its background
// loop) when its context ends.
func TestRunStopsCleanlyAndReportsBusyPorts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	bgStopped := make(chan struct{})
	svc, err := New(Spec{Name: "svc", Background: func(ctx context.Context) error {
		<-ctx.Done()
		close(bgStopped)
		return nil
	}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Run(context.Background(), ln.Addr().String()); err == nil || !strings.Contains(err.Error(), "listen on") {
		t.Errorf("busy port: got %v", err)
	}
	free := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- svc.Run(ctx, free) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(6 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	<-bgStopped
}
