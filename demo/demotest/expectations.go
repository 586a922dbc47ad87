package demotest

import (
	"maps"
	"slices"
	"strings"

	"github.com/hotpath/hotpath/demo/catalogue"
	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// Expectation is the alert an incident must fire, with the labels that say
// it fired for the right service.
type Expectation struct {
	Story  string
	Alert  string
	Labels map[string]string
}

// Expectations are demo-test's assertions, one per story that runs in w
// (the CFS story only with cgroups).
func Expectations(w *playground.World, cgroups bool) []Expectation {
	var out []Expectation
	for _, story := range playground.Stories {
		s := w.StoryService(story)
		if s == nil {
			continue
		}
		alert := playground.Incident(story).Alert
		switch story {
		case "println":
			out = append(out, Expectation{story, alert, map[string]string{"job": s.Job, "upstream": "cache"}})
			if fe, ok := functionExpectation(story, s); ok {
				out = append(out, fe)
			}
		case "epoll":
			out = append(out, Expectation{story, alert, map[string]string{"job": s.Job}})
		case "cfs":
			if !cgroups || s.Cgroup == nil {
				continue
			}
			out = append(out, Expectation{story, alert, map[string]string{
				"namespace": w.Namespace, "pod": s.Cgroup.Pod, "container": s.Cgroup.Container}})
		case "gzip":
			out = append(out, Expectation{story, alert, map[string]string{"job": s.Job}})
		case "outlier":
			out = append(out, Expectation{story, alert, map[string]string{"job": s.Job, "instance": s.Instances[w.OutlierInstance].Addr()}})
		case playground.EndpointStory:
			// its regressed route, by the route label the rules give it
			out = append(out, Expectation{story, alert, map[string]string{"job": s.Job, "endpoint": endpointOf(s.Route), "profile_type": playground.Incident(story).Profile}})
		}
	}
	return out
}

func (e Expectation) matches(a promkit.Alert) bool {
	if a.Labels["alertname"] != e.Alert || !e.functionMatches(a) {
		return false
	}
	for k, v := range e.Labels {
		if a.Labels[k] != v {
			return false
		}
	}
	return true
}

// healthyReason says why an alert concerns a healthy service or instance
// ("" when it does not): the control and the cache, the outlier service's
// other instances, and any container but the throttled one.
func healthyReason(w *playground.World, a promkit.Alert) string {
	for _, s := range w.Services {
		if s.Healthy && a.Labels["job"] == s.Job {
			return "healthy service " + s.Job
		}
	}
	if out := w.StoryService("outlier"); out != nil && a.Labels["job"] == out.Job && a.Labels["instance"] != "" {
		if a.Labels["instance"] != out.Instances[w.OutlierInstance].Addr() {
			return "healthy instance " + a.Labels["instance"] + " of " + out.Job
		}
	}
	if ep := w.StoryService(playground.EndpointStory); ep != nil && a.Labels["job"] == ep.Job && a.Labels["endpoint"] != "" && a.Labels["endpoint"] != endpointOf(ep.Route) {
		return "healthy route " + a.Labels["endpoint"] + " of " + ep.Job
	}
	if pod := a.Labels["pod"]; pod != "" && a.Labels["job"] == "" {
		if s := podService(w, pod); s == nil || s.Story == "" {
			return "healthy container " + pod + "/" + a.Labels["container"]
		}
	}
	return ""
}

// podService is the service whose pod is named pod, nil for none. A
// container alert for an incident's pod is that incident's: the poller's
// busy loop, under its pod's limit, is throttled as truly as the worker.
func podService(w *playground.World, pod string) *playground.Service {
	for _, s := range w.Services {
		if (s.Cgroup != nil && s.Cgroup.Pod == pod) || s.Labels["pod"] == pod {
			return s
		}
	}
	return nil
}

// endpointOf is a route as the rules name its endpoint (endpointRoutePattern:
// slashes at either end dropped, one put back).
func endpointOf(route string) string { return "/" + strings.Trim(strings.TrimSpace(route), "/") }

// isEndpointAlert reports whether the expectation is of the endpoint alert.
func (e Expectation) isEndpointAlert() bool {
	return e.Alert != "" && e.Alert == catalogue.EndpointAlert().Name
}

func alertID(a promkit.Alert) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(a.Labels)) {
		switch k {
		case "alertname", "severity":
			continue
		}
		parts = append(parts, k+"="+a.Labels[k])
	}
	return a.Labels["alertname"] + "{" + strings.Join(parts, ",") + "}"
}
