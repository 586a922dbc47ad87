package main

import "fmt"

// CPUPerRequestOutlier: one instance against the median of its siblings, the
// instances of the same service serving >= 1 req/s, itself included; only
// with at least 3 of them.
func outlierSuite() *suite {
	api, pair, trickle, warmup, blip, even := inShop("api"), inShop("pair"), inShop("trickle"), inShop("warmup"), inShop("blip"), inShop("even")
	const total = 45

	g := &group{
		name:    "one instance against its siblings",
		comment: "Healthy instances: 16 req/s at 0.25 cores (1/64 s per request).",
	}
	inst := func(s service, i, comment string, tl timeline) {
		req, cpu, _ := tl.counters()
		g.add(comment, s.sel("http_requests_total", fmt.Sprintf("instance=%q", i)), req.String())
		g.add("", s.sel("process_cpu_seconds_total", fmt.Sprintf("instance=%q", i)), cpu.String())
	}
	steady := func(req, cpu float64) timeline {
		return timeline{total: total, at: func(int) rates { return rates{req, cpu, 0} }}
	}
	inst(api, "i1", "api: i3 spends twice the CPU per request of i1 and i2", steady(16, 0.25))
	inst(api, "i2", "", steady(16, 0.25))
	inst(api, "i3", "", steady(16, 0.5))
	inst(pair, "i1", "pair: the same, with only two instances", steady(16, 0.25))
	inst(pair, "i2", "", steady(16, 0.5))
	inst(trickle, "i1", "trickle: the expensive instance serves 0.5 req/s (not judged, not counted: 2 siblings left)", steady(16, 0.25))
	inst(trickle, "i2", "", steady(16, 0.25))
	inst(trickle, "i3", "", steady(0.5, 0.25))
	inst(warmup, "i1", "warmup: i3 restarts at 20m with 60 CPU seconds of start-up work (a reset and a 4-minute spike)", steady(16, 0.25))
	inst(warmup, "i2", "", steady(16, 0.25))
	inst(warmup, "i3", "", timeline{total: total, at: func(int) rates { return rates{16, 0.25, 0} }, restarts: map[int]restart{20: {gap: 1, startCPU: 60}}})
	inst(blip, "i1", "blip: i3 at twice the CPU for 5 minutes (20m-25m)", steady(16, 0.25))
	inst(blip, "i2", "", steady(16, 0.25))
	inst(blip, "i3", "", timeline{total: total, at: func(t int) rates {
		if t >= 20 && t < 25 {
			return rates{16, 0.5, 0}
		}
		return rates{16, 0.25, 0}
	}})
	inst(even, "i1", "even: four instances, uneven traffic, the same CPU per request", steady(4, 0.0625))
	inst(even, "i2", "", steady(8, 0.125))
	inst(even, "i3", "", steady(16, 0.25))
	inst(even, "i4", "", steady(32, 0.5))

	g.alert("pending, not firing, at 15m (for: 15m)", "15m", "CPUPerRequestOutlier")
	g.alert("api's i3 only: pair has 2 instances, trickle's expensive one is below the floor, warmup's spike and blip's burst last minutes, even is even",
		"40m", "CPUPerRequestOutlier", outlierFiring(api, "i3", 2))

	return &suite{
		file:      "outlier.yaml",
		comment:   "CPUPerRequestOutlier (its per-instance inputs are tested in requests-cpu.yaml).",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}
