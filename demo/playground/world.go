// Package playground composes the demo's building blocks into the world that
// `make demo` runs and `make demo-test` (demo/demotest) asserts on: the services, cAdvisor's
// container exporter, the profile store, a real Prometheus loaded with the
// rule pack, a day of backfilled history, the load generator, the incident
// schedule and the live status table.
package playground

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"

	"github.com/hotpath/hotpath/demo/catalogue"
	"github.com/hotpath/hotpath/promkit"
)

// Service is one job of the world: one or more instances of a demo-service.
type Service struct {
	Job  string // the job label, as Prometheus's scrape configuration sets it
	Kind string // the demo-service subcommand
	// Route is what the load generator requests; empty for a service that
	// only its peers call (the cache).
	Route string
	// Load is the load generator's rate spec per instance (load.ParseRate);
	// the history uses the same shape, so the live series continue it.
	Load string
	// OtherRoutes are further routes the load generator requests on each
	// instance, each at its own rate (the shop's /healthz beside /search):
	// a service's traffic mix is what its routes' rates make it.
	OtherRoutes []RouteLoad
	// Endpoints: the history carries the service's per-route request
	// counters and the bridge's endpoint rows, so the endpoint rules have a
	// reference day for it and judge it live. The other services' routes are
	// one each, where an endpoint is its service.
	Endpoints bool
	Instances []Instance
	// Story is the incident the service reproduces, by its catalogue name
	// ("" for none).
	Story string
	// Cgroup, when set, runs the service in its own cgroup v1 cpu group.
	Cgroup *CgroupSpec
	// Labels are extra target labels (namespace/pod for the join with
	// cAdvisor's container series and kube-state-metrics' images).
	Labels map[string]string
	// Args are extra demo-service flags; "{cache}" is replaced by the cache's URL.
	Args []string
	// Quiet sends stdout to /dev/null (the api prints every message in its incident).
	Quiet bool
	// Healthy services must never fire a hotpath alert (demo-test asserts it).
	Healthy bool
}

// RouteLoad is one route of a service and the load generator's rate spec on
// it per instance.
type RouteLoad struct {
	Path, Load string
}

// Routes are the service's loaded routes, Route first.
func (s *Service) Routes() []RouteLoad {
	if s.Route == "" {
		return nil
	}
	return append([]RouteLoad{{Path: s.Route, Load: s.Load}}, s.OtherRoutes...)
}

// Instance is one process of a service.
type Instance struct {
	Port int
}

// CgroupSpec is the service's pod/container group, as the kubelet lays them out.
type CgroupSpec struct {
	Pod, Container string
	CPUs           float64 // CFS quota in cores; 0 for none
	Shares         int     // cpu.shares; 0 for the default
}

// Name is the group's path below the parent, e.g. worker-0/worker.
func (c *CgroupSpec) Name() string { return c.Pod + "/" + c.Container }

// Addr is the instance's listen address (and its instance label).
func (i Instance) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(i.Port)) }

// URL is the instance's base URL.
func (i Instance) URL() string { return "http://" + i.Addr() }

// Ports are the world's fixed processes besides the services.
type Ports struct {
	Prometheus, Exporter, Profiles, Sandbox int
	// KubeState is the kube-state-metrics stand-in's (deploy.go).
	KubeState int
	// ProfileMetrics is the profiles-to-metrics bridge (profilemetrics.go).
	ProfileMetrics int
	// The alert path (alerting.go).
	Alertmanager, Notify, SlackSink int
	// Thanos's processes, used only when World.Thanos (thanos.go).
	Thanos ThanosPorts
}

// World is everything the orchestrator starts.
type World struct {
	Services []*Service
	Ports    Ports
	// Thanos runs the rule pack on Thanos Ruler through Thanos Query, with
	// a sidecar on Prometheus (thanos.go); false: inside Prometheus.
	Thanos bool
	// Namespace is the namespace label of the cgroup'ed pods (cAdvisor's
	// exporter and the scrape configuration's target labels agree on it).
	Namespace string
	// CgroupParent is the directory under each cgroup hierarchy that holds
	// the world's groups (cleaned at start and at exit).
	CgroupParent string
	// CgroupParentShares is the parent's cpu.shares, the weight of all the
	// world's groups against the demo's other processes (cgroup.SetParentShares).
	CgroupParentShares int
	// OutlierInstance is the instance that gets extra CPU per request in the
	// outlier incident; OutlierExtraCPU how much.
	OutlierJob      string
	OutlierInstance int
	OutlierExtraCPU string
	// TrafficStepJob is demo-test's benign change: when the incidents start,
	// a second load generator doubles this healthy service's constant traffic
	// and nothing else changes. No alert may fire for it, and the panel's
	// diff must read "load", not "per request" (the negative case of the
	// per-request split).
	TrafficStepJob string
	// MixChange is the traffic-mix change of the endpoint story: from the
	// live start, a second load generator adds its rate on one route of its
	// service (the shop's cheap /healthz), the code unchanged. No endpoint
	// alert may name a route for it: each route's cost is divided by its own
	// requests.
	MixChange *MixChange
	// Alertmanager is the address Prometheus sends alerts to, once the
	// alert path runs (alerting.go); "" before.
	Alertmanager string
}

