package main

import (
	"fmt"
	"strconv"
	"strings"
)

// The list prices of jsonnet/config.libsonnet (costPerCoreHour,
// costPerGiBHour) and the month the pack prices with: the expected values
// are computed here from them, as the rules' constants are (15 significant
// digits, lib/promql.libsonnet's num).
const (
	pricePerCoreHour = 0.04048
	pricePerGiBHour  = 0.004445
	hoursPerMonth    = 730
)

func num15(v float64) float64 {
	f, _ := strconv.ParseFloat(fmt.Sprintf("%.15g", v), 64)
	return f
}

// moneyServices are the inputs of both money suites: api, three instances
// at 16 req/s, i3 at twice the CPU of the others (1 core in all), 512 MiB
// each; idle, CPU and memory but no requests.
func moneyServices(g *group) (api, idle service) {
	api, idle = service{"eu1", "shop", "api"}, service{"eu1", "shop", "idle"}
	const m = 30
	inst := func(s service, i, comment string, req, cpu, mem float64) {
		reqSeq := (&seq{}).rate(m, req)
		if req == 0 {
			reqSeq = (&seq{}).hold(m, 42)
		}
		g.add(comment, s.sel("http_requests_total", fmt.Sprintf("instance=%q", i)), reqSeq.String())
		g.add("", s.sel("process_cpu_seconds_total", fmt.Sprintf("instance=%q", i)), (&seq{}).rate(m, cpu).String())
		g.add("", s.sel("process_resident_memory_bytes", fmt.Sprintf("instance=%q", i)), (&seq{}).hold(m, mem).String())
	}
	inst(api, "i1", "api: three instances at 16 req/s; i3 spends twice the CPU of i1 and i2 (1 core in all); 512 MiB each", 16, 0.25, gib/2)
	inst(api, "i2", "", 16, 0.25, gib/2)
	inst(api, "i3", "", 16, 0.5, gib/2)
	inst(idle, "i1", "idle: CPU and memory, no requests (0 req/s)", 0, 0.125, gib/4)
	return api, idle
}

const gib = 1 << 30

// Money: the hotpath-cost group (CPU cost a month, per million requests,
// memory cost a month) and the change in cores the outlier's message prices
// (the catalogue's query, as hotpath-notify evaluates it).
func moneySuite() *suite {
	perCoreMonth := num15(pricePerCoreHour * hoursPerMonth)
	perMillion := num15(pricePerCoreHour * 1e6 / 3600)
	perGiBMonth := num15(pricePerGiBHour * hoursPerMonth)
	g := &group{name: "money at the shipped list prices", comment: fmt.Sprintf("costPerCoreHour %v, costPerGiBHour %v, a month of %d hours.", pricePerCoreHour, pricePerGiBHour, hoursPerMonth)}
	api, idle := moneyServices(g)
	at := "20m"
	g.expr("CPU cost a month: cores x price x 730; an idle service costs its cores too",
		"job:cpu_cost_per_month:rate5m", at,
		sample{labelString("job:cpu_cost_per_month:rate5m", api.labels()), 1 * perCoreMonth},
		sample{labelString("job:cpu_cost_per_month:rate5m", idle.labels()), 0.125 * perCoreMonth})
	g.expr("CPU cost of a million requests: seconds per request x 1e6 / 3600 x price; none without requests (no NaN, no Inf)",
		"job:cpu_cost_per_million_requests:ratio_rate5m", at,
		sample{labelString("job:cpu_cost_per_million_requests:ratio_rate5m", api.labels()), 1.0 / 48 * perMillion})
	g.expr("resident memory summed per service",
		"job:memory_bytes:sum", at,
		sample{labelString("job:memory_bytes:sum", api.labels()), 1.5 * gib},
		sample{labelString("job:memory_bytes:sum", idle.labels()), 0.25 * gib})
	g.expr("memory cost a month: GiB x price x 730",
		"job:memory_cost_per_month:sum", at,
		sample{labelString("job:memory_cost_per_month:sum", api.labels()), 1.5 * perGiBMonth},
		sample{labelString("job:memory_cost_per_month:sum", idle.labels()), 0.25 * perGiBMonth})
	inst := func(s service, i string) map[string]string { return with(s.labels(), "instance", i) }
	g.expr("the outlier's change: i3's 0.5 cores less what its 16 req/s cost at the siblings' median (1/64 s): 0.25 cores; the others none; idle serves nothing, so it has no siblings' median",
		catalogueChange("CPUPerRequestOutlier", 0), at,
		sample{labelString("", inst(api, "i1")), 0},
		sample{labelString("", inst(api, "i2")), 0},
		sample{labelString("", inst(api, "i3")), 0.25})
	return &suite{
		file:      "money.yaml",
		comment:   "Money at the shipped list prices: the cost series, and the change the outlier's message prices.",
		ruleFiles: shippedRules,
		groups:    []*group{g},
	}
}

