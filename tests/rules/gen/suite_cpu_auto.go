package main

// The shipped pack's CPU source, auto: each service's process counter where
// it exports one, its pods' containers (cAdvisor) where it does not, never
// the two added; a service is judged on one source, whichever its instances.
func cpuAutoSuite() *suite {
	proc, pods, both, half := inShop("proc"), inShop("pods"), inShop("both"), inShop("half")
	const total = 30
	g := &group{
		name:    "CPU per service from its process, or else from its pods",
		comment: "Every service serves its requests from pods; cAdvisor's series come from the kubelet.",
	}
	counter := func(comment, labels string, perSecond float64) {
		g.add(comment, labels, (&seq{}).rate(total, perSecond).String())
	}
	req := func(s service, pod, instance, comment string, perSecond float64) {
		counter(comment, s.sel("http_requests_total", `pod="`+pod+`"`, `instance="`+instance+`"`), perSecond)
	}
	process := func(s service, pod, instance string, cores float64) {
		counter("", s.sel("process_cpu_seconds_total", `pod="`+pod+`"`, `instance="`+instance+`"`), cores)
	}
	cpu := func(pod, container, comment string, cores float64) {
		counter(comment, `container_cpu_usage_seconds_total{cluster="eu1", job="kubelet", instance="node-1", namespace="shop", pod="`+pod+`", container="`+container+`"}`, cores)
	}
	req(proc, "proc-1", "10.0.0.1:8080", "proc: process metrics, no cAdvisor series (a kubelet without cAdvisor, or a VM)", 8)
	process(proc, "proc-1", "10.0.0.1:8080", 0.5)
	req(pods, "pods-1", "10.0.1.1:8080", "pods: no process metrics (a JVM): its two pods' containers, the sidecar's included", 4)
	req(pods, "pods-2", "10.0.1.2:8080", "", 4)
	cpu("pods-1", "app", "", 0.375)
	cpu("pods-1", "istio-proxy", "", 0.125)
	cpu("pods-2", "app", "", 0.25)
	req(both, "both-1", "10.0.2.1:8080", "both: its process's CPU, not its container's, and never their sum", 8)
	process(both, "both-1", "10.0.2.1:8080", 0.5)
	cpu("both-1", "app", "", 0.625)
	req(half, "half-1", "10.0.3.1:8080", "half: one instance exports process metrics, the other not: the service is judged on one source, its process's", 4)
	req(half, "half-2", "10.0.3.2:8080", "", 4)
	process(half, "half-1", "10.0.3.1:8080", 0.25)
	cpu("half-1", "app", "", 0.25)
	cpu("half-2", "app", "", 0.25)
	cpu("batch-1", "app", "a pod whose requests no source counts: no service to give its CPU to", 1)

	at := "20m"
	i := func(s service, instance string, v float64) sample {
		return sample{labelString("instance:cpu_seconds:rate5m", with(s.labels(), "instance", instance)), v}
	}
	g.expr("per instance: one source per service", "instance:cpu_seconds:rate5m", at,
		i(proc, "10.0.0.1:8080", 0.5), i(pods, "10.0.1.1:8080", 0.5), i(pods, "10.0.1.2:8080", 0.25),
		i(both, "10.0.2.1:8080", 0.5), i(half, "10.0.3.1:8080", 0.25))
	j := func(s service, v float64) sample { return sample{labelString("job:cpu_seconds:rate5m", s.labels()), v} }
	g.expr("per service", "job:cpu_seconds:rate5m", at, j(proc, 0.5), j(pods, 0.75), j(both, 0.5), j(half, 0.25))
	q := func(s service, v float64) sample {
		return sample{labelString("job:cpu_seconds_per_request:ratio_rate5m", s.labels()), v}
	}
	g.expr("so CPU per request: pods' from their containers", "job:cpu_seconds_per_request:ratio_rate5m", at,
		q(proc, 0.0625), q(pods, 0.09375), q(both, 0.0625), q(half, 0.03125))
	return &suite{
		file:      "cpu-auto.yaml",
		comment:   "The requests-cpu group of the shipped pack (cpuSource: auto) on services with process metrics, without, and with both.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