// MixChange is a route whose traffic grows by Rate (a constant, per
// instance) while the run is live.
type MixChange struct {
	Job, Route, Rate string
}

// Namespace of the demo's pods; also cAdvisor exporter's default.
const demoNamespace = "hotpath-demo"

// DefaultWorld is the process layout of demo/README.md ("For the
// orchestration phase"), on its well-known ports. port(n) maps a default port
// to the one used (identity for `make demo`, free ports for demo-test).
func DefaultWorld(port func(int) int, cgroupParent string) *World {
	one := func(p int) []Instance { return []Instance{{Port: port(p)}} }
	w := &World{
		Namespace:    demoNamespace,
		CgroupParent: cgroupParent,
		// 4 cores' worth against the demo's other processes (1024 each in the
		// root group): on a machine busy with a dozen of them the worker still
		// gets more CPU than its 0.2-core quota, so the quota is what throttles
		// it. The same weight would let the spinning poller take a core from
		// the healthy services (shares only divide a busy CPU), so its pod has
		// a limit, as a pod in a cluster would.
		CgroupParentShares: 4096,
		Ports: Ports{
			Prometheus: port(9090), Exporter: port(9180), Profiles: port(9190), Sandbox: port(9300), KubeState: port(9181),
			Alertmanager: port(9093), Notify: port(9095), SlackSink: port(9096), ProfileMetrics: port(9097),
			Thanos: defaultThanosPorts(port),
		},
		OutlierJob:      "catalog",
		OutlierInstance: 2,
		OutlierExtraCPU: "2ms",
		TrafficStepJob:  "control",
		// /healthz from 12 to 48 req/s: the shop's requests grow 2.6-fold
		// while its CPU barely moves, so its CPU per request falls
		MixChange: &MixChange{Job: "shop", Route: "/healthz", Rate: "36"},
	}
	w.Services = []*Service{
		{Job: "cache", Kind: "cache", Instances: one(9102), Healthy: true},
		{Job: "api", Kind: "api", Route: "/emoji", Load: "sine:8:40:20m", Instances: one(9101), Story: "println",
			Args: []string{"-cache-url", "{cache}", "-edge-client", "api", "-edge-server", "cache"}, Quiet: true},
		{Job: "poller", Kind: "poller", Route: "/events", Load: "sine:5:50:20m", Instances: one(9103), Story: "epoll",
			// 0.4 cores: its busy loop holds CPU flat above
			// notTrackingLoadMinCores (0.25) without making a 2-core machine
			// short of CPU, which makes every healthy service dearer per request
			Cgroup: &CgroupSpec{Pod: "poller-0", Container: "poller", CPUs: 0.4, Shares: 128},
			Labels: map[string]string{"namespace": demoNamespace, "pod": "poller-0"}},
		{Job: "worker", Kind: "worker", Route: "/builds", Load: "3", Instances: one(9104), Story: "cfs",
			Cgroup: &CgroupSpec{Pod: "worker-0", Container: "worker", CPUs: 0.2},
			Labels: map[string]string{"namespace": demoNamespace, "pod": "worker-0"}},
		{Job: "gzipper", Kind: "gzipper", Route: "/flags", Load: "sine:10:40:24m", Instances: one(9105), Story: "gzip",
			Labels: map[string]string{"namespace": demoNamespace, "pod": "gzipper-0"}},
		{Job: "catalog", Kind: "catalog", Route: "/items", Load: "sine:10:30:30m",
			Instances: []Instance{{Port: port(9106)}, {Port: port(9107)}, {Port: port(9108)}}, Story: "outlier"},
		// constant, so that the traffic step doubles it exactly
		{Job: "control", Kind: "catalog", Route: "/items", Load: "16", Instances: one(9109), Healthy: true},
		// two routes of very different costs at constant rates, so that the
		// mix change alone moves the mix; /search regresses with the endpoint
		// story, /healthz never may
		{Job: "shop", Kind: "shop", Route: "/search", Load: "10", OtherRoutes: []RouteLoad{{Path: "/healthz", Load: "12"}},
			Instances: one(9110), Story: EndpointStory, Endpoints: true},
	}
	return w
}

// Service returns the service with that job name, or nil.
func (w *World) Service(job string) *Service {
	for _, s := range w.Services {
		if s.Job == job {
			return s
		}
	}
	return nil
}

