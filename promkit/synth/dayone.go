package synth

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// DayOne is a fleet as hotpath finds it on its first day on a cluster:
// Java, Python, Node.js, Ruby and .NET services that export no process
// metrics and no request counter of their own. Their requests are counted by
// Istio's sidecars (and one service's by OpenTelemetry, through a
// Collector), their CPU is cAdvisor's, per container of their pods, and
// their profiles come from an eBPF profiler, which
// hotpath-profile-metrics turns into rows per function. Each service runs on
// the typical cost line (Typical) over the diurnal day (Diurnal), its pods'
// CPU split between the app and the mesh's sidecar. What happens live:
// recommend rolls out 1.4.3 (when the test says so), whose CPU per request
// is half as much again (its culprit function does the extra work), on a pod
// whose CPU limit throttles it; catalog's traffic doubles (its CPU follows
// its cost line).
type DayOneService struct {
	Job, Runtime string
	// Source counts its requests: "istio" (the sidecars, reporter
	// destination) or "opentelemetry" (through a Collector with resource
	// attributes as labels; its sidecar counts them too).
	Source string
	Pods   []Pod
	// Change is what happens live: "" (nothing), "regression" (+50% CPU
	// at the same traffic) or "doubling" (traffic x2).
	Change string
	// Functions are its profile's top functions (as an eBPF profiler of its
	// runtime names them) and their share of its CPU; the rest is "other".
	Functions map[string]float64
}

// DayOneNamespace is where the fleet runs (cluster eu1).
const DayOneNamespace = "store"

// DayOneCulprit is the function of recommend's regression: it does the
// extra half of CPU per request live.
const DayOneCulprit = "score_candidates (recommend/ranking.py)"

// DayOneCollector is the OpenTelemetry Collector's pod: its CPU is no
// service's.
var DayOneCollector = Pod{"observability", "otel-collector-7f9d8c6b5-k2j4h", "10.2.9.5"}

func dayOnePods(job string, ips ...string) []Pod {
	pods := make([]Pod, len(ips))
	for i, ip := range ips {
		pods[i] = Pod{DayOneNamespace, fmt.Sprintf("%s-6d8f7c9b5-%c%c%c%c%c", job, 'a'+i, 'k', 'x', '2', 'p'), ip}
	}
	return pods
}

// DayOneFleet is the fleet's services.
var DayOneFleet = []DayOneService{
	{Job: "frontend", Runtime: "node", Source: "istio", Pods: dayOnePods("frontend", "10.2.0.1", "10.2.0.2"),
		Functions: map[string]float64{"renderPage (/app/server/render.js)": 0.4, "JSON.stringify": 0.2}},
	{Job: "cart", Runtime: "java", Source: "istio", Pods: dayOnePods("cart", "10.2.1.1", "10.2.1.2"),
		Functions: map[string]float64{"com/shop/cart/CartService.priceItems": 0.35, "com/fasterxml/jackson/databind/ObjectMapper.writeValueAsString": 0.25}},
	{Job: "recommend", Runtime: "python", Source: "istio", Pods: dayOnePods("recommend", "10.2.2.1", "10.2.2.2"), Change: "regression",
		Functions: map[string]float64{DayOneCulprit: 0.2, "load_model (recommend/model.py)": 0.3}},
	{Job: "catalog", Runtime: "ruby", Source: "istio", Pods: dayOnePods("catalog", "10.2.3.1", "10.2.3.2"), Change: "doubling",
		Functions: map[string]float64{"Catalog::Search#query (app/catalog/search.rb)": 0.45, "ActiveSupport::JSON.encode": 0.15}},
	{Job: "checkout", Runtime: "dotnet", Source: "opentelemetry", Pods: dayOnePods("checkout", "10.2.4.1"),
		Functions: map[string]float64{"Shop.Checkout.OrderService.PlaceOrder": 0.5, "System.Text.Json.JsonSerializer.Serialize": 0.1}},
}

// sidecarShare is the part of a pod's CPU its istio-proxy takes.
const sidecarShare = 0.25

// Rates are a service's req/s and CPU cores at t (live: with its Change): 4x
// the diurnal day, swinging ±50% over 20 minutes (so the load fit behind
// CPUNotTrackingLoad sees traffic move), on the typical cost line.
func (s DayOneService) Rates(t time.Time, live bool) (req, cpu float64) {
	req = 4 * DiurnalAt(t) * (1 + 0.5*math.Sin(2*math.Pi*float64(t.Unix()%1200)/1200))
	if live && s.Change == "doubling" {
		req *= 2
	}
	cpu, _ = Typical.At(req)
	if live && s.Change == "regression" {
		cpu *= 1.5
	}
	return req, cpu
}

// Rows are hotpath-profile-metrics' CPU rows of the service at t (cores per
// function, "other" the rest, summing to its CPU): its functions' shares of
// the work its requests cost (the marginal part: a function's cost per
// request is its own, whatever the traffic), "other" the rest (the fixed
// part is the runtime's), and, live, the regression's extra work in the
// culprit.
func (s DayOneService) Rows(t time.Time, live bool) map[string]float64 {
	req, cpu := s.Rates(t, live)
	usual, _ := Typical.At(req)
	rows := map[string]float64{}
	rest := usual
	for f, share := range s.Functions {
		rows[f] = share * Typical.CPUPerRequest * req
		rest -= rows[f]
	}
	rows["other"] = rest
	if extra := cpu - usual; extra > 0 {
		rows[DayOneCulprit] += extra
	}
	return rows
}

