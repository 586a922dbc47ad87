package main

import (
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/demo/service"
)

func build(t *testing.T, name string, args ...string) (service.Spec, error) {
	t.Helper()
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	b := builders[name](fs)
	if err := fs.Parse(args); err != nil {
		return service.Spec{}, err
	}
	return b()
}

// Every service builds with its defaults, serves its route and has a default
// port; the ones with a story have its switch.
func TestEveryServiceBuildsWithDefaults(t *testing.T) {
	stories := map[string]string{"api": "println", "poller": "epoll", "worker": "cfs", "gzipper": "gzip", "cache": "", "catalog": "", "shop": "endpoint"}
	routes := map[string]int{"shop": 2}
	var names []string
	for name := range builders {
		names = append(names, name)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "api,cache,catalog,gzipper,poller,shop,worker" {
		t.Fatalf("services: %v", names)
	}
	for _, name := range names {
		spec, err := build(t, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if spec.Incident != stories[name] || (spec.Incident != "") != (spec.Switch != nil) || len(spec.Routes) != max(1, routes[name]) || defaultPorts[name] == "" {
			t.Errorf("%s: incident %q, switch %v, %d routes, port %q", name, spec.Incident, spec.Switch != nil, len(spec.Routes), defaultPorts[name])
		}
		if _, err := service.New(spec, 0); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Knobs out of range are refused before anything starts.
func TestBadKnobsAreRefused(t *testing.T) {
	for _, c := range [][]string{
		{"cache", "-blob-size", "0"},
		{"poller", "-tick", "0s"},
		{"worker", "-pool", "0"},
		{"worker", "-job-cpu", "0s"},
		{"gzipper", "-level", "12"},
		{"shop", "-products", "0"},
		{"shop", "-rank-cpu", "0s"},
	} {
		if _, err := build(t, c[0], c[1:]...); err == nil {
			t.Errorf("%v accepted", c)
		}
	}
}

// The worker, the catalog, the cache and the shop answer their routes.
func TestRoutesAnswer(t *testing.T) {
	for name, path := range map[string]string{"worker": "/builds", "catalog": "/items", "cache": "/blob", "shop": "/search"} {
		spec, err := build(t, name)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		spec.Routes[path].ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Errorf("%s %s: %d", name, path, rec.Code)
		}
	}
}

// The api, wired as the binary wires it, counts each call to the cache on
// the service-graph edge and serves the cache's bytes.
func TestAPICountsTheEdgeToTheCache(t *testing.T) {
	cacheSpec, err := build(t, "cache", "-blob-size", "1024")
	if err != nil {
		t.Fatal(err)
	}
	cache := httptest.NewServer(cacheSpec.Routes["/blob"])
	defer cache.Close()
	spec, err := build(t, "api", "-cache-url", cache.URL)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		rec := httptest.NewRecorder()
		svc.Mux.ServeHTTP(rec, httptest.NewRequest("GET", "/emoji", nil))
		if rec.Code != 200 || rec.Body.Len() != 1024 {
			t.Fatalf("/emoji: %d, %d bytes", rec.Code, rec.Body.Len())
		}
	}
	rec := httptest.NewRecorder()
	svc.Mux.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{
		`traces_service_graph_request_total{client="api",server="cache"} 3`,
		`http_requests_total{code="200",handler="/emoji",method="get"} 3`,
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
