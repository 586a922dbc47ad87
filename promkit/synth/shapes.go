package synth

import (
	"fmt"
	"strings"
	"time"
)

// The label shapes of real fleets that the scripted test services lacked, for
// every real-Prometheus test (tests/dashboards, tests/realrules): pods serving
// two jobs, jobs scraped outside Kubernetes (no pod or namespace label), the
// pause container (container="POD") and the pod-level cgroup
// (container=""), a cluster label on some series only, request counters with
// extra labels, a job with no traffic, kube-prometheus-stack's dropped
// cAdvisor series, and services counting their work in other counters than
// http_requests_total. Every series grows at a constant rate from a start
// time, so a scraped page at any moment reads back exact rates, and the
// expected recorded values are plain numbers (Expected*).

// Series is one input series: a counter growing Rate per second, or a gauge
// at Value when Rate is 0 and Gauge is set.
type Series struct {
	Name, Labels string
	Rate         float64
	Gauge        bool
	Value        float64
}

// SeriesSet is a set of series and the moment their counters started.
type SeriesSet struct {
	Start  time.Time
	Series []Series
}

// At is every series' value at t (see Model): counters on their line from
// CounterBase at Start.
func (f *SeriesSet) At(t time.Time) map[string]float64 {
	out := make(map[string]float64, len(f.Series))
	for _, s := range f.Series {
		v := s.Value
		if !s.Gauge {
			v = CounterAt(f.Start, t, s.Rate)
		}
		out[s.Name+"{"+strings.ReplaceAll(s.Labels, ", ", ",")+"}"] = v
	}
	return out
}

const (
	cluster = `cluster="eu1"`
	kubelet = `job="kubelet", instance="node-1", ` + cluster
	ksm     = `job="kube-state-metrics", instance="10.0.9.1:8080", node="node-1", ` + cluster
)

// A Kubernetes pod's labels on a series its own job scrapes.
func podTarget(ns, pod, job, instance string) string {
	return fmt.Sprintf(`%s, namespace=%q, pod=%q, job=%q, instance=%q`, cluster, ns, pod, job, instance)
}

func cadvisor(ns, pod, container string) string {
	return fmt.Sprintf(`%s, namespace=%q, pod=%q, container=%q, id="/kubepods/%s/%s"`, kubelet, ns, pod, container, pod, container)
}

