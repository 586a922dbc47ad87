package playground

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The shop runs both its routes under load, each a target of its own at its
// own rate, and the mix change grows its cheap route by a constant rate.
func TestWorldLoadsBothShopRoutes(t *testing.T) {
	w := testWorld()
	shop := w.StoryService(EndpointStory)
	if shop == nil || shop.Job != "shop" || !shop.Endpoints || shop.Healthy {
		t.Fatalf("the endpoint story's service: %+v", shop)
	}
	got := map[string]string{}
	for _, lt := range w.LoadTargets() {
		if lt.Service == shop {
			got[lt.Name] = lt.Route + "@" + lt.Rate + " " + lt.URL
		}
	}
	base := shop.Instances[0].URL()
	want := map[string]string{"shop": "/search@10 " + base + "/search", "shop-healthz": "/healthz@12 " + base + "/healthz"}
	if !maps.Equal(got, want) {
		t.Errorf("shop's load targets %v, want %v", got, want)
	}
	m := w.MixChange
	if m == nil || m.Job != shop.Job || m.Route != "/healthz" {
		t.Fatalf("mix change %+v, want the shop's /healthz", m)
	}
	if _, err := strconv.ParseFloat(m.Rate, 64); err != nil {
		t.Errorf("mix change rate %q: want a constant", m.Rate)
	}
	if in := Incident(EndpointStory); in.Service != shop.Job || in.Alert != "EndpointCostPerRequestRegression" || in.Profile != "cpu" || in.AnswerRegexp() != nil {
		t.Errorf("the endpoint story's incident %+v", in)
	}
	if Stories[len(Stories)-1] != EndpointStory {
		t.Errorf("stories %v: want the endpoint story last", Stories)
	}
}

