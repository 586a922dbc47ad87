package main

import "fmt"

// Versions and deploys (overlays/versions.jsonnet: a shop_build_info{version}
// gauge, and kube-state-metrics' images joined through the pod): which
// version each service runs, and its last deploy. A rollout where both
// versions run for a while is one deploy, a rollback is a new one, a canary
// beside the old version is one deploy while both run, and a service with no
// version series has none of them. A failed scrape is no deploy, and neither
// are two versions both seen from Prometheus's first evaluation.
func versionsSuite() *suite {
	api, cart, web, quiet, pay, flaky, both := inShop("api"), inShop("cart"), inShop("web"), inShop("quiet"), inShop("pay"), inShop("flaky"), inShop("both")
	const total = 80

	g := &group{
		name:    "rollout, rollback, a canary, a pod-joined image, and a service without versions",
		comment: "Each version is a gauge that exists while an instance runs it (versionHold 10m keeps it 10 minutes more).",
	}
	// runs: the version's gauge on one instance from minute `from` to `to` (exclusive).
	runs := func(comment string, s service, instance, version string, from, to int) {
		g.add(comment, s.sel("shop_build_info", fmt.Sprintf("instance=%q", instance), fmt.Sprintf("version=%q", version)),
			(&seq{}).gap(from).hold(to-from, 1).String())
	}
	g.add("api: a rollout, 1.41 to 1.42 at 30m, both running 30m-34m; 1.41's series ends with a staleness marker, as Prometheus writes when a target's label set changes",
		api.sel("shop_build_info", `instance="i1"`, `version="1.41"`), (&seq{}).hold(34, 1).String()+" stale")
	runs("", api, "i2", "1.42", 30, total)
	runs("cart: 2.1 replaces 2.0 at 20m, then a rollback to 2.0 at 50m", cart, "i1", "2.0", 0, 22)
	runs("", cart, "i2", "2.1", 20, 52)
	runs("", cart, "i3", "2.0", 50, total)
	g.add("flaky: 4.0 all along, its scrape failing for 4 minutes at 30m", flaky.sel("shop_build_info", `instance="i1"`, `version="4.0"`),
		(&seq{}).hold(30, 1).gap(4).hold(total-34, 1).String())
	runs("both: 5.0 and 5.1 run from the first evaluation on (Prometheus started mid-rollout)", both, "i1", "5.0", 0, total)
	runs("", both, "i2", "5.1", 0, total)
	runs("web: a canary, 3.1 beside 3.0 from 20m on", web, "i1", "3.0", 0, total)
	runs("", web, "i2", "3.1", 20, total)
	g.add("quiet: requests and CPU, no version series", quiet.sel("http_requests_total", `instance="i1"`), (&seq{}).rate(total, 4).String())
	g.add("", quiet.sel("process_cpu_seconds_total", `instance="i1"`), (&seq{}).rate(total, 0.25).String())
	pod := func(comment, name, container, image string) {
		g.add(comment, fmt.Sprintf(`kube_pod_container_info{cluster="eu1", namespace="shop", job="kube-state-metrics", pod=%q, container=%q, image=%q}`, name, container, image),
			(&seq{}).hold(total, 1).String())
	}
	pod("pay: kube-state-metrics' images of two pods, one pinned by digest, each with a mesh sidecar the selector leaves out", "pay-1", "pay", "registry.example.com/shop/pay:1.5")
	pod("", "pay-1", "istio-proxy", "docker.io/istio/proxyv2:1.20.0")
	pod("", "pay-2", "pay", "registry.example.com/shop/pay:1.5@sha256:4f1e")
	pod("", "pay-2", "istio-proxy", "docker.io/istio/proxyv2:1.20.0")
	pod("an image without a tag gives no version", "pay-3", "pay", "registry.example.com/shop/pay@sha256:4f1e")
	for _, p := range []string{"pay-1", "pay-2", "pay-3"} {
		g.add("", pay.sel("http_requests_total", fmt.Sprintf("instance=%q", p+":8080"), fmt.Sprintf("pod=%q", p)), (&seq{}).rate(total, 4).String())
	}

	info := func(s service, version string) sample {
		return sample{labelString("job:version:info", with(s.labels(), "version", version)), 1}
	}
	rollout := func(s service, version, previous string, at float64) sample {
		return sample{labelString("job:version:rollout_timestamp", with(s.labels(), "version", version, "previous_version", previous)), at}
	}
	start := func(s service, version string, at float64) sample {
		return sample{labelString("job:version:start_timestamp", with(s.labels(), "version", version)), at}
	}
	of := func(name string, s service) string { return s.sel(name) }

	g.expr("api before the rollout: 1.41 only, no deploy yet", of("job:version:info", api), "20m", info(api, "1.41"))
	g.expr("", of("job:version:rollout_timestamp", api), "20m")
	g.expr("api during the rollout: both versions", of("job:version:info", api), "32m", info(api, "1.41"), info(api, "1.42"))
	g.expr("each dated when it began to run", of("job:version:start_timestamp", api), "32m", start(api, "1.41", 0), start(api, "1.42", 1800))
	g.expr("one deploy, 1.41 to 1.42 at 30m", of("job:version:rollout_timestamp", api), "32m", rollout(api, "1.42", "1.41", 1800))
	g.expr("1.41 is held for versionHold past its last sample, its staleness marker notwithstanding", of("job:version:info", api), "40m", info(api, "1.41"), info(api, "1.42"))
	g.expr("api after the rollout (1.41 gone for over 10m): 1.42 only", of("job:version:info", api), "60m", info(api, "1.42"))
	g.expr("still that one deploy, dated when it began", of("job:version:rollout_timestamp", api), "60m", rollout(api, "1.42", "1.41", 1800))
	g.expr("cart after its first rollout: 2.0 to 2.1 at 20m", of("job:version:rollout_timestamp", cart), "40m", rollout(cart, "2.1", "2.0", 1200))
	g.expr("cart after the rollback: a new deploy, 2.1 to 2.0 at 50m", of("job:version:rollout_timestamp", cart), "55m", rollout(cart, "2.0", "2.1", 3000))
	g.expr("2.0 runs again, dated from its return", of("job:version:start_timestamp", cart), "70m", start(cart, "2.0", 3000))
	g.expr("and the rollback stays the last deploy once 2.1 is gone", of("job:version:rollout_timestamp", cart), "70m", rollout(cart, "2.0", "2.1", 3000))
	g.expr("web: the canary and the old version both run", of("job:version:info", web), "60m", info(web, "3.0"), info(web, "3.1"))
	g.expr("one deploy while both run, dated when the canary began", of("job:version:rollout_timestamp", web), "60m", rollout(web, "3.1", "3.0", 1200))
	g.expr("pay: the tag of its own container's image, digest or not; the untagged image and the sidecar add none", of("job:version:info", pay), "10m", info(pay, "1.5"))
	g.expr("flaky: a failed scrape does not end its version", of("job:version:info", flaky), "32m", info(flaky, "4.0"))
	g.expr("nor dates it anew", of("job:version:start_timestamp", flaky), "40m", start(flaky, "4.0", 0))
	g.expr("so no deploy", of("job:version:rollout_timestamp", flaky), "40m")
	g.expr("both: two versions seen from the start are no deploy (neither began after the other)", of("job:version:rollout_timestamp", both), "30m")
	g.expr("quiet has no version", of("job:version:info", quiet), "60m")
	g.expr("and no deploy", of("job:version:rollout_timestamp", quiet), "60m")

	return &suite{
		file:      "versions.yaml",
		comment:   "The versions group: running versions and deploys (overlays/versions.jsonnet).",
		ruleFiles: overlayRules("versions"),
		groups:    []*group{g, versionAlertsGroup()},
	}
}

