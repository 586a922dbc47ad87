package main

// Kubernetes mode (cpuSource: cadvisor): container CPU summed per pod and
// given the service and instance of the requests scraped from that pod.
func cadvisorSuite() *suite {
	shopAPI, blogAPI := service{"eu1", "shop", "api"}, service{"eu1", "blog", "api"}
	web, admin := service{"eu1", "shop", "web"}, service{"eu1", "shop", "admin"}
	const total = 30
	g := &group{
		name:    "container CPU joined to services through (namespace, pod)",
		comment: "The requests series carry the pod; cAdvisor's series are scraped from the kubelet (job, instance of the node).",
	}
	req := func(s service, pod, instance, comment string, perSecond float64) {
		g.add(comment, s.sel("http_requests_total", `pod="`+pod+`"`, `instance="`+instance+`"`), (&seq{}).rate(total, perSecond).String())
	}
	cpu := func(ns, pod, container, comment string, cores float64) {
		g.add(comment, `container_cpu_usage_seconds_total{cluster="eu1", job="kubelet", instance="node-1", cpu="total", namespace="`+ns+`", pod="`+pod+`", container="`+container+`"}`,
			(&seq{}).rate(total, cores).String())
	}
	req(shopAPI, "api-1", "10.0.0.1:8080", "shop/api: two pods", 8)
	req(shopAPI, "api-2", "10.0.0.2:8080", "", 8)
	cpu("shop", "api-1", "app", "api-1: the app and its sidecar count (0.5 + 0.125); the pod cgroup (container=\"\") does not", 0.5)
	cpu("shop", "api-1", "istio-proxy", "", 0.125)
	cpu("shop", "api-1", "", "", 0.75)
	cpu("shop", "api-2", "app", "", 0.25)
	req(blogAPI, "api-1", "10.1.0.1:8080", "blog/api: the same job and pod names in another namespace", 4)
	cpu("blog", "api-1", "app", "", 0.125)
	req(web, "multi-1", "10.0.0.9:8080", "one pod serving two jobs: each gets the pod's CPU", 4)
	req(admin, "multi-1", "10.0.0.9:9090", "", 1)
	cpu("shop", "multi-1", "app", "", 0.5)
	cpu("shop", "node-exporter-x", "app", "a pod without a requests series: no service to give its CPU to", 0.25)

	i := func(s service, instance string, v float64) sample {
		return sample{labelString("instance:cpu_seconds:rate5m", with(s.labels(), "instance", instance)), v}
	}
	at := "20m"
	g.expr("", "instance:cpu_seconds:rate5m", at,
		i(shopAPI, "10.0.0.1:8080", 0.625), i(shopAPI, "10.0.0.2:8080", 0.25), i(blogAPI, "10.1.0.1:8080", 0.125),
		i(web, "10.0.0.9:8080", 0.5), i(admin, "10.0.0.9:9090", 0.5))
	j := func(s service, v float64) sample { return sample{labelString("job:cpu_seconds:rate5m", s.labels()), v} }
	g.expr("", "job:cpu_seconds:rate5m", at, j(shopAPI, 0.875), j(blogAPI, 0.125), j(web, 0.5), j(admin, 0.5))
	g.expr("", `job:cpu_seconds_per_request:ratio_rate5m{job="api"}`, at,
		sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", shopAPI.labels()), 0.875 / 16},
		sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", blogAPI.labels()), 0.125 / 4})
	return &suite{
		file:      "cadvisor.yaml",
		comment:   "The requests-cpu group with cpuSource: cadvisor (overlays/cadvisor.jsonnet).",
		ruleFiles: overlayRules("cadvisor"),
		groups:    []*group{g},
	}
}
