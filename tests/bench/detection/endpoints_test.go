//go:build bench

package detection

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/tests/harness"
)

var (
	endpointPerCellFlag = flag.Int("endpoint-per-cell", 6, "bench-endpoints: services per regression size and per mix size (their onsets spread over the day)")
	endpointCleanFlag   = flag.Int("endpoint-clean", 6, "bench-endpoints: clean services")
)

// TestBenchEndpoints judges the endpoint alert beside the service alerts on
// one fleet with per-route traffic mixes, route regressions and mix
// changes; writes BENCH_OUT (tests/bench/RESULTS-endpoints.md).
func TestBenchEndpoints(t *testing.T) {
	began := time.Now()
	h := newHistory(t, *keepFlag)

	shipped := harness.ShippedRules(t)
	service, err := conditions(DetectorService, shipped)
	if err != nil {
		t.Fatal(err)
	}
	endpoint, err := endpointConditions(shipped)
	if err != nil {
		t.Fatal(err)
	}
	conds := []rulefmt.RuleGroup{service, endpoint}
	groups := recorded(t, recordingGroups(shipped), conds)

	end := time.Now().Truncate(time.Hour).Add(-time.Hour)
	start := end.Add(-days * 24 * time.Hour)
	seed := seeds(t)[0]
	fleet := EndpointFleet(seed, *endpointPerCellFlag, *endpointCleanFlag)
	rng := rand.New(rand.NewPCG(seed, 29))
	for _, s := range fleet {
		h.write(s.Series(start, rng))
	}
	t.Logf("fleet: seed %d, %d services, %d days, %.1fM samples", seed, len(fleet), days, float64(h.samples)/1e6)
	raw := time.Since(began)
	h.record(groups, start, end.Add(-time.Minute))
	backfilled := time.Since(began)
	h.finish(start)
	p := h
	// the fleet's endpoint rows are CPU only, and an instance restarts only at a deploy
	checkRecorded(t, p, withoutSparse(groups), start, start.Add(onsetDay+12*time.Hour))
	seen := map[string]map[string]map[string]Seen{
		DetectorService:  readSeen(t, p, DetectorService, start, end, func(labels map[string]string) string { return labels["kind"] }),
		DetectorEndpoint: readSeen(t, p, DetectorEndpoint, start, end, alertKey("endpoint")),
	}
	keys := map[string]func(Service) string{
		DetectorService:  func(s Service) string { return s.Kind },
		DetectorEndpoint: regressedRoute(fleet),
	}
	run := endpointRun{fleet: fleet, seed: seed, regressions: map[string]Verdict{}, clean: map[string]Verdict{}, mixes: map[string]map[float64]Verdict{}}
	for _, d := range []string{DetectorService, DetectorEndpoint} {
		run.regressions[d] = judgeBy(services(fleet, func(s EndpointService) bool { return s.Kind != "" }), EndpointSizes, seen[d], keepFor[d], keys[d])
		run.clean[d] = judgeBy(services(fleet, func(s EndpointService) bool { return s.Kind == "" && s.MixSize == 0 }), EndpointSizes, seen[d], keepFor[d], keys[d])
		run.mixes[d] = map[float64]Verdict{}
		for _, m := range MixSizes {
			run.mixes[d][m] = judgeBy(services(fleet, func(s EndpointService) bool { return s.MixSize == m }), EndpointSizes, seen[d], keepFor[d], keys[d])
		}
	}
	run.info = newRunInfo(raw, backfilled-raw, time.Since(began))
	writeReport(t, renderEndpoints(run))
}

// endpointRun is what one run of the endpoint benchmark judged, by detector.
type endpointRun struct {
	fleet       []EndpointService
	seed        uint64
	regressions map[string]Verdict             // the route regressions (false alarms: before their onsets)
	clean       map[string]Verdict             // the clean services
	mixes       map[string]map[float64]Verdict // the mix changes, by size (every firing a false alarm)
	info        runInfo
}

var endpointDetectorNames = map[string]string{DetectorService: "service alerts", DetectorEndpoint: "endpoint alert"}

