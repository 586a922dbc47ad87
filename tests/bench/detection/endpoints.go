//go:build bench

package detection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"

	"github.com/hotpath/hotpath/promkit/evaluate"
)

// The endpoint benchmark's fleet (`make bench-endpoints`): the detection
// fleet's services (diurnal traffic, fixed cost, noise minute to minute and
// lasting, deploys, traffic doublings), each serving 2 to 6 routes of
// different cost per request (log-uniform over 50x) whose traffic shares
// drift over the day (each route's share swings by up to ±50% on a daily
// cycle of its own phase: the mix moves every day). The routes' per-route
// request counters (OpenTelemetry's http_route) and hotpath-profile-metrics'
// endpoint rows, CPU seconds sampled at 100 Hz per route, the fixed cost in
// endpoint="unlabelled", and its instance row (the whole profile, from the
// service's one instance). Three kinds of service: one route whose cost per
// request rises (adding +2%, +5%, +10% or +20% to the service's CPU per
// request at its mean mix), a mix change (the most expensive route's
// traffic grows until the routes' mean cost per request is +10%, +20% or
// +50%, or until it serves 90% of the requests; every route at its own
// cost, the service's CPU per request moving less: its fixed part stays),
// and clean ones.

// EndpointSizes are the route regressions injected, as a factor on the
// service's CPU per request at its mean traffic and mix.
var EndpointSizes = []float64{1.02, 1.05, 1.1, 1.2}

// MixSizes are the mix changes injected, as the same factor.
var MixSizes = []float64{1.1, 1.2, 1.5}

// KindMix is a service whose traffic mix changes at its onset (no code changes).
const KindMix = "mix"

// route is one route of a service: its cost per request (CPU seconds), its
// mean share of the service's requests, and its share's daily swing.
type route struct {
	name          string
	cost, share   float64
	swing, phaseH float64
}

// EndpointService is a service of the endpoint fleet.
type EndpointService struct {
	Service
	routes   []route
	Route    int     // the regressed route (a regression), the grown one (a mix change)
	factor   float64 // the regressed route's cost per request, or the grown route's share, after the onset, times its own
	MixSize  float64 // a mix change's size (its Kind is "": no code regression to detect)
	unlabels float64 // the unlabelled share of the marginal cost (work outside a handler's labels)
}

// EndpointFleet builds the fleet: perCell services per regression size and
// per mix size, their onsets spread over the day's hours, then cleanN
// clean ones.
func EndpointFleet(seed uint64, perCell, cleanN int) []EndpointService {
	rng := rand.New(rand.NewPCG(seed, 23))
	var out []EndpointService
	n := 0
	add := func(kind string, size, mix float64) {
		s := EndpointService{Service: randomService(rng, fmt.Sprintf("svc-%03d", len(out)), seed), MixSize: mix, unlabels: 0.1 * rng.Float64()}
		k := 2 + rng.IntN(5)
		var sum, cost float64
		for i := range k {
			r := route{name: fmt.Sprintf("/r%d", i), cost: logUniform(rng, 1, 50), share: 0.2 + rng.Float64(), swing: 0.5 * rng.Float64(), phaseH: 24 * rng.Float64()}
			s.routes = append(s.routes, r)
			sum += r.share
		}
		for i := range s.routes {
			s.routes[i].share /= sum
			cost += s.routes[i].share * s.routes[i].cost
		}
		// the routes' costs scaled so their mean over the mean mix is the
		// service's marginal cost (less the unlabelled part)
		for i := range s.routes {
			s.routes[i].cost *= s.cpuPerReq * (1 - s.unlabels) / cost
		}
		if kind != "" || mix > 0 {
			s.OnsetHour = OnsetHours[(n*7)%len(OnsetHours)]
			n++
			s.Onset = onsetDay + time.Duration(s.OnsetHour)*time.Hour + time.Duration(rng.IntN(60))*time.Minute
		}
		meanTraffic := s.peak * (s.low + (1-s.low)/2)
		perRequest := s.fixedCPU/meanTraffic + s.cpuPerReq
		switch {
		case kind != "":
			// the route that must rise nearest twofold to add the size (one that doubles)
			s.Kind, s.Size = kind, size
			best := math.Inf(1)
			for i, r := range s.routes {
				f := 1 + (size-1)*perRequest/(r.share*r.cost)
				if d := math.Abs(math.Log(f / 2)); d < best {
					best, s.Route, s.factor = d, i, f
				}
			}
		case mix > 0:
			// the most expensive route grows its share until the routes'
			// mean cost per request is mix times its own, or until it
			// serves 90% of the requests (two routes of near costs cannot
			// move the mean that far)
			for i, r := range s.routes {
				if r.cost > s.routes[s.Route].cost {
					s.Route = i
				}
			}
			s.factor = s.mixFactor(mix * s.meanRouteCost())
		}
		out = append(out, s)
	}
	for _, size := range EndpointSizes {
		for range perCell {
			add(KindCPU, size, 0)
		}
	}
	for _, mix := range MixSizes {
		for range perCell {
			add("", 0, mix)
		}
	}
	for range cleanN {
		add("", 0, 0)
	}
	return out
}

