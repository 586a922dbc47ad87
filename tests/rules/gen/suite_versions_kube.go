package main

import "fmt"

// Versions with the shipped rules: kube-state-metrics' kube_pod_container_info
// is the default source, each pod's image tag joined to its service through
// (namespace, pod). A rolling update runs pods of the old and the new tag at
// once for a while: one deploy, dated when the first pod of the new tag ran. A
// mesh sidecar's image is no version of the service, and a service whose pods
// kube-state-metrics does not report carries empty version annotations.
func versionsKubeSuite() *suite {
	api, solo := inShop("api"), inShop("solo")
	const total = 60

	g := &group{
		name:    "a rolling update of the image tag through kube-state-metrics, and a service without it",
		comment: "Each pod is an instance serving 16 req/s; the last pod of each service spends twice the CPU per request of its siblings (CPUPerRequestOutlier).",
	}
	// pod: one pod of a service from minute `from` to `to` (exclusive): its
	// requests and CPU, and its containers in kube-state-metrics (name=image).
	pod := func(comment string, s service, name string, from, to int, cpu float64, containers ...string) {
		instance := fmt.Sprintf("instance=%q", name+":8080")
		g.add(comment, s.sel("http_requests_total", instance, fmt.Sprintf("pod=%q", name)), (&seq{}).gap(from).rate(to-from, 16).String())
		g.add("", s.sel("process_cpu_seconds_total", instance, fmt.Sprintf("pod=%q", name)), (&seq{}).gap(from).rate(to-from, cpu).String())
		for i := 0; i+1 < len(containers); i += 2 {
			values := (&seq{}).gap(from).hold(to-from, 1).String()
			if to < total {
				values += " stale" // kube-state-metrics drops a deleted pod's series
			}
			g.add("", fmt.Sprintf(`kube_pod_container_info{cluster=%q, namespace=%q, job="kube-state-metrics", instance="10.0.9.1:8080", pod=%q, container=%q, image=%q, uid="u-%s"}`,
				s.cluster, s.namespace, name, containers[i], containers[i+1], name), values)
		}
	}
	const old, next, proxy = "registry.example.com/shop/api:1.41", "registry.example.com/shop/api:1.42@sha256:9c1e", "docker.io/istio/proxyv2:1.21.0"
	pod("api: three pods of 1.41 until 25m, each with an istio-proxy sidecar", api, "api-6f7c-a", 0, 25, 0.25, "api", old, "istio-proxy", proxy)
	pod("", api, "api-6f7c-b", 0, 25, 0.25, "api", old, "istio-proxy", proxy)
	pod("", api, "api-6f7c-c", 0, 25, 0.25, "api", old, "istio-proxy", proxy)
	pod("the rolling update: three pods of 1.42 (pinned by digest) from 20m, the sidecar's tag unchanged; pods of both tags run 20m-25m", api, "api-7d9f-a", 20, total, 0.25, "api", next, "istio-proxy", proxy)
	pod("", api, "api-7d9f-b", 20, total, 0.25, "api", next, "istio-proxy", proxy)
	pod("", api, "api-7d9f-c", 20, total, 0.5, "api", next, "istio-proxy", proxy)
	pod("solo: pods that kube-state-metrics does not report (no kube_pod_container_info)", solo, "solo-1", 0, total, 0.25)
	pod("", solo, "solo-2", 0, total, 0.25)
	pod("", solo, "solo-3", 0, total, 0.5)

	info := func(s service, version string) sample {
		return sample{labelString("job:version:info", with(s.labels(), "version", version)), 1}
	}
	rollout := func(s service, version, previous string, at float64) sample {
		return sample{labelString("job:version:rollout_timestamp", with(s.labels(), "version", version, "previous_version", previous)), at}
	}
	g.expr("api before the update: 1.41, the tag of its own container (the sidecar's 1.21.0 is none)", api.sel("job:version:info"), "10m", info(api, "1.41"))
	g.expr("and no deploy", api.sel("job:version:rollout_timestamp"), "10m")
	g.expr("api during the update: pods of both tags", api.sel("job:version:info"), "22m", info(api, "1.41"), info(api, "1.42"))
	g.expr("one deploy, 1.41 to 1.42, dated when the first 1.42 pod ran", api.sel("job:version:rollout_timestamp"), "22m", rollout(api, "1.42", "1.41", 1200))
	g.expr("api after the update: 1.42 only", api.sel("job:version:info"), "50m", info(api, "1.42"))
	g.expr("still that one deploy", api.sel("job:version:rollout_timestamp"), "50m", rollout(api, "1.42", "1.41", 1200))
	g.expr("solo has no version", solo.sel("job:version:info"), "50m")

	versions := func(f firing, version, previous, at string) firing {
		f.annotations = with(f.annotations, "version", version, "previous_version", previous, "rollout_time", at)
		return f
	}
	g.alert("50m: api's outlier runs 1.42, deployed at 20m from 1.41; solo's version annotations are empty", "50m", "CPUPerRequestOutlier",
		versions(outlierFiring(api, "api-7d9f-c:8080", 2), "1.42", "1.41", "1200"), outlierFiring(solo, "solo-3:8080", 2))

	return &suite{
		file:      "versions-kube.yaml",
		comment:   "Versions from the shipped rules' default source, kube-state-metrics' image tags.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