// RealShapes is those series. What each service should show:
//   - shop/api: two pods; requests split by code, method and route; api-1's
//     app container throttled 0.5 s/s on a full cAdvisor install; an
//     istio-proxy sidecar, the pause container and the pod-level cgroup too.
//   - shop/web and shop/web-exporter: one pod (multi-1) serving both jobs,
//     throttled in 4 of its 10 periods a second on kube-prometheus-stack's
//     default drops (no throttled seconds, no container_spec_*; the limit from
//     kube-state-metrics): 0.4 s/s as throttled periods x 100ms.
//   - shop/cart and shop/cart-exporter: the same on a full install, 0.25 s/s.
//   - blackbox, pushgateway, billing-vm: scraped outside Kubernetes, with no
//     cluster, namespace or pod label.
//   - shop/idle-worker: a request counter that does not move.
func RealShapes(start time.Time) *SeriesSet {
	f := &SeriesSet{Start: start}
	add := func(name, labels string, rate float64) {
		f.Series = append(f.Series, Series{Name: name, Labels: labels, Rate: rate})
	}
	gauge := func(name, labels string, v float64) {
		f.Series = append(f.Series, Series{Name: name, Labels: labels, Gauge: true, Value: v})
	}
	service := func(target string, req, cpu float64) {
		add("http_requests_total", target+`, code="200", method="GET", route="/items"`, req*0.75)
		add("http_requests_total", target+`, code="200", method="POST", route="/cart"`, req*0.125)
		add("http_requests_total", target+`, code="500", method="GET", route="/items"`, req*0.125)
		add("process_cpu_seconds_total", target, cpu)
		add("go_memstats_alloc_bytes_total", target, 65536*req)
		gauge("go_sched_gomaxprocs_threads", target, 4) // a Go service, in a pod or not
	}

	// shop/api, two pods.
	for i, pod := range []string{"api-7d9f8b6c5-aaaaa", "api-7d9f8b6c5-bbbbb"} {
		service(podTarget("shop", pod, "api", fmt.Sprintf("10.0.0.%d:8080", i+1)), 8, 0.25)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "app"), 0.25)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "istio-proxy"), 0.0625)
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, "POD"), 0.0625) // far above a real pause container, so counting it shows
		add("container_cpu_usage_seconds_total", cadvisor("shop", pod, ""), 0.3135)
		throttled, seconds := 0.0, 0.0
		if i == 0 {
			throttled, seconds = 5, ExpectedThrottled["api"]
		}
		for _, c := range []string{"app", ""} { // the pod-level cgroup has a quota too
			add("container_cpu_cfs_periods_total", cadvisor("shop", pod, c), 10)
			add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", pod, c), throttled)
			add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", pod, c), seconds)
		}
		gauge("container_spec_cpu_quota", cadvisor("shop", pod, "app"), 50000)
		gauge("container_spec_cpu_period", cadvisor("shop", pod, "app"), 100000)
		// The pause container under dockershim/cri-dockerd: CFS series of its own.
		add("container_cpu_cfs_periods_total", cadvisor("shop", pod, "POD"), 10)
		add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", pod, "POD"), 10)
		add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", pod, "POD"), 1)
	}

	// One pod, two jobs: the app and a sidecar exporter with its own job.
	service(podTarget("shop", "multi-1", "web", "10.0.0.9:8080"), 4, 0.375)
	service(podTarget("shop", "multi-1", "web-exporter", "10.0.0.9:9113"), 1, 0.0625)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-1", "app"), 0.375)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-1", "exporter"), 0.0625)
	// kube-prometheus-stack's defaults: periods only, the limit from kube-state-metrics.
	add("container_cpu_cfs_periods_total", cadvisor("shop", "multi-1", "app"), 10)
	add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", "multi-1", "app"), 4)
	gauge("kube_pod_container_resource_limits", fmt.Sprintf(`%s, namespace="shop", pod="multi-1", container="app", uid="u1", resource="cpu", unit="core"`, ksm), 0.5)
	gauge("kube_pod_container_resource_limits", fmt.Sprintf(`%s, namespace="shop", pod="multi-1", container="app", uid="u1", resource="memory", unit="byte"`, ksm), 268435456)

	// The same on a full cAdvisor install: throttled 0.25 s/s.
	service(podTarget("shop", "multi-2", "cart", "10.0.0.10:8080"), 4, 0.375)
	service(podTarget("shop", "multi-2", "cart-exporter", "10.0.0.10:9113"), 1, 0.0625)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "multi-2", "app"), 0.375)
	add("container_cpu_cfs_periods_total", cadvisor("shop", "multi-2", "app"), 10)
	add("container_cpu_cfs_throttled_periods_total", cadvisor("shop", "multi-2", "app"), 5)
	add("container_cpu_cfs_throttled_seconds_total", cadvisor("shop", "multi-2", "app"), ExpectedThrottled["cart"])

	// Outside Kubernetes: no cluster, namespace or pod.
	service(`job="blackbox", instance="probe-1:9115"`, 2, 0.03125)
	service(`job="pushgateway", instance="pgw:9091"`, 1, 0.015625)
	service(`job="billing-vm", instance="vm-7:8080"`, 6, 0.5)

	// A job with no traffic.
	add("http_requests_total", podTarget("shop", "idle-0", "idle-worker", "10.0.0.20:8080")+`, code="200", method="GET", route="/"`, 0)
	add("process_cpu_seconds_total", podTarget("shop", "idle-0", "idle-worker", "10.0.0.20:8080"), 0.125)
	add("container_cpu_usage_seconds_total", cadvisor("shop", "idle-0", "app"), 0.125)
	return f
}

// ExpectedThrottled is the throttled seconds per second each service's row
// shows in the joined panels ("Throttled seconds by service", the throttling
// column of "Services by CPU"): its pods' containers, the pause container and
// the pod-level cgroup left out; no row for a service without throttling.
var ExpectedThrottled = map[string]float64{
	"api":           0.5,
	"web":           0.4,
	"web-exporter":  0.4,
	"cart":          0.25,
	"cart-exporter": 0.25,
}

// Jobs are the services of RealShapes, with the identity labels their
// recorded series carry.
var Jobs = map[string]map[string]string{
	"api":           {"cluster": "eu1", "namespace": "shop", "job": "api"},
	"web":           {"cluster": "eu1", "namespace": "shop", "job": "web"},
	"web-exporter":  {"cluster": "eu1", "namespace": "shop", "job": "web-exporter"},
	"cart":          {"cluster": "eu1", "namespace": "shop", "job": "cart"},
	"cart-exporter": {"cluster": "eu1", "namespace": "shop", "job": "cart-exporter"},
	"blackbox":      {"job": "blackbox"},
	"pushgateway":   {"job": "pushgateway"},
	"billing-vm":    {"job": "billing-vm"},
	"idle-worker":   {"cluster": "eu1", "namespace": "shop", "job": "idle-worker"},
}

// ExpectedRequests is each service's job:requests:rate5m (req/s).
var ExpectedRequests = map[string]float64{
	"api": 16, "web": 4, "web-exporter": 1, "cart": 4, "cart-exporter": 1, "blackbox": 2, "pushgateway": 1, "billing-vm": 6, "idle-worker": 0,
}

// ExpectedCadvisorCPU is each service's job:cpu_seconds:rate5m with
// cpuSource: cadvisor: its pods' containers (the pause container and the
// pod-level cgroup left out), a two-job pod's CPU for each of its jobs; none
// for the jobs outside Kubernetes.
var ExpectedCadvisorCPU = map[string]float64{
	"api": 0.625, "web": 0.4375, "web-exporter": 0.4375, "cart": 0.375, "cart-exporter": 0.375, "idle-worker": 0.125,
}
