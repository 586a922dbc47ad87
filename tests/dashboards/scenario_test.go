package dashboards

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/hotpath/hotpath/promkit/synth"
)

// scenario is a small scripted Kubernetes cluster holding every input series the
// dashboards and rules read, as a function of time, so one model serves both
// the backfilled history and the live /metrics page without a counter reset:
//   - api (4 pods) calls cache (2 pods), seen by the service graph;
//   - traffic swings over the day and every 20 minutes (so the cost model and
//     the recent fit can fit fixed + marginal);
//   - api's 4th pod costs 3x per request (CPUPerRequestOutlier);
//   - from regressAt on, every api request costs 2.5x (CPUPerRequestRegression);
//   - api's first pod is CFS-throttled (CPUThrottlingSustained);
//   - kube-state-metrics reports each pod's image (api's with a mesh sidecar),
//     api's tag 1.41 until rolledOut is set, 1.42 from then on (a deploy).
type scenario struct {
	start     time.Time // counters are 0 here
	regressAt time.Time
	rolledOut *atomic.Bool // nil: never
}

type pod struct {
	job, name         string
	reqPerSec         float64 // mean; swings ±50% over the day
	fixed, perRequest float64 // CPU cores, CPU seconds per request
	throttled         bool
}

var pods = []pod{
	{"api", "api-7d9f8b6c5-aaaaa", 20, 0.05, 0.002, true},
	{"api", "api-7d9f8b6c5-bbbbb", 20, 0.05, 0.002, false},
	{"api", "api-7d9f8b6c5-ccccc", 20, 0.05, 0.002, false},
	{"api", "api-7d9f8b6c5-ddddd", 20, 0.05, 0.006, false},
	{"cache", "cache-0", 40, 0.01, 0.0002, false},
	{"cache", "cache-1", 40, 0.01, 0.0002, false},
}

const day = 24 * time.Hour

// requests is a pod's request counter at t: the integral of
// rate * (1 + 0.3 sin(2πt/day) + 0.5 sin(2πt/20m)), never below 0.2x. The
// 20-minute swing gives the recent fit (last 30 minutes) the variation it
// needs (loadFitMinVariation: a coefficient of variation of 0.25).
func (sc scenario) requests(p pod, t time.Time) float64 {
	s := t.Sub(sc.start).Seconds()
	swing := func(share float64, period time.Duration) float64 {
		w := 2 * math.Pi / period.Seconds()
		return share * (1 - math.Cos(w*s)) / w
	}
	return p.reqPerSec * (s + swing(0.3, day) + swing(0.5, 20*time.Minute))
}

// cpu is a pod's CPU seconds counter at t.
func (sc scenario) cpu(p pod, t time.Time) float64 {
	c := p.fixed*t.Sub(sc.start).Seconds() + p.perRequest*sc.requests(p, t)
	if p.job == "api" && t.After(sc.regressAt) {
		c += 1.5 * p.perRequest * (sc.requests(p, t) - sc.requests(p, sc.regressAt))
	}
	return c
}

// series is every series of the scenario at t (a synth.Model).
func (sc scenario) series(t time.Time) map[string]float64 {
	out := map[string]float64{}
	add := func(name, labels string, v float64) { out[name+"{"+labels+"}"] = v }
	secs := t.Sub(sc.start).Seconds()
	for i, p := range pods {
		target := fmt.Sprintf(`cluster="c1",namespace="shop",pod=%q,instance="10.0.0.%d:8080"`, p.name, i+1)
		svc := fmt.Sprintf(`job=%q,%s`, p.job, target)
		req, cpu := sc.requests(p, t), sc.cpu(p, t)
		add("http_requests_total", svc+`,code="200"`, req)
		// the same requests by route (OpenTelemetry's counter): a quarter of them /healthz
		add("http_server_request_duration_seconds_count", svc+`,http_route="/search"`, 0.75*req)
		add("http_server_request_duration_seconds_count", svc+`,http_route="/healthz"`, 0.25*req)
		add("process_cpu_seconds_total", svc, cpu)
		add("go_memstats_alloc_bytes_total", svc, 20000*req)
		add("go_memstats_heap_inuse_bytes", svc, 4e7+1e7*math.Mod(secs, 30)/30)
		add("go_gc_duration_seconds_count", svc, 0.5*secs)
		add("go_gc_duration_seconds_sum", svc, 0.001*secs)
		add("go_sched_gomaxprocs_threads", svc, 8)
		add("process_resident_memory_bytes", svc, 6e7)

		// cAdvisor's view of the pod's container: a 1-core limit.
		cad := fmt.Sprintf(`job="kubelet",instance="node-1",cluster="c1",namespace="shop",pod=%q,container="app"`, p.name)
		throttledShare, throttledSecs := 0.02, 0.005
		if p.throttled {
			throttledShare, throttledSecs = 0.5, 0.4
		}
		add("container_cpu_usage_seconds_total", cad, cpu)
		add("container_cpu_cfs_periods_total", cad, 10*secs)
		add("container_cpu_cfs_throttled_periods_total", cad, 10*throttledShare*secs)
		add("container_cpu_cfs_throttled_seconds_total", cad, throttledSecs*secs)
		add("container_spec_cpu_quota", cad, 100000)
		add("container_spec_cpu_period", cad, 100000)

		// kube-state-metrics' view of the pod's containers
		ksm := fmt.Sprintf(`job="kube-state-metrics",instance="10.0.9.1:8080",cluster="c1",namespace="shop",pod=%q`, p.name)
		image := "registry.example.com/shop/cache:2.0"
		if p.job == "api" {
			image = "registry.example.com/shop/api:1.41"
			if sc.rolledOut != nil && sc.rolledOut.Load() {
				image = "registry.example.com/shop/api:1.42"
			}
			add("kube_pod_container_info", ksm+`,container="istio-proxy",image="docker.io/istio/proxyv2:1.21.0"`, 1)
		}
		add("kube_pod_container_info", ksm+fmt.Sprintf(`,container="app",image=%q`, image), 1)
	}
	var apiReq float64
	for _, p := range pods {
		if p.job == "api" {
			apiReq += sc.requests(p, t)
		}
	}
	add("traces_service_graph_request_total", `client="api",server="cache"`, apiReq)

	// hotpath-profile-metrics' rows of api (labels job and function only):
	// sampleFunction costs 60% of its CPU and allocations, the rest is "other".
	var apiCPU float64
	for _, p := range pods {
		if p.job == "api" {
			apiCPU += sc.cpu(p, t)
		}
	}
	for fn, share := range map[string]float64{sampleFunction: 0.6, "other": 0.4} {
		bridge := fmt.Sprintf(`job="api",function=%q`, fn)
		add("hotpath_profile_cpu_seconds_total", bridge, share*apiCPU)
		add("hotpath_profile_alloc_bytes_total", bridge, share*20000*apiReq)
	}
	// and its endpoint rows: sampleEndpoint 70% of its profile, /healthz 10%,
	// the samples without an endpoint label 20%
	for endpoint, share := range map[string]float64{sampleEndpoint: 0.7, "/healthz": 0.1, "unlabelled": 0.2} {
		bridge := fmt.Sprintf(`job="api",endpoint=%q`, endpoint)
		add("hotpath_profile_endpoint_cpu_seconds_total", bridge, share*apiCPU)
		add("hotpath_profile_endpoint_alloc_bytes_total", bridge, share*20000*apiReq)
	}
	return out
}

// model is the scenario for the live page and the backfilled history.
func (sc scenario) model() synth.Model { return sc.series }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