// The efficiency alerts carry the running version, and the last deploy while
// it is at most deployWindow (2h) old; empty where the service has no version.
func versionAlertsGroup() *group {
	api, solo := inShop("api"), inShop("solo")
	const total = 140
	g := &group{
		name:    "the outlier alert with the version it runs and the deploy before it",
		comment: "i3 spends twice the CPU per request of i1 and i2 (CPUPerRequestOutlier fires from 20m).",
	}
	for _, s := range []service{api, solo} {
		for _, i := range []string{"i1", "i2", "i3"} {
			cpu := 0.25
			if i == "i3" {
				cpu = 0.5
			}
			g.add("", s.sel("http_requests_total", fmt.Sprintf("instance=%q", i)), (&seq{}).rate(total, 16).String())
			g.add("", s.sel("process_cpu_seconds_total", fmt.Sprintf("instance=%q", i)), (&seq{}).rate(total, cpu).String())
		}
	}
	for _, i := range []string{"i1", "i2", "i3"} {
		g.add("api: every instance moves from 1.41 to 1.42 at 10m; solo has no version", api.sel("shop_build_info", fmt.Sprintf("instance=%q", i), `version="1.41"`), (&seq{}).hold(11, 1).String())
		g.add("", api.sel("shop_build_info", fmt.Sprintf("instance=%q", i), `version="1.42"`), (&seq{}).gap(10).hold(total-10, 1).String())
	}
	versions := func(f firing, version, previous, at string) firing {
		f.annotations = with(f.annotations, "version", version, "previous_version", previous, "rollout_time", at)
		return f
	}
	g.alert("40m: 1.42 runs, deployed at 10m from 1.41; solo's annotations are empty", "40m", "CPUPerRequestOutlier",
		versions(outlierFiring(api, "i3", 2), "1.42", "1.41", "600"), versions(outlierFiring(solo, "i3", 2), "", "", ""))
	g.alert("135m: the deploy is over 2h old, only the version is left", "135m", "CPUPerRequestOutlier",
		versions(outlierFiring(api, "i3", 2), "1.42", "", ""), versions(outlierFiring(solo, "i3", 2), "", "", ""))
	return g
}
