package main

// CFS throttling per container and CPUThrottlingSustained: the periods ratio
// AND the throttled time, so an idle container with a high ratio stays silent.
func throttlingSuite() *suite {
	ci := container{"eu1", "ci", "ci-operator-7d9f", "app"}
	idle := container{"eu1", "ci", "cron-5c2a", "app"}
	batch := container{"eu1", "ci", "batch-81fe", "worker"}
	nolimit := container{"eu1", "ci", "web-3b1c", "app"}
	blip := container{"eu1", "ci", "build-4e0d", "app"}
	restart := container{"eu1", "ci", "queue-9a7b", "app"}
	proxy := container{"eu1", "ci", "ci-operator-7d9f", "proxy"}
	const m = 70

	g := &group{
		name:    "CFS throttling: ratio and seconds, idle containers, no limit, blips, restarts",
		comment: "Rates per second: periods, throttled periods, throttled seconds, CPU usage; quota and period in microseconds.",
	}
	cfs := func(c container, comment string, periods, throttled, seconds seq) {
		g.add(comment, c.sel("container_cpu_cfs_periods_total"), periods.String())
		g.add("", c.sel("container_cpu_cfs_throttled_periods_total"), throttled.String())
		g.add("", c.sel("container_cpu_cfs_throttled_seconds_total"), seconds.String())
	}
	steady := func(periods, throttled, seconds float64) (seq, seq, seq) {
		return *(&seq{}).rate(m, periods), *(&seq{}).rate(m, throttled), *(&seq{}).rate(m, seconds)
	}
	p, t, s := steady(10, 5, 0.5)
	cfs(ci, "ci-operator (the cfs story): throttled in half its periods, 0.5 s/s, limit 0.3 cores, uses 0.25", p, t, s)
	g.add("", ci.sel("container_cpu_usage_seconds_total"), (&seq{}).rate(m, 0.25).String())
	g.add("", ci.sel("container_spec_cpu_quota"), (&seq{}).hold(m, 30000).String())
	g.add("", ci.sel("container_spec_cpu_period"), (&seq{}).hold(m, 100000).String())
	g.add("the pod-level cgroup (container=\"\") is not a container: ignored",
		`container_cpu_cfs_throttled_seconds_total{cluster="eu1", namespace="ci", pod="ci-operator-7d9f", container=""}`, (&seq{}).rate(m, 4).String())
	g.add("ci-operator's pod serves 20 req/s: its containers' throttled time per request divides by them",
		`http_requests_total{cluster="eu1", namespace="ci", pod="ci-operator-7d9f", job="ci-operator", instance="10.0.0.1:8080", code="200"}`, (&seq{}).rate(m, 20).String())
	g.add("ci-operator requests 0.2 cores (kube-state-metrics); the memory request is another resource",
		ci.sel("kube_pod_container_resource_requests", `resource="cpu"`, `unit="core"`), (&seq{}).hold(m, 0.2).String())
	g.add("", ci.sel("kube_pod_container_resource_requests", `resource="memory"`, `unit="byte"`), (&seq{}).hold(m, 1e9).String())
	p, t, s = steady(10, 1, 0.125)
	cfs(proxy, "ci-operator's proxy sidecar, in the same pod: 0.125 s/s throttled", p, t, s)
	g.add("web (no limit) serves requests too, but has no throttling to divide",
		`http_requests_total{cluster="eu1", namespace="ci", pod="web-3b1c", job="web", instance="10.0.0.2:8080", code="200"}`, (&seq{}).rate(m, 5).String())
	p, t, s = steady(0.5, 0.375, 0.015625)
	cfs(idle, "cron (mostly idle): 75% of its few periods throttled, but only 0.016 s/s", p, t, s)
	g.add("", idle.sel("container_cpu_usage_seconds_total"), (&seq{}).rate(m, 0.0078125).String())
	p, t, s = steady(8, 1, 0.25)
	cfs(batch, "batch (many cores): 0.25 s/s throttled, but in only 12.5% of its periods", p, t, s)
	g.add("web: no CPU limit, so no CFS series at all (absence is not 0%)", nolimit.sel("container_cpu_usage_seconds_total"), (&seq{}).rate(m, 0.5).String())
	cfs(blip, "build: throttled like ci-operator for 5 minutes only (30m-35m)",
		*(&seq{}).rate(m, 10),
		*(&seq{}).rate(30, 0.25).rate(5, 5).rate(m-35, 0.25),
		*(&seq{}).rate(30, 0.0078125).rate(5, 0.5).rate(m-35, 0.0078125))
	cfs(restart, "queue: lightly throttled; the container restarts at 15m (counters back to 0, one scrape missed)",
		*(&seq{}).rate(15, 10).gap(1).reset(0).rate(m-16, 10),
		*(&seq{}).rate(15, 0.5).gap(1).reset(0).rate(m-16, 0.5),
		*(&seq{}).rate(15, 0.015625).gap(1).reset(0).rate(m-16, 0.015625))

	at := "25m"
	g.expr("the ratio for every container with a limit, the pod cgroup left out",
		"container:cpu_cfs_throttled_periods:ratio_rate5m", at,
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", ci.labels()), 0.5},
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", idle.labels()), 0.75},
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", batch.labels()), 0.125},
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", blip.labels()), 0.025},
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", restart.labels()), 0.05},
		sample{labelString("container:cpu_cfs_throttled_periods:ratio_rate5m", proxy.labels()), 0.1})
	g.expr("", "container:cpu_cfs_throttled_seconds:rate5m", at,
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", ci.labels()), 0.5},
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", idle.labels()), 0.015625},
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", batch.labels()), 0.25},
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", blip.labels()), 0.0078125},
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", restart.labels()), 0.015625},
		sample{labelString("container:cpu_cfs_throttled_seconds:rate5m", proxy.labels()), 0.125})
	g.expr("throttled seconds per request of the pod, for each of its containers; only pods that count requests (cron, batch: none; web: no throttling)",
		"container:cpu_cfs_throttled_seconds_per_request:ratio_rate5m", at,
		sample{labelString("container:cpu_cfs_throttled_seconds_per_request:ratio_rate5m", ci.labels()), 0.025},
		sample{labelString("container:cpu_cfs_throttled_seconds_per_request:ratio_rate5m", proxy.labels()), 0.00625})
	g.expr("the CPU request in cores, only where kube-state-metrics reports one",
		"container:cpu_request_cores:max", at,
		sample{labelString("container:cpu_request_cores:max", ci.labels()), 0.2})
	g.expr("usage for the usage-vs-limit panels, with or without a limit",
		"container:cpu_usage_seconds:rate5m", at,
		sample{labelString("container:cpu_usage_seconds:rate5m", ci.labels()), 0.25},
		sample{labelString("container:cpu_usage_seconds:rate5m", idle.labels()), 0.0078125},
		sample{labelString("container:cpu_usage_seconds:rate5m", nolimit.labels()), 0.5})
	g.expr("quota / period in cores, only where a quota is set",
		"container:cpu_limit_cores:ratio", at,
		sample{labelString("container:cpu_limit_cores:ratio", ci.labels()), 0.3})

	g.alert("not yet: throttled for less than 15m", "10m", "CPUThrottlingSustained")
	g.alert("ci-operator only: cron's ratio is high but its time negligible, batch's time is high but its ratio low, web has no limit, queue's restart is no spike",
		"25m", "CPUThrottlingSustained", throttlingFiring(ci, 0.5))
	g.alert("build's 5-minute burst (30m-35m) never lasts 15m", "50m", "CPUThrottlingSustained", throttlingFiring(ci, 0.5))

	return &suite{
		file:      "throttling.yaml",
		comment:   "Recording rules of the hotpath-throttling group and CPUThrottlingSustained.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
