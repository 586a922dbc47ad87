package main

import "fmt"

// kube-prometheus-stack's default install: its kubelet ServiceMonitor drops
// container_cpu_cfs_throttled_seconds_total and every container_spec_* series
// (cAdvisorMetricRelabelings). The pack then records throttled periods x the
// CFS period (100ms) as the throttled seconds, and takes the CPU limit from
// kube-state-metrics. throttling.yaml is the same story with every series.
func kubePrometheusStackSuite() *suite {
	ci := container{"eu1", "ci", "ci-operator-7d9f", "app"}
	idle := container{"eu1", "ci", "cron-5c2a", "app"}
	batch := container{"eu1", "ci", "batch-81fe", "worker"}
	nolimit := container{"eu1", "ci", "web-3b1c", "app"}
	full := container{"eu1", "ci", "legacy-0", "app"}
	const m = 40

	g := &group{
		name:    "kube-prometheus-stack's default drops: no throttled seconds, no container_spec_*",
		comment: "Rates per second: periods, throttled periods, CPU usage; the limit from kube-state-metrics in cores.",
	}
	ksm := func(c container, resource, unit string, v float64) {
		g.add("", fmt.Sprintf(`kube_pod_container_resource_limits{job="kube-state-metrics", instance="10.0.9.1:8080", node="node-1", uid="u-%s", cluster=%q, namespace=%q, pod=%q, container=%q, resource=%q, unit=%q}`,
			c.pod, c.cluster, c.namespace, c.pod, c.name, resource, unit), (&seq{}).hold(m, v).String())
	}
	cfs := func(c container, comment string, periods, throttled, usage float64) {
		g.add(comment, c.sel("container_cpu_cfs_periods_total"), (&seq{}).rate(m, periods).String())
		g.add("", c.sel("container_cpu_cfs_throttled_periods_total"), (&seq{}).rate(m, throttled).String())
		g.add("", c.sel("container_cpu_usage_seconds_total"), (&seq{}).rate(m, usage).String())
	}
	cfs(ci, "ci-operator (the cfs story): throttled in half of its 10 periods a second; limit 0.3 cores, uses 0.25", 10, 5, 0.25)
	ksm(ci, "cpu", "core", 0.3)
	ksm(ci, "memory", "byte", 536870912)
	cfs(idle, "cron (mostly idle): 75% of its few periods throttled, at most 0.0375 s/s", 0.5, 0.375, 0.0078125)
	ksm(idle, "cpu", "core", 0.125)
	cfs(batch, "batch: 0.125 s/s at most, but in only 12.5% of its periods", 10, 1.25, 1.5)
	ksm(batch, "cpu", "core", 2)
	g.add("web: no CPU limit, so no CFS series and no limit in kube-state-metrics", nolimit.sel("container_cpu_usage_seconds_total"), (&seq{}).rate(m, 0.5).String())
	g.add("the pause container (container=\"POD\") and the pod-level cgroup (container=\"\") are not containers: ignored",
		`container_cpu_cfs_throttled_periods_total{cluster="eu1", namespace="ci", pod="ci-operator-7d9f", container="POD"}`, (&seq{}).rate(m, 10).String())
	g.add("", `container_cpu_cfs_periods_total{cluster="eu1", namespace="ci", pod="ci-operator-7d9f", container="POD"}`, (&seq{}).rate(m, 10).String())
	g.add("", `container_cpu_cfs_throttled_periods_total{cluster="eu1", namespace="ci", pod="ci-operator-7d9f", container=""}`, (&seq{}).rate(m, 10).String())
	cfs(full, "legacy: scraped with every series (another Prometheus): its real throttled seconds win over the bound", 10, 5, 0.25)
	g.add("", full.sel("container_cpu_cfs_throttled_seconds_total"), (&seq{}).rate(m, 0.015625).String())
	g.add("", full.sel("container_spec_cpu_quota"), (&seq{}).hold(m, 50000).String())
	g.add("", full.sel("container_spec_cpu_period"), (&seq{}).hold(m, 100000).String())
	ksm(full, "cpu", "core", 4)

	at := "25m"
	secs := func(c container, v float64) sample {
		return sample{labelString("", c.labels()), v}
	}
	g.expr("throttled periods x 100ms where cAdvisor's seconds are dropped; legacy's own seconds where it has them (rounded: x 0.1 is inexact in binary)",
		"round(container:cpu_cfs_throttled_seconds:rate5m, 0.000001)", at,
		secs(ci, 0.5), secs(idle, 0.0375), secs(batch, 0.125), secs(full, 0.015625))
	periods := func(c container, v float64) sample {
		return sample{labelString("container:cpu_cfs_throttled_periods:rate5m", c.labels()), v}
	}
	g.expr("throttled periods per second, the pause container and the pod-level cgroup left out", "container:cpu_cfs_throttled_periods:rate5m", at,
		periods(ci, 5), periods(idle, 0.375), periods(batch, 1.25), periods(full, 5))
	limit := func(c container, v float64) sample {
		return sample{labelString("container:cpu_limit_cores:ratio", c.labels()), v}
	}
	g.expr("the limit from kube-state-metrics (cores), from quota / period where cAdvisor has them",
		"container:cpu_limit_cores:ratio", at, limit(ci, 0.3), limit(idle, 0.125), limit(batch, 2), limit(full, 0.5))
	g.alert("not yet: throttled for less than 15m", "10m", "CPUThrottlingSustained")
	g.alert("ci-operator only: cron's ratio is high but its bound small, batch's ratio low, legacy's real seconds small, web has no limit",
		at, "CPUThrottlingSustained", throttlingFiring(ci, 0.5))

	return &suite{
		file:      "kube-prometheus-stack.yaml",
		comment:   "The hotpath-throttling group and CPUThrottlingSustained on kube-prometheus-stack's default cAdvisor series.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