// The history of a service with endpoints: its per-route request counters
// with their live labels, each route's requests of its own rate, ending at 0
// where the live counters start (no restart for the endpoint rules); a
// route's endpoint row its live cost per request for each request, by day and
// by night; the rows that are no route the rest of the service's cost; the
// instance row the whole.
func TestHistoryEndpointRows(t *testing.T) {
	w := testWorld()
	shop := w.Service("shop")
	in := shop.Instances[0].Addr()
	cal := testCalibration(w)
	ic := cal.Instances[in]
	ic.Samples = append(ic.Samples,
		promkit.Metric{Name: "http_requests_total", Labels: map[string]string{"code": "200", "handler": "/healthz", "method": "get"}, Value: 120},
		promkit.Metric{Name: routeRequestsMetric, Labels: map[string]string{routeLabel: "/search", "http_request_method": "GET", "http_response_status_code": "200"}, Value: 100},
		promkit.Metric{Name: routeRequestsMetric, Labels: map[string]string{routeLabel: "/healthz", "http_request_method": "GET", "http_response_status_code": "200"}, Value: 120},
		promkit.Metric{Name: routeRequestsMetric, Labels: map[string]string{routeLabel: "/search", "http_request_method": "GET", "http_response_status_code": "500"}, Value: 1},
	)
	bridge := "127.0.0.1:" + strconv.Itoa(w.Ports.ProfileMetrics)
	row := func(label, value, inst string) map[string]string {
		return map[string]string{"job": "shop", label: value, "instance": inst}
	}
	// the shop's line: 0.01 + 0.001 * req/s; live 22 req/s, 1.45 ms a request
	fns := &FunctionCosts{
		PerRequest: map[string]float64{"shop cpu": 0.00145},
		Rates:      map[string]float64{in: 22},
		Endpoints: []EndpointRow{
			{Metric: endpointCostMetrics["cpu"], Job: "shop", ProfileType: "cpu", Labels: row("endpoint", "/search", bridge), Route: "/search", Share: 0.7, PerRequest: 0.0022},
			{Metric: endpointCostMetrics["cpu"], Job: "shop", ProfileType: "cpu", Labels: row("endpoint", "unlabelled", bridge), Share: 0.3},
			{Metric: instanceCostMetrics["cpu"], Job: "shop", ProfileType: "cpu", Labels: row("instance", in, in), Share: 1, Instance: true},
		},
	}
	end := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	h := &History{World: w, Cal: cal, End: end, LoadStart: end.Add(time.Minute), Length: 24 * time.Hour, Step: 15 * time.Second, Seed: 1, Functions: fns}
	series, err := h.series()
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]float64{}
	for _, s := range series {
		byKey[s.key] = s.values
	}
	n := int(h.Length / h.Step)
	route := func(r, code string) []float64 {
		return byKey[routeRequestsMetric+`{http_request_method="GET",http_response_status_code="`+code+`",http_route="`+r+`",instance="`+in+`",job="shop"}`]
	}
	search, healthz := route("/search", "200"), route("/healthz", "200")
	if search == nil || healthz == nil {
		t.Fatalf("no per-route request counters with the live labels; have %v", slices.Sorted(maps.Keys(byKey)))
	}
	if route("/search", "500") != nil {
		t.Error("only each route's busiest series gets history")
	}
	perSec := func(xs []float64, hoursBefore float64) float64 {
		k := n - 1 - int(hoursBefore*3600/15)
		return (xs[k] - xs[k-240]) / 3600
	}
	for _, c := range []struct {
		name string
		xs   []float64
		rate float64
	}{{"/search", search, 10}, {"/healthz", healthz, 12}} {
		if c.xs[n-1] != 0 {
			t.Errorf("%s ends at %g, want 0 where the live counter starts", c.name, c.xs[n-1])
		}
		for k := 1; k < n; k++ {
			if c.xs[k] < c.xs[k-1] {
				t.Fatalf("%s decreases at %d", c.name, k)
			}
		}
		if got := perSec(c.xs, 0.1); math.Abs(got-c.rate)/c.rate > 0.05 {
			t.Errorf("%s: %.2f req/s at the end, want its load's %g", c.name, got, c.rate)
		}
	}
	handler := func(h string) []float64 {
		return byKey[`http_requests_total{code="200",handler="`+h+`",instance="`+in+`",job="shop",method="get"}`]
	}
	if s, hz := handler("/search"), handler("/healthz"); s == nil || hz == nil || math.Abs(perSec(hz, 0.1)-12) > 0.6 || math.Abs(perSec(s, 0.1)-10) > 0.5 {
		t.Errorf("http_requests_total by handler: want each route's own requests")
	}
	ep := func(metric, label, value, inst string) []float64 {
		return byKey[metric+"{"+promkit.FormatLabels(map[string]string{"job": "shop", label: value, "instance": inst})+"}"]
	}
	searchCPU := ep(endpointCostMetrics["cpu"], "endpoint", "/search", bridge)
	rest := ep(endpointCostMetrics["cpu"], "endpoint", "unlabelled", bridge)
	inst := ep(instanceCostMetrics["cpu"], "instance", in, in)
	procCPU := byKey[`process_cpu_seconds_total{instance="`+in+`",job="shop"}`]
	if searchCPU == nil || rest == nil || inst == nil {
		t.Fatalf("endpoint rows %v %v %v; have %v", searchCPU != nil, rest != nil, inst != nil, slices.Sorted(maps.Keys(byKey)))
	}
	// the route's cost per request is its own by day and by night (its
	// drift and sampling aside); the fixed cost goes to the rest
	perReq := func(xs []float64, hoursBefore float64) float64 {
		k := n - 1 - int(hoursBefore*3600/15)
		return (xs[k] - xs[k-480]) / (search[k] - search[k-480])
	}
	for _, hb := range []float64{0.5, 12} {
		if got := perReq(searchCPU, hb); math.Abs(got-0.0022)/0.0022 > 0.2 {
			t.Errorf("/search %gh before the end: %.5f s per request, want its live 0.0022", hb, got)
		}
	}
	if night, day := perReq(rest, 12), perReq(rest, 0.5); night < 1.5*day {
		t.Errorf("the rest per /search request: day %g, night %g; want the night's higher, the fixed cost's", day, night)
	}
	// the rows add up to the service's cost (scaled to its live cost per
	// request, 1.45 ms at 22 req/s on a line that says 1.4545), the instance
	// row to the whole
	scale := 0.00145 / (0.01/22 + 0.001)
	whole := procCPU[n-1] * scale
	if got := (searchCPU[n-1] + rest[n-1]) / whole; math.Abs(got-1) > 0.05 {
		t.Errorf("endpoint rows add up to %.3f of the service's cost, want 1", got)
	}
	if got := inst[n-1] / whole; math.Abs(got-1) > 0.05 {
		t.Errorf("instance row %.3f of the service's cost, want 1", got)
	}
	for k := range byKey {
		if strings.Contains(k, routeRequestsMetric) && !strings.Contains(k, `job="shop"`) {
			t.Errorf("a service without endpoints got per-route history: %s", k)
		}
	}
}