// renderEndpoints writes RESULTS-endpoints.md.
func renderEndpoints(run endpointRun) string {
	var b strings.Builder
	b.WriteString(run.info.heading("Endpoint regression benchmark", "`make bench-endpoints` (tests/bench/detection, `endpoints*.go`)"))
	routes := 0
	for _, s := range run.fleet {
		routes += len(s.routes)
	}
	fmt.Fprintf(&b, "**The fleet** (seed %d, `endpoints.go`): %d services over %d days, one sample a minute, in the real Prometheus; the rules evaluated over those days by `promtool tsdb create-blocks-from rules`, as `make bench-detection` does (RESULTS-detection.md: the same traffic, fixed and marginal costs, noise, deploys and traffic doublings). "+
		"Each service serves 2 to 6 routes (%d in all) whose costs per request differ up to 50x and whose shares of its requests swing by up to ±50%% on a daily cycle of their own: the mix moves every day. "+
		"Its per-route request counters (`http_server_request_duration_seconds_count{http_route}`, OpenTelemetry's) and, from hour %d, hotpath-profile-metrics' endpoint rows: each route's CPU sampled at %d Hz each minute, the fixed cost and up to 10%% of the marginal one in `unlabelled`, and the instance row of its one instance. A deploy a day restarts it: its counters lose two minutes, its profile one, and it costs 1.5x for 8 minutes.\n\n",
		run.seed, len(run.fleet), days, routes, int(profilesFrom.Hours()), CPUSampleHz)
	fmt.Fprintf(&b, "**Injected**, at a random minute of an onset hour of day 4 (hours spread over the day), to the end: **route regressions**, one route's CPU per request rising so that the service's CPU per request (at its mean traffic and mix) is +2%%, +5%%, +10%% or +20%% (the route that must about double to add it); **mix changes**, the most expensive route's traffic growing until the routes' mean CPU per request is +10%%, +20%% or +50%% (or that route serves 90%% of the requests; the service's CPU per request, fixed part included, moves less), every route at its own cost; and clean services. %d per size, %d clean.\n\n",
		*endpointPerCellFlag, *endpointCleanFlag)
	b.WriteString("**Judged** as in RESULTS-detection.md, the alerts' `for:` and `keep_firing_for` applied. Detected: the service alert of CPU, or **the endpoint alert naming the regressed route**, fires at or after the onset. False alarm: any firing of the detector's alerts on a clean service, on a regressed one before its onset, and on a mix change at any time (no code changed).\n\n")

	b.WriteString("## Route regressions: detected within an hour / by the end, median time to detect\n\n")
	b.WriteString("| the service's CPU per request | " + endpointDetectorNames[DetectorService] + " | " + endpointDetectorNames[DetectorEndpoint] + " |\n|---|---|---|\n")
	for _, size := range EndpointSizes {
		row := fmt.Sprintf("| +%.0f%% |", (size-1)*100)
		for _, d := range []string{DetectorService, DetectorEndpoint} {
			c := run.regressions[d].Cells[KindCPU][size]
			ttd := "-"
			if c.Detected > 0 {
				ttd = c.MedianTTD().Round(time.Minute).String()
			}
			row += fmt.Sprintf(" %d/%d / %d/%d, %s |", c.WithinHour, c.Injected, c.Detected, c.Injected, strings.TrimSuffix(ttd, "0s"))
		}
		b.WriteString(row + "\n")
	}
	b.WriteString("\n## False alarms\n\n| services | service-days judged | " + endpointDetectorNames[DetectorService] + " | " + endpointDetectorNames[DetectorEndpoint] + " |\n|---|---:|---:|---:|\n")
	line := func(name string, v map[string]Verdict) {
		fmt.Fprintf(&b, "| %s | %.1f | %d | %d |\n", name, v[DetectorEndpoint].CleanDays, v[DetectorService].FalseAlarms, v[DetectorEndpoint].FalseAlarms)
	}
	line("clean", run.clean)
	line("route regressions, before their onsets", run.regressions)
	for _, m := range MixSizes {
		line(fmt.Sprintf("mix change, routes' mean CPU per request +%.0f%% (at most)", (m-1)*100), map[string]Verdict{DetectorService: run.mixes[DetectorService][m], DetectorEndpoint: run.mixes[DetectorEndpoint][m]})
	}
	b.WriteString("\nA mix change's firings of the service alerts are the service getting more expensive per request with no code changed: the endpoint alert stays silent and hotpath-notify's message says it was the mix.\n\n")

	b.WriteString("## Smallest regression caught within the hour\n\n")
	for _, d := range []string{DetectorService, DetectorEndpoint} {
		smallest := "none"
		for _, size := range EndpointSizes {
			c := run.regressions[d].Cells[KindCPU][size]
			if c.Injected > 0 && c.WithinHour == c.Injected {
				smallest = fmt.Sprintf("+%.0f%% of the service's CPU per request (every onset hour)", (size-1)*100)
				break
			}
		}
		falseAlarms := run.clean[d].FalseAlarms + run.regressions[d].FalseAlarms
		for _, m := range MixSizes {
			falseAlarms += run.mixes[d][m].FalseAlarms
		}
		fmt.Fprintf(&b, "- %s: %s; %d false alarms in all.\n", endpointDetectorNames[d], smallest, falseAlarms)
	}
	b.WriteString("\n## Each regressed service\n\n| service | routes | regressed route: its share of requests, its factor | size | onset hour | " + endpointDetectorNames[DetectorService] + ": TTD | " + endpointDetectorNames[DetectorEndpoint] + ": TTD |\n|---|---:|---|---:|---:|---|---|\n")
	for _, s := range run.fleet {
		if s.Kind == "" {
			continue
		}
		ttd := func(d string) string {
			for _, h := range run.regressions[d].Cells[KindCPU][s.Size].Held {
				if h.Job == s.Job {
					if h.WithinHour {
						return "within the hour"
					}
					if h.Coverage > 0 {
						return fmt.Sprintf("later (%.0f%% of its first day)", h.Coverage*100)
					}
					return "-"
				}
			}
			return "-"
		}
		r := s.routes[s.Route]
		fmt.Fprintf(&b, "| %s | %d | %s: %.0f%%, x%.2f | +%.0f%% | %02d | %s | %s |\n", s.Job, len(s.routes), r.name, r.share*100, s.factor, (s.Size-1)*100, s.OnsetHour, ttd(DetectorService), ttd(DetectorEndpoint))
	}
	falseJobs := map[string]bool{}
	for _, v := range append([]Verdict{run.clean[DetectorEndpoint], run.regressions[DetectorEndpoint]}, mapValues(run.mixes[DetectorEndpoint])...) {
		for j := range v.FalseByJob {
			falseJobs[j] = true
		}
	}
	if len(falseJobs) > 0 {
		jobs := make([]string, 0, len(falseJobs))
		for j := range falseJobs {
			jobs = append(jobs, j)
		}
		slices.Sort(jobs)
		fmt.Fprintf(&b, "\nServices where the endpoint alert fired falsely: %s.\n", strings.Join(jobs, ", "))
	}
	return b.String()
}

// withoutSparse are groups without the rules the fleet may leave empty at
// any hour: the endpoint rules of allocations (its endpoint rows are CPU
// only), and the instances that restarted lately (a deploy a day).
func withoutSparse(groups []rulefmt.RuleGroup) []rulefmt.RuleGroup {
	out := make([]rulefmt.RuleGroup, 0, len(groups))
	for _, g := range groups {
		g.Rules = slices.DeleteFunc(slices.Clone(g.Rules), func(r rulefmt.Rule) bool {
			return strings.HasPrefix(r.Record, "job_endpoint:alloc_bytes") || strings.HasPrefix(r.Record, "job:endpoint_alloc_bytes") || r.Record == "job:alloc_bytes_unlabelled_share:ratio_rate5m" ||
				r.Record == "instance:route_requests:restarted"
		})
		out = append(out, g)
	}
	return out
}

func mapValues(m map[float64]Verdict) []Verdict {
	var out []Verdict
	for _, k := range MixSizes {
		out = append(out, m[k])
	}
	return out
}