// meanRouteCost is the routes' cost per request at their mean mix.
func (s EndpointService) meanRouteCost() float64 {
	c := 0.0
	for _, r := range s.routes {
		c += r.share * r.cost
	}
	return c
}

// mixFactor is the factor on the grown route's share (the others renormalised)
// that makes the routes' mean cost per request want (bisection: it rises
// with the factor, the route being the most expensive), at most the one
// that gives it 90% of the requests.
func (s EndpointService) mixFactor(want float64) float64 {
	at := func(g float64) float64 {
		sum, c := 0.0, 0.0
		for i, r := range s.routes {
			w := r.share
			if i == s.Route {
				w *= g
			}
			sum += w
			c += w * r.cost
		}
		return c / sum
	}
	share := s.routes[s.Route].share
	lo, hi := 1.0, 9*(1-share)/share
	if at(hi) < want {
		return hi
	}
	for range 100 {
		mid := math.Sqrt(lo * hi)
		if at(mid) < want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// shares fills w with the routes' shares of the requests at d: each route's
// mean share times its daily swing, the grown route's after a mix change's
// onset times the factor, normalised.
func (s EndpointService) shares(w []float64, d time.Duration) {
	h := math.Mod(d.Hours(), 24)
	sum := 0.0
	for i, r := range s.routes {
		w[i] = r.share * (1 + r.swing*math.Cos(2*math.Pi*(h-r.phaseH)/24))
		if s.MixSize > 0 && i == s.Route && d >= s.Onset {
			w[i] *= s.factor
		}
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
}

// endpointMinute is one minute of a service: its requests and CPU in all,
// each route's requests and CPU, and the unlabelled CPU, per second.
type endpointMinute struct {
	minute
	routeReq, routeCPU []float64
	unlabelled         float64
}

// Minutes are the service's rates minute by minute: the detection fleet's
// traffic and noise (Service.Minutes of the clean service), split over the
// routes at the minute's mix, each at its cost (the regressed one's times
// its factor after the onset); the fixed cost and the unlabelled share of
// the marginal one in `unlabelled`. The service's CPU is their sum.
func (s EndpointService) Minutes(rng *rand.Rand) []endpointMinute {
	base := s.Service
	base.Kind = ""
	ms := base.Minutes(rng)
	out := make([]endpointMinute, len(ms))
	w := make([]float64, len(s.routes))
	for i, m := range ms {
		d := time.Duration(i) * time.Minute
		// the minute's noise, warm-up and all: the CPU Service.Minutes drew over its clean line
		noise := m.cpu / (s.fixedCPU + s.cpuPerReq*m.req)
		s.shares(w, d)
		e := endpointMinute{minute: m, routeReq: make([]float64, len(s.routes)), routeCPU: make([]float64, len(s.routes))}
		e.unlabelled = (s.fixedCPU + s.unlabels*s.cpuPerReq*m.req) * noise
		e.cpu = e.unlabelled
		for k, r := range s.routes {
			// counting noise per route: a Poisson count over the minute
			req := m.req * w[k]
			req = math.Max(0, req*(1+rng.NormFloat64()/math.Sqrt(math.Max(req*60, 1))))
			c := r.cost
			if s.Kind != "" && k == s.Route && d >= s.Onset {
				c *= s.factor
			}
			e.routeReq[k], e.routeCPU[k] = req, req*c*noise
			e.cpu += e.routeCPU[k]
		}
		out[i] = e
	}
	return out
}

// Series are the service's own counters, its routes' request counters,
// and from profilesFrom the bridge's endpoint rows of CPU, drawn each
// minute at 100 Hz per route, and its instance row, their sum (a deploy's
// missed minute has no samples; the counters restart at a deploy, the rows
// do not: the bridge keeps counting).
func (s EndpointService) Series(start time.Time, rng *rand.Rand) []evaluate.Series {
	ms := s.Minutes(rng)
	plain := make([]minute, len(ms))
	for i, m := range ms {
		plain[i] = m.minute
	}
	out := s.seriesOf(start, plain)
	for k, r := range s.routes {
		x := evaluate.Series{Labels: labels.FromStrings("__name__", "http_server_request_duration_seconds_count", "job", s.Job, "instance", "i1", "http_route", r.name)}
		v := 1000.0
		for i, m := range ms {
			d := time.Duration(i) * time.Minute
			if since, ok := s.sinceDeploy(d); ok && since < deployGap {
				v = 0
				continue
			}
			x.T = append(x.T, start.Add(d).UnixMilli())
			x.V = append(x.V, math.Round(v*1000)/1000)
			v += 60 * m.routeReq[k]
		}
		out = append(out, x)
	}
	names := make([]string, 0, len(s.routes)+2)
	for _, r := range s.routes {
		names = append(names, r.name)
	}
	names = append(names, "unlabelled", "other")
	totals := make([]int64, len(names))
	rows := make([]evaluate.Series, len(names)+1)
	for k, name := range names {
		rows[k].Labels = labels.FromStrings("__name__", "hotpath_profile_endpoint_cpu_seconds_total", "job", s.Job, "endpoint", name, "instance", "bridge:9096")
	}
	rows[len(names)].Labels = labels.FromStrings("__name__", "hotpath_profile_instance_cpu_seconds_total", "job", s.Job, "instance", "i1")
	for i := int(profilesFrom / time.Minute); i < len(ms); i++ {
		at := start.Add(time.Duration(i) * time.Minute).UnixMilli()
		all := int64(0)
		for k := range names {
			rows[k].T = append(rows[k].T, at)
			rows[k].V = append(rows[k].V, float64(totals[k])/CPUSampleHz)
			all += totals[k]
		}
		rows[len(names)].T = append(rows[len(names)].T, at)
		rows[len(names)].V = append(rows[len(names)].V, float64(all)/CPUSampleHz)
		d := time.Duration(i) * time.Minute
		if since, ok := s.sinceDeploy(d); ok && since < deployGap {
			continue
		}
		for k := range s.routes {
			totals[k] += Poisson(rng, ms[i].routeCPU[k]*60*CPUSampleHz)
		}
		totals[len(s.routes)] += Poisson(rng, ms[i].unlabelled*60*CPUSampleHz)
	}
	return append(out, rows...)
}

// The endpoint benchmark's detector beside DetectorService.
const DetectorEndpoint = "endpoint" // EndpointCostPerRequestRegression, as shipped

const endpointAlert = "EndpointCostPerRequestRegression"

// endpointConditions records EndpointCostPerRequestRegression's condition,
// labelled with the detector (its own labels: job, endpoint, profile_type).
// The endpoint judge models no hold branch: an alert with one is refused.
func endpointConditions(groups []rulefmt.RuleGroup) (rulefmt.RuleGroup, error) {
	return alertConditions(DetectorEndpoint, endpointAlert, groups, false)
}

// regressedRoute is the judge's key of a service's regressed route.
func regressedRoute(fleet []EndpointService) func(Service) string {
	by := map[string]string{}
	for _, s := range fleet {
		by[s.Job] = s.Kind + "/" + s.routes[s.Route].name
	}
	return func(s Service) string { return by[s.Job] }
}

// services are the fleet's services that pick picks.
func services(fleet []EndpointService, pick func(EndpointService) bool) []Service {
	var out []Service
	for _, s := range fleet {
		if pick(s) {
			out = append(out, s.Service)
		}
	}
	return out
}
