package main

// A function's fit when its service's half is recorded a round after its
// own: Prometheus evaluates its groups independently, so the functions'
// model group can see the traffic cross its day's median before the
// baseline group recorded the service's points of that half. This suite
// evaluates the functions' groups before the baseline's, at every step.
func fitOrderSuite() *suite {
	const (
		drop  = 3 * 60
		total = drop + 30
	)
	g := &group{
		name:    "a function's plain cost per request as the traffic first falls under its median",
		comment: "late serves 8 req/s for 3h, then 4; its serve costs 1/32 s a request throughout, beside a fixed gc.",
	}
	traffic := func(t int) float64 {
		if t >= drop {
			return 4
		}
		return 8
	}
	late := addServeRegression(g, "late", traffic, 0.125, total, 1, total)
	// Its upper points alone until the service's lower one exists: at
	// 3h1m serve has a lower point (the 5m rate under 8), its service's
	// lower point comes later in that step; the upper ones' ratio is 1/32.
	marginal := func(at int) {
		g.expr("serve's plain cost per request, of the halves its service has", `job_function:cpu_seconds_per_request:baseline_marginal{function="serve"}`, minutes(at),
			sample{labelString("job_function:cpu_seconds_per_request:baseline_marginal", map[string]string{"job": late.job, "function": "serve"}), 1.0 / 32})
	}
	marginal(drop - 1)
	marginal(drop + 1)

	order := []string{"hotpath-requests-cpu", "hotpath-functions", "hotpath-functions-model"}
	for _, o := range groupOrder {
		if o != "hotpath-requests-cpu" {
			order = append(order, o)
		}
	}
	return &suite{
		file:      "fit-order.yaml",
		comment:   "A function's fit when its service's traffic half is recorded after its own: the plain cost per request counts only the halves both have.",
		ruleFiles: shippedRules,
		order:     append(order, "hotpath-functions-noise", "hotpath-function-alerts"),
		groups:    []*group{g},
	}
}