// EndpointStory is the shop's incident: /search's matching regresses
// (demo/incidents/search.go) while /healthz's traffic grows (World.MixChange).
// Its alert is the catalogue's endpoint alert, which must name the route.
// It is the playground's own, not a catalogue incident: the catalogue's
// incidents are judged by the culprit their service's diff and message name
// first, this one by the route its alert names.
const EndpointStory = "endpoint"

// Stories are the incidents, in the order `make demo` switches them
// (catalogue/catalogue.json), then the endpoint story.
var Stories = append(catalogue.Stories(), EndpointStory)

// Incident is the story's catalogue entry; for the endpoint story, its
// service, the catalogue's endpoint alert and its profile, without a
// culprit (its alert names the route, not a function).
func Incident(story string) catalogue.Incident {
	if story != EndpointStory {
		return catalogue.Story(story)
	}
	a := catalogue.EndpointAlert()
	return catalogue.Incident{Story: story, Service: "shop", Alert: a.Name, Profile: a.Profile}
}

// StoryService is the service an incident is switched on.
func (w *World) StoryService(story string) *Service {
	for _, s := range w.Services {
		if s.Story == story {
			return s
		}
	}
	return nil
}

// ProfilesURL is the profile store's base URL.
func (w *World) ProfilesURL() string { return fmt.Sprintf("http://127.0.0.1:%d", w.Ports.Profiles) }

// PortUse names what is supposed to listen on each port, for the clear
// "port in use" error.
func (w *World) PortUse() map[int]string {
	m := map[int]string{
		w.Ports.Prometheus:     "Prometheus",
		w.Ports.Exporter:       "container-exporter (cAdvisor)",
		w.Ports.Profiles:       "profile-store (the Pyroscope stand-in)",
		w.Ports.ProfileMetrics: "hotpath-profile-metrics (the profiles-to-metrics bridge)",
	}
	w.notifyPorts(m)
	w.kubeStatePorts(m)
	w.thanosPorts(m)
	for _, s := range w.Services {
		for i, in := range s.Instances {
			m[in.Port] = fmt.Sprintf("demo-service %s (job %s, instance %d)", s.Kind, s.Job, i)
		}
	}
	return m
}

// CheckPorts fails on the first port already in use, naming it and what was
// supposed to run there.
func (w *World) CheckPorts() error { return w.CheckPortsWith(nil) }

// CheckPortsWith checks the world's ports and extra ones (the sandbox's).
func (w *World) CheckPortsWith(extra map[int]string) error {
	use := w.PortUse()
	for p, what := range extra {
		use[p] = what
	}
	ports := make([]int, 0, len(use))
	for p := range use {
		ports = append(ports, p)
	}
	sort.Ints(ports)
	for _, p := range ports {
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			return fmt.Errorf("port 127.0.0.1:%d is already in use; the playground runs %s there.\n"+
				"  Find what holds it: ss -ltnp 'sport = :%d'  (a playground still running elsewhere? stop it with Ctrl-C there)", p, use[p], p)
		}
		ln.Close()
	}
	return nil
}

// FreePorts returns a port mapper that gives every default port its own free
// ephemeral port (demo-test: never collides with a running `make demo`).
// The ports are all handed out before any server listens, so they come from
// promkit.FreeAddr, which never hands out a port twice: the kernel readily
// gives the port it just freed to the next caller (2% of worlds drew one
// port for two servers before).
func FreePorts() (func(int) int, error) {
	assigned := map[int]int{}
	var err error
	return func(def int) int {
		if p, ok := assigned[def]; ok {
			return p
		}
		addr, e := promkit.FreeAddr()
		if e != nil {
			err = e
			return def
		}
		_, port, _ := net.SplitHostPort(addr)
		p, _ := strconv.Atoi(port)
		assigned[def] = p
		return p
	}, err
}

// LoadTarget is one route of one instance the load generator drives: name,
// URL and rate spec.
type LoadTarget struct {
	Name, URL, Rate string
	Service         *Service
	Instance        int
	Route           string
}

// LoadTargets lists what the load generator drives.
func (w *World) LoadTargets() []LoadTarget {
	var out []LoadTarget
	for _, s := range w.Services {
		if s.Route == "" {
			continue
		}
		for i, in := range s.Instances {
			for j, r := range s.Routes() {
				name := s.Job
				if len(s.Instances) > 1 {
					name = fmt.Sprintf("%s-%d", s.Job, i)
				}
				if j > 0 {
					name += "-" + routeName(r.Path)
				}
				out = append(out, LoadTarget{Name: name, URL: in.URL() + r.Path, Rate: r.Load, Service: s, Instance: i, Route: r.Path})
			}
		}
	}
	return out
}

// routeName is a route as a load target's name: /healthz -> healthz.
func routeName(path string) string {
	return strings.NewReplacer("/", "-").Replace(strings.Trim(path, "/"))
}
