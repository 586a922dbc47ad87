package demotest

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// firing is a firing alert with these labels (severity, as the rules set it).
func firing(name string, labels ...string) promkit.Alert {
	l := map[string]string{"alertname": name, "severity": "warning"}
	for i := 0; i+1 < len(labels); i += 2 {
		l[labels[i]] = labels[i+1]
	}
	return promkit.Alert{Labels: l, State: "firing", Value: "2"}
}

// expected is the firing alert an expectation asks for (the function
// alert naming the println culprit's frame the panel's diff shows first).
func expected(e Expectation) promkit.Alert {
	a := firing(e.Alert)
	maps.Copy(a.Labels, e.Labels)
	if e.isFunctionAlert() {
		a.Labels["function"] = "google.golang.org/protobuf/internal/encoding/text.appendString"
	}
	return a
}

// Each story runs on its own service, and its alert must carry that
// service's labels; the CFS story needs cgroups.
func TestExpectationsNameEachStorysService(t *testing.T) {
	w := testWorld()
	byStory := map[string]string{}
	for _, e := range Expectations(w, true) {
		byStory[e.Story+" "+e.Alert] = promkit.FormatLabels(e.Labels)
	}
	want := map[string]string{
		"println CPUPerRequestAboveUpstream":        `job="api",upstream="cache"`,
		"println FunctionCostPerRequestRegression":  `job="api",profile_type="cpu"`,
		"epoll CPUNotTrackingLoad":                  `job="poller"`,
		"cfs CPUThrottlingSustained":                `container="worker",namespace="hotpath-demo",pod="worker-0"`,
		"gzip AllocationsPerRequestRegression":      `job="gzipper"`,
		"outlier CPUPerRequestOutlier":              `instance="127.0.0.1:29108",job="catalog"`,
		"endpoint EndpointCostPerRequestRegression": `endpoint="/search",job="shop",profile_type="cpu"`,
	}
	if !maps.Equal(byStory, want) {
		t.Errorf("expectations %v, want %v", byStory, want)
	}
	var stories []string
	for _, e := range Expectations(w, false) {
		stories = append(stories, e.Story)
	}
	if slices.Contains(stories, "cfs") || len(stories) != 6 {
		t.Errorf("without cgroups: %v, want every story but cfs", stories)
	}
}

// The function alert matches only a function of the story's culprit, and
// has half as long again as the service alerts to fire.
func TestFunctionExpectationMatchesTheCulpritsFunctions(t *testing.T) {
	var fe Expectation
	for _, e := range Expectations(testWorld(), true) {
		if e.isFunctionAlert() {
			fe = e
		}
	}
	if fe.Story != "println" {
		t.Fatalf("function expectation %+v, want the println story's", fe)
	}
	for fn, want := range map[string]bool{
		"google.golang.org/protobuf/internal/encoding/text.appendString": true,
		"fmt.Fprintln":                         true,
		"runtime.memmove":                      false,
		"other":                                false,
		"":                                     false,
		"main.(*api).serveEmoji":               false,
		"encoding/json.(*encodeState).marshal": false,
	} {
		a := expected(fe)
		a.Labels["function"] = fn
		if got := fe.matches(a); got != want {
			t.Errorf("function %q: matches %v, want %v", fn, got, want)
		}
	}
	a := expected(fe)
	a.Labels["job"] = "catalog"
	if fe.matches(a) {
		t.Error("matches another service's function alert")
	}
	a = expected(fe)
	a.Labels["profile_type"] = "alloc_space"
	if fe.matches(a) {
		t.Error("matches the allocations' function alert")
	}
	if got := fe.Within(10 * time.Minute); got != 15*time.Minute {
		t.Errorf("function alert within %s, want 15m", got)
	}
	if e := Expectations(testWorld(), true)[0]; e.Within(10*time.Minute) != 10*time.Minute || e.matches(expected(fe)) {
		t.Errorf("the service alert %s: within %s, or matches the function alert", e.Alert, e.Within(10*time.Minute))
	}
}

