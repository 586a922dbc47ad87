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
	// Endpoints are the bridge's endpoint and instance rows of the services
	// with Endpoints (World.EndpointJobs), as measured over the same range.
	Endpoints []EndpointRow
}

// EndpointRow is one row of the bridge's endpoint or instance counters, with
// the labels of its live series (its job, its endpoint or instance, the
// bridge's instance), and what the history makes of it: a route's row costs
// PerRequest (seconds or bytes) for each request of Route, the route's own
// work; the others (`other`, `unlabelled`, the instance rows) have Share of
// their service's profile.
type EndpointRow struct {
	Metric, Job, ProfileType string
	Labels                   map[string]string
	Route                    string // "" for a row that is no route of the service's
	Share                    float64
	PerRequest               float64
	// Instance: a row of the instance counters, which add up to the whole
	// profile on their own, beside the endpoint rows.
	Instance bool
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

// Endpoint metric names by profile type: the rule pack's endpointCpuMetric
// and endpointAllocMetric, endpointInstanceCpuMetric and
// endpointInstanceAllocMetric (jsonnet/config/endpoints.libsonnet).
var (
	endpointCostMetrics = map[string]string{
		"cpu":         "hotpath_profile_endpoint_cpu_seconds_total",
		"alloc_space": "hotpath_profile_endpoint_alloc_bytes_total",
	}
	instanceCostMetrics = map[string]string{
		"cpu":         "hotpath_profile_instance_cpu_seconds_total",
		"alloc_space": "hotpath_profile_instance_alloc_bytes_total",
	}
)

// routeRequestsMetric and routeLabel: the per-route request counter the
// rule pack reads first (endpointRequestSources), as the demo services
// export it (demo/service/routes.go).
const (
	routeRequestsMetric = "http_server_request_duration_seconds_count"
	routeLabel          = "http_route"
)

// endpointOf is a route as the bridge and the rules name its endpoint
// (endpointRoutePattern: slashes at either end dropped, one put back).
func endpointOf(route string) string { return "/" + strings.Trim(strings.TrimSpace(route), "/") }

// measureEndpointCosts reads the bridge's endpoint and instance rows of jobs
// over the last `since`: each row's share of its service's profile (the
// bridge's windows end --lag before its rounds: shares, as the function
// rows'), and for a route's row its cost per request of the route, its
// share of the service's own cost counter over the route's own requests, over
// the same range.
func measureEndpointCosts(ctx context.Context, prom *promkit.Client, jobs []string, since time.Duration) ([]EndpointRow, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	r := fmt.Sprintf("%ds", int(since.Seconds()))
	sel := fmt.Sprintf("{job=~%q}", strings.Join(jobs, "|"))
	routeReq := map[string]float64{} // by job and endpoint
	samples, err := prom.Query(ctx, fmt.Sprintf("sum by (job, %s) (increase(%s%s[%s]))", routeLabel, routeRequestsMetric, sel, r))
	if err != nil {
		return nil, err
	}
	for _, s := range samples {
		routeReq[s.Metric["job"]+" "+endpointOf(s.Metric[routeLabel])] += s.Value
	}
	var out []EndpointRow
	for _, typ := range []string{"cpu", "alloc_space"} {
		cost := map[string]float64{}
		samples, err := prom.Query(ctx, fmt.Sprintf("sum by (job) (increase(%s%s[%s]))", profileCostSource[typ], sel, r))
		if err != nil {
			return nil, err
		}
		for _, s := range samples {
			cost[s.Metric["job"]] = s.Value
		}
		for _, m := range []string{endpointCostMetrics[typ], instanceCostMetrics[typ]} {
			samples, err := prom.Query(ctx, fmt.Sprintf("increase(%[1]s%[2]s[%[3]s])\n/ on (job) group_left ()\n(sum by (job) (increase(%[1]s%[2]s[%[3]s])) > 0)", m, sel, r))
			if err != nil {
				return nil, err
			}
			for _, s := range samples {
				row := EndpointRow{Metric: m, Job: s.Metric["job"], ProfileType: typ, Labels: s.Metric, Share: s.Value, Instance: m == instanceCostMetrics[typ]}
				if ep := s.Metric["endpoint"]; !row.Instance && strings.HasPrefix(ep, "/") {
					n := routeReq[row.Job+" "+ep]
					if !(n > 0 && cost[row.Job] > 0 && row.Share > 0) {
						// no sample or no request of the route in the range: it
						// has no reference (the rules judge it once it has one), as a
						// route without samples on its reference day on a cluster
						continue
					}
					row.Route, row.PerRequest = ep, row.Share*cost[row.Job]/n
				}
				out = append(out, row)
			}
		}
	}
	return out, nil
}

// EndpointJobs are the services whose history carries their endpoints.
func (w *World) EndpointJobs() []string {
	var out []string
	for _, s := range w.Services {
		if s.Endpoints {
			out = append(out, s.Job)
		}
	}
	return out
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
	since := time.Since(from)
	costs, err := measureFunctionCosts(ctx, b.Prom, since)
	if err != nil {
		return nil, err
	}
	if costs.Endpoints, err = measureEndpointCosts(ctx, b.Prom, b.World.EndpointJobs(), since); err != nil {
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
	// Each service with endpoints must have its main route's CPU per request
	// and its instance rows: without them its endpoint alert would have no
	// reference to stand on. Another route may have none: one that costs a
	// few microseconds (/healthz) can go two minutes without a CPU sample,
	// and then has no reference, as it would on a cluster. Allocations have
	// no route rows here: Go's heap profile carries no goroutine labels, so
	// all of a Go service's allocations are `unlabelled`.
	routes := map[string]bool{}
	for _, e := range costs.Endpoints {
		if e.Route != "" {
			routes[e.Job+" "+e.ProfileType+" "+e.Route] = true
		}
		if e.Instance {
			routes[e.Job+" "+e.ProfileType+" instance"] = true
		}
	}
	for _, s := range b.World.Services {
		if !s.Endpoints {
			continue
		}
		for typ := range profileCostMetrics {
			if r := endpointOf(s.Route); typ == "cpu" && !routes[s.Job+" "+typ+" "+r] {
				missing = append(missing, fmt.Sprintf("%s %s endpoint %s", s.Job, typ, r))
			}
			if !routes[s.Job+" "+typ+" instance"] {
				missing = append(missing, fmt.Sprintf("%s %s instance rows", s.Job, typ))
			}
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("hotpath-profile-metrics exported no cost for %s over %s of live load (its log: %s)", strings.Join(missing, ", "), measure, b.StatePath("logs", "profile-metrics.log"))
	}
	return costs, nil
}
