package playground

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The playground's profiles-to-metrics bridge: hotpath-profile-metrics
// (notify/profile-metrics.mjs) reads each service's merged profile from the
// profile store and exports its cost by function, which Prometheus scrapes
// with honor_labels (the bridge names each row's service by its job), so the
// rule pack's function rules and FunctionCostPerRequestRegression run on the
// playground as on a cluster.

// ProfileMetricsJob is the bridge's scrape job (its own metrics carry it;
// its cost rows carry their service's job).
const ProfileMetricsJob = "hotpath-profile-metrics"

// DefaultProfileMetrics is the bridge's command; {profiles}, {addr} and
// {services} are replaced. --interval 15s: the scrape interval, so a
// function's rate moves as smoothly as the services' own counters.
// --services: the world's jobs, read from the start rather than listed.
const DefaultProfileMetrics = "node notify/profile-metrics.mjs --profiles {profiles} --listen {addr} --services {services} --interval 15s"

// Profile metric names: the rule pack's functionCpuMetric and
// functionAllocMetric (jsonnet/config.libsonnet), by profile type.
var profileCostMetrics = map[string]string{
	"cpu":         "hotpath_profile_cpu_seconds_total",
	"alloc_space": "hotpath_profile_alloc_bytes_total",
}

// profileCostSource is each profile type's whole-service counter of the
// same cost: a function's history is its share of it.
var profileCostSource = map[string]string{
	"cpu":         "process_cpu_seconds_total",
	"alloc_space": "go_memstats_alloc_bytes_total",
}

// functionSettle and functionMeasure: the history's function costs are
// measured over functionMeasure of live load, from functionSettle after the
// load starts: the bridge's windows end 30s (its --lag) before its rounds,
// every 15s, so from then on none holds a calibration rate.
const (
	functionSettle  = 50 * time.Second
	functionMeasure = 2 * time.Minute
)

func (w *World) profileMetricsAddr() string {
	return fmt.Sprintf("127.0.0.1:%d", w.Ports.ProfileMetrics)
}

// profileMetricsScrape is the bridge's scrape job: honor_labels keeps the
// job of each cost row (its service's), as the pack's rules join them.
func (w *World) profileMetricsScrape() string {
	return promkit.StaticJob(ProfileMetricsJob, []string{w.profileMetricsAddr()}, nil, true)
}

// startProfileMetrics starts the bridge against the profile store, reading
// every service of the world.
func (o *Orchestrator) startProfileMetrics(ctx context.Context) error {
	jobs := make([]string, len(o.World.Services))
	for i, s := range o.World.Services {
		jobs[i] = s.Job
	}
	addr := o.World.profileMetricsAddr()
	argv := Expand(strings.Fields(DefaultProfileMetrics), "{profiles}", o.World.ProfilesURL(), "{addr}", addr, "{services}", strings.Join(jobs, ","))
	proc, err := o.Sup.Start("profile-metrics", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/-/healthy", 60*time.Second); err != nil {
		return fmt.Errorf("hotpath-profile-metrics: %w", err)
	}
	o.Logf("    %-10s http://%s/metrics (hotpath-profile-metrics: cost by function from the profile store)", "bridge", addr)
	return nil
}

// FunctionCost is one row of the bridge (a service's function, or its
// `other`) and its cost per request, as the bridge exported it live.
type FunctionCost struct {
	Job, Function, ProfileType string
	PerRequest                 float64 // seconds or bytes per request
}

// measureFunctionCosts reads each row's cost per request as the bridge
// exported it over the live load since `since`: its share of its service's
// profile total (both read by the bridge, so the bridge's lag and windows
// cancel) times the service's cost per request from its own counters over
// the same range. The share, not the bridge's rate per request: the bridge's
// windows end --lag before each scrape, so its rate and the requests' would
// be of different minutes of a load that changes.
func measureFunctionCosts(ctx context.Context, prom *promkit.Client, since time.Duration) ([]FunctionCost, error) {
	r := fmt.Sprintf("%ds", int(since.Seconds()))
	var out []FunctionCost
	for typ, metric := range profileCostMetrics {
		q := fmt.Sprintf(`sum by (job, function) (increase(%[1]s[%[2]s]))
/ on (job) group_left ()
(sum by (job) (increase(%[1]s[%[2]s])) > 0)
* on (job) group_left ()
(sum by (job) (increase(%[3]s[%[2]s])) / (sum by (job) (increase(http_requests_total[%[2]s])) > 0))`, metric, r, profileCostSource[typ])
		samples, err := prom.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, s := range samples {
			out = append(out, FunctionCost{Job: s.Metric["job"], Function: s.Metric["function"], ProfileType: typ, PerRequest: s.Value})
		}
	}
	return out, nil
}

// functionCostsOf waits until the bridge has read `settle` of live load
// (windows that end --lag before its rounds: none of the calibration's
// rates), then measures every row over it. Each service with a profile must
// have rows of both types: without them its function alert would have no
// history to stand on.
func (o *Orchestrator) functionCostsOf(ctx context.Context, loadStart time.Time, settle, measure time.Duration) ([]FunctionCost, error) {
	from := loadStart.Add(settle)
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Until(from.Add(measure))):
	}
	costs, err := measureFunctionCosts(ctx, o.Prom, time.Since(from))
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, c := range costs {
		have[c.Job+" "+c.ProfileType] = true
	}
	var missing []string
	for _, s := range o.World.Services {
		for typ := range profileCostMetrics {
			if !have[s.Job+" "+typ] {
				missing = append(missing, s.Job+" "+typ)
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("hotpath-profile-metrics exported no cost for %s over %s of live load (its log: %s)", strings.Join(missing, ", "), measure, o.StatePath("logs", "profile-metrics.log"))
	}
	return costs, nil
}