// A service alert seen after its bound does not count; the function alert
// within its longer one does.
func TestJudgeHoldsEachExpectationToItsOwnBound(t *testing.T) {
	w := testWorld()
	on := time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC)
	exps := Expectations(w, true)
	j := NewJudge(w, on.Add(-5*time.Minute), exps)
	j.IncidentsOn, j.Within = on, 10*time.Minute
	var all []promkit.Alert
	for _, e := range exps {
		all = append(all, expected(e))
	}
	j.Observe(Observation{At: on.Add(12 * time.Minute), Phase: Incidents, Alerts: all})
	for _, r := range j.Results {
		if r.Fired != (r.isFunctionAlert() || r.isEndpointAlert()) {
			t.Errorf("%s after 12m: fired %v", r.Alert, r.Fired)
		}
	}
	if got := lastDeadline(exps, 10*time.Minute); got != 15*time.Minute {
		t.Errorf("last deadline %s, want 15m", got)
	}
}

// The normal phase: whatever fires is a violation, said once; pending
// alerts are not firing.
func TestJudgeNormalPhaseAllowsNothingToFire(t *testing.T) {
	w := testWorld()
	live := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	j := NewJudge(w, live, Expectations(w, true))
	pending := firing("CPUPerRequestRegression", "job", "api")
	pending.State = "pending"
	news := j.Observe(Observation{At: live.Add(time.Minute), Phase: Normal, Alerts: []promkit.Alert{pending, firing("CPUPerRequestRegression", "job", "gzipper")}})
	want := "VIOLATION: CPUPerRequestRegression{job=gzipper} fired during the normal phase, 1m0s after the rules went live (value 2)"
	if len(news) != 1 || news[0] != want {
		t.Errorf("lines %q, want [%q]", news, want)
	}
	if again := j.Observe(Observation{At: live.Add(2 * time.Minute), Phase: Normal, Alerts: []promkit.Alert{firing("CPUPerRequestRegression", "job", "gzipper")}}); len(again) != 0 {
		t.Errorf("the same alert again: %q", again)
	}
	if len(j.Violations) != 1 || j.AllFired() {
		t.Errorf("violations %q, all fired %v", j.Violations, j.AllFired())
	}
	for _, r := range j.Results {
		if r.Fired {
			t.Errorf("%s counted as fired in the normal phase", r.Story)
		}
	}
}