// Money off: the pack rendered with costPerCoreHour 0 records no cost series.
func moneyOffSuite() *suite {
	g := &group{name: "money off (costPerCoreHour 0)", comment: "The same services as money.yaml."}
	moneyServices(g)
	for _, r := range []string{"job:cpu_cost_per_month:rate5m", "job:cpu_cost_per_million_requests:ratio_rate5m", "job:memory_bytes:sum", "job:memory_cost_per_month:sum"} {
		g.expr("no "+r, r, "20m")
	}
	return &suite{
		file:      "money-off.yaml",
		comment:   "Money off: with costPerCoreHour 0 the pack records no cost series.",
		ruleFiles: overlayRules("money-off"),
		groups:    []*group{g},
	}
}

// pricedChanges checks the regressions' change in cores, as their firing
// messages price it (the catalogue's query, the alert having started 15
// minutes into the incident), read 40 minutes in at the daily peak (20
// req/s): regressed's requests cost twice the marginal CPU, so 20 x 1/32
// cores more than its model predicts; gzip allocates 10x but spends the CPU
// its model predicts, so its allocations alert prices no extra cores. 1 where
// the change is within a thousandth of a core of that.
func pricedChanges(g *group, onset int, regressed, gzip service) {
	near := func(alert string, s service, want float64) string {
		q := catalogueChange(alert, onset+15)
		return fmt.Sprintf("abs(((%s) and on (cluster, namespace, job) %s) - %s) < bool 0.001", q, s.sel("job:requests:rate5m"), num(want))
	}
	at := minutes(onset + 40)
	g.expr("the CPU regression's change: (1/16 - 1/32) s per request x 20 req/s = 0.625 cores beyond the model",
		near("CPUPerRequestRegression", regressed, 20*marginalCPU), at, sample{labelString("", regressed.labels()), 1})
	g.expr("the allocation regression's change in CPU: none, its CPU is what the model predicts",
		near("AllocationsPerRequestRegression", gzip, 0), at, sample{labelString("", gzip.labels()), 1})
}

// pricedUpstreamChange checks CPUPerRequestAboveUpstream's change in cores,
// as its firing message prices it (the catalogue's query): gateway, at 4x
// auth's CPU per request against its usual 2x, spends 0.125 cores where its
// 16 req/s would cost 0.0625 at the usual ratio; proxy is at its usual
// ratio; young-gw has no usual ratio yet, so no figure.
func pricedUpstreamChange(g *group, at string, gateway, proxy service) {
	g.expr("the change priced: the CPU beyond the usual ratio to the upstream, at the current traffic",
		catalogueChange("CPUPerRequestAboveUpstream", 0), at,
		sample{labelString("", with(gateway.labels(), "upstream", "auth")), 0.0625},
		sample{labelString("", with(proxy.labels(), "upstream", "backend")), 0})
}

// catalogueChange is the change in cores an alert's firing message prices
// (catalogue/catalogue.json, `change`), for an alert that started at minute
// `startedAt` (its `{{at}}`, where it reads the past).
func catalogueChange(alert string, startedAt int) string {
	for _, a := range catalogueAlerts() {
		if a.Name == alert && a.Change != nil {
			return strings.ReplaceAll(a.Change.Cores, "{{at}}", fmt.Sprint(startedAt*60))
		}
	}
	fail(fmt.Errorf("catalogue/catalogue.json: no change for %s (run make generate)", alert))
	return ""
}