// Counters are every counter of the fleet and its rate per second at t
// (live: with the services' changes), keyed by name{labels}: the
// sidecars' request counters (and the Collector's for checkout), cAdvisor's
// CPU per container, the throttling of cart's limited app container, and
// the bridge's rows.
func DayOneCounters(t time.Time, live bool) map[string]float64 {
	out := map[string]float64{}
	for _, s := range DayOneFleet {
		req, cpu := s.Rates(t, live)
		n := float64(len(s.Pods))
		for _, p := range s.Pods {
			out[IstioRequests(p, "destination", s.Job, s.Job+"-v1", "v1", "frontend", DayOneNamespace, 200)] = req / n
			if s.Source == "opentelemetry" {
				out[OtelViaCollectorResource(DayOneCollector, OtelHTTP, s.Job, p, "uid-"+p.Name)] = req / n
			}
			out["container_cpu_usage_seconds_total{"+cadvisor(p.Namespace, p.Name, "app")+"}"] = (1 - sidecarShare) * cpu / n
			out["container_cpu_usage_seconds_total{"+cadvisor(p.Namespace, p.Name, "istio-proxy")+"}"] = sidecarShare * cpu / n
		}
		for f, cores := range s.Rows(t, live) {
			out[fmt.Sprintf(`hotpath_profile_cpu_seconds_total{job=%q,function=%q,instance="profile-metrics"}`, s.Job, f)] = cores
		}
	}
	// frontend calls catalog: what its own sidecar reports (reporter
	// source) counts for no one
	fe := DayOneFleet[0].Pods[0]
	req, _ := DayOneFleet[3].Rates(t, live)
	out[IstioRequests(fe, "source", "frontend", "frontend-v1", "v1", "catalog", DayOneNamespace, 200)] = req
	// recommend's first app container has a CPU limit of 2 cores and is
	// throttled in 4 of its 10 periods a second, 0.2 s/s
	// (CPUThrottlingSustained)
	limited := dayOneLimited()
	out["container_cpu_cfs_periods_total{"+cadvisor(limited.Namespace, limited.Name, "app")+"}"] = 10
	out["container_cpu_cfs_throttled_periods_total{"+cadvisor(limited.Namespace, limited.Name, "app")+"}"] = 4
	out["container_cpu_cfs_throttled_seconds_total{"+cadvisor(limited.Namespace, limited.Name, "app")+"}"] = 0.2
	out["container_cpu_usage_seconds_total{"+cadvisor(DayOneCollector.Namespace, DayOneCollector.Name, "otel-collector")+"}"] = 0.875
	return out
}

// dayOneLimited is the pod whose app container has a CPU limit.
func dayOneLimited() Pod { return DayOneFleet[2].Pods[0] }

// DayOneGauges are the fleet's gauges: kube-state-metrics' image of each
// app container (its tag the version: 1.4.2, recommend's 1.4.3 once
// rolledOut), CPU requests and one limit, and cAdvisor's quota of it.
func DayOneGauges(rolledOut bool) map[string]float64 {
	out := map[string]float64{}
	for _, s := range DayOneFleet {
		tag := "1.4.2"
		if rolledOut && s.Job == "recommend" {
			tag = "1.4.3"
		}
		for _, p := range s.Pods {
			c := fmt.Sprintf(`%s, namespace=%q, pod=%q, container="app", uid="u-%s"`, ksm, p.Namespace, p.Name, p.Name)
			out[fmt.Sprintf(`kube_pod_container_info{%s, image="registry.example.com/store/%s:%s", image_id="", container_id="containerd://%s"}`, c, s.Job, tag, p.Name)] = 1
			out[fmt.Sprintf(`kube_pod_container_info{%s, namespace=%q, pod=%q, container="istio-proxy", uid="u-%s", image="docker.io/istio/proxyv2:1.24.0", image_id="", container_id="containerd://%s-proxy"}`, ksm, p.Namespace, p.Name, p.Name, p.Name)] = 1
			out[fmt.Sprintf(`kube_pod_container_resource_requests{%s, resource="cpu", unit="core"}`, c)] = 0.5
		}
	}
	limited := dayOneLimited()
	c := fmt.Sprintf(`%s, namespace=%q, pod=%q, container="app", uid="u-%s"`, ksm, limited.Namespace, limited.Name, limited.Name)
	out[fmt.Sprintf(`kube_pod_container_resource_limits{%s, resource="cpu", unit="core"}`, c)] = 2
	out["container_spec_cpu_quota{"+cadvisor(limited.Namespace, limited.Name, "app")+"}"] = 200000
	out["container_spec_cpu_period{"+cadvisor(limited.Namespace, limited.Name, "app")+"}"] = 100000
	return out
}

// DayOneJobs are the fleet's services, sorted.
func DayOneJobs() []string {
	var jobs []string
	for _, s := range DayOneFleet {
		jobs = append(jobs, s.Job)
	}
	sort.Strings(jobs)
	return jobs
}