// With the incidents on: an expectation fires once its alert fires with
// its labels, timed from the incidents' start and kept from the first
// look; the same alert for another service is not it; any alert for a
// healthy service, instance or container is a violation.
func TestJudgeIncidentsFireForTheRightServiceOnly(t *testing.T) {
	w := testWorld()
	on := time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC)
	exps := Expectations(w, true)
	j := NewJudge(w, on.Add(-5*time.Minute), exps)
	j.IncidentsOn = on
	println := expected(exps[0])
	if exps[0].Story != "println" {
		t.Fatalf("first expectation %s", exps[0].Story)
	}
	news := j.Observe(Observation{At: on.Add(30 * time.Second), Phase: Incidents, Alerts: []promkit.Alert{
		println,
		firing(exps[0].Alert, "job", "api"), // no upstream label: another alert
		firing("CPUPerRequestRegression", "job", "cache"),                                                       // healthy service
		firing("CPUPerRequestOutlier", "job", "catalog", "instance", "127.0.0.1:29106"),                         // a healthy sibling
		firing("CPUThrottlingSustained", "namespace", "hotpath-demo", "pod", "poller-0", "container", "poller"), // an incident's pod
		firing("CPUThrottlingSustained", "namespace", "hotpath-demo", "pod", "cache-0", "container", "cache"),   // no incident's pod
	}})
	want := []string{
		exps[0].Alert + " fired 30s after its incident (println) started: " + exps[0].Alert + "{job=api,upstream=cache} (value 2)",
		"also fired (not asserted): " + exps[0].Alert + "{job=api}",
		"VIOLATION: CPUPerRequestRegression{job=cache} fired for a healthy service cache, 30s after the incidents started (value 2)",
		"VIOLATION: CPUPerRequestOutlier{instance=127.0.0.1:29106,job=catalog} fired for a healthy instance 127.0.0.1:29106 of catalog, 30s after the incidents started (value 2)",
		"also fired (not asserted): CPUThrottlingSustained{container=poller,namespace=hotpath-demo,pod=poller-0}",
		"VIOLATION: CPUThrottlingSustained{container=cache,namespace=hotpath-demo,pod=cache-0} fired for a healthy container cache-0/cache, 30s after the incidents started (value 2)",
	}
	if !slices.Equal(news, want) {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(news, "\n"), strings.Join(want, "\n"))
	}
	if r := j.Results[0]; !r.Fired || r.After != 30*time.Second || r.Value != "2" {
		t.Errorf("println: %+v", r)
	}
	if j.AllFired() {
		t.Error("all fired with one of five")
	}
	var rest []promkit.Alert
	for _, e := range exps {
		rest = append(rest, expected(e))
	}
	j.Observe(Observation{At: on.Add(2 * time.Minute), Phase: Incidents, Alerts: rest})
	if !j.AllFired() || j.Results[0].After != 30*time.Second || j.Results[1].After != 2*time.Minute {
		t.Errorf("after every alert fired: %+v", j.Results)
	}
	if len(j.Violations) != 3 || len(j.AlsoFired) != 2 || j.AlsoFired[0] != exps[0].Alert+"{job=api} after 30s" {
		t.Errorf("violations %q, also fired %q", j.Violations, j.AlsoFired)
	}
}

// While only the traffic mix moved (the normal phase), an endpoint alert may
// not even be pending; with the incidents on, one that names the shop's
// other route is a violation, its regressed route's is the expectation, as
// late as its longer bound allows.
func TestJudgeHoldsTheEndpointAlertToItsRoute(t *testing.T) {
	w := testWorld()
	on := time.Date(2026, 11, 27, 10, 5, 0, 0, time.UTC)
	j := NewJudge(w, on.Add(-5*time.Minute), Expectations(w, true))
	pending := firing("EndpointCostPerRequestRegression", "job", "shop", "endpoint", "/healthz", "profile_type", "cpu")
	pending.State = "pending"
	other := firing("CPUPerRequestRegression", "job", "shop")
	other.State = "pending"
	j.Observe(Observation{At: on.Add(-time.Minute), Phase: Normal, Alerts: []promkit.Alert{pending, other}})
	if len(j.Violations) != 1 || !strings.Contains(j.Violations[0], "pending during the normal phase (only the traffic mix moved)") {
		t.Fatalf("violations %q, want the pending endpoint alert's only", j.Violations)
	}
	j.IncidentsOn, j.Within = on, 10*time.Minute
	search := firing("EndpointCostPerRequestRegression", "job", "shop", "endpoint", "/search", "profile_type", "cpu")
	healthz := firing("EndpointCostPerRequestRegression", "job", "shop", "endpoint", "/healthz", "profile_type", "alloc_space")
	j.Observe(Observation{At: on.Add(13 * time.Minute), Phase: Incidents, Alerts: []promkit.Alert{search, healthz}})
	if len(j.Violations) != 2 || !strings.Contains(j.Violations[1], "fired for a healthy route /healthz of shop") {
		t.Errorf("violations %q, want /healthz's", j.Violations)
	}
	for _, r := range j.Results {
		if r.Fired != (r.Story == "endpoint") {
			t.Errorf("%s %s: fired %v", r.Story, r.Alert, r.Fired)
		}
	}
}
