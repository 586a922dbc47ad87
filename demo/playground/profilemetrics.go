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
func (p *Processes) startProfileMetrics(ctx context.Context) error {
	jobs := make([]string, len(p.World.Services))
	for i, s := range p.World.Services {
		jobs[i] = s.Job
	}
	addr := p.World.profileMetricsAddr()
	argv := Expand(strings.Fields(DefaultProfileMetrics), "{profiles}", p.World.ProfilesURL(), "{addr}", addr, "{services}", strings.Join(jobs, ","))
	proc, err := p.Sup.Start("profile-metrics", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+addr+"/-/healthy", 60*time.Second); err != nil {
		return fmt.Errorf("hotpath-profile-metrics: %w", err)
	}
	p.Logf("    %-10s http://%s/metrics (hotpath-profile-metrics: cost by function from the profile store)", "bridge", addr)
	return nil
}

// FunctionCosts are the bridge's rows as measured over live load: each
// row's share of its service's profile (both read by the bridge, so its lag
// and windows cancel), each service's cost per request from its own
// counters, and each instance's request rate, over the same range.
type FunctionCosts struct {
	Rows []FunctionShare
	// PerRequest is the live cost per request by job and profile type
	// ("api cpu": seconds; "api alloc_space": bytes).
	PerRequest map[string]float64
	// Rates are the live requests per second by instance.
	Rates map[string]float64
}

// FunctionShare is one row of the bridge (a service's function, or its
// `other`) and its share of the service's profile. Origin is the row's
// `origin` label ("runtime", "profiler"; "" for the service's own code).
type FunctionShare struct {
	Job, Function, ProfileType, Origin string
	Share                              float64
}

// measureFunctionCosts reads the bridge's rows and their services' costs
// over the last `since`. Shares, not the bridge's rate per request: the
// bridge's windows end --lag before each scrape, so its rate and the
// requests' would be of different minutes of a load that changes.
func measureFunctionCosts(ctx context.Context, prom *promkit.Client, since time.Duration) (*FunctionCosts, error) {
	r := fmt.Sprintf("%ds", int(since.Seconds()))
	out := &FunctionCosts{PerRequest: map[string]float64{}, Rates: map[string]float64{}}
	query := func(q string, each func(s promkit.Sample)) error {
		samples, err := prom.Query(ctx, q)
		for _, s := range samples {
			each(s)
		}
		return err
	}
	for typ, metric := range profileCostMetrics {
		err := query(fmt.Sprintf("sum by (job, function, origin) (increase(%[1]s[%[2]s]))\n/ on (job) group_left ()\n(sum by (job) (increase(%[1]s[%[2]s])) > 0)", metric, r), func(s promkit.Sample) {
			out.Rows = append(out.Rows, FunctionShare{Job: s.Metric["job"], Function: s.Metric["function"], ProfileType: typ, Origin: s.Metric["origin"], Share: s.Value})
		})
		if err != nil {
			return nil, err
		}
		err = query(fmt.Sprintf("sum by (job) (increase(%[1]s[%[2]s]))\n/ (sum by (job) (increase(http_requests_total[%[2]s])) > 0)", profileCostSource[typ], r), func(s promkit.Sample) {
			out.PerRequest[s.Metric["job"]+" "+typ] = s.Value
		})
		if err != nil {
			return nil, err
		}
	}
	err := query(fmt.Sprintf("sum by (instance) (rate(http_requests_total[%s]))", r), func(s promkit.Sample) { out.Rates[s.Metric["instance"]] = s.Value })
	return out, err
}

// functionCostsOf waits until the bridge has read `measure` of live load
// from `settle` after its start (windows that end --lag before its rounds:
// none of the calibration's rates), then measures over it. Each service
// must have rows and a cost per request of both types: without them its
// function alert would have no history to stand on.
func (b *Backfiller) functionCostsOf(ctx context.Context, loadStart time.Time, settle, measure time.Duration) (*FunctionCosts, error) {
	from := loadStart.Add(settle)
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Until(from.Add(measure))):
	}
	costs, err := measureFunctionCosts(ctx, b.Prom, time.Since(from))
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, c := range costs.Rows {
		have[c.Job+" "+c.ProfileType] = costs.PerRequest[c.Job+" "+c.ProfileType] > 0
	}
	var missing []string
	for _, s := range b.World.Services {
		for typ := range profileCostMetrics {
			if !have[s.Job+" "+typ] {
				missing = append(missing, s.Job+" "+typ)
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("hotpath-profile-metrics exported no cost for %s over %s of live load (its log: %s)", strings.Join(missing, ", "), measure, b.StatePath("logs", "profile-metrics.log"))
	}
	return costs, nil
}
