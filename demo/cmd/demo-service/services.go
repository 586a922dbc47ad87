package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hotpath/hotpath/demo/incidents"
	"github.com/hotpath/hotpath/demo/service"
)

// defaultPorts lets each service start without flags; the orchestration
// passes -listen explicitly.
var defaultPorts = map[string]string{
	"api": "9101", "cache": "9102", "poller": "9103", "worker": "9104", "gzipper": "9105", "catalog": "9106", "shop": "9110",
}

// A builder declares its flags on fs and returns the function that, after
// parsing, builds the service.
type builder func(fs *flag.FlagSet) func() (service.Spec, error)

var builders = map[string]builder{
	"api": func(fs *flag.FlagSet) func() (service.Spec, error) {
		cacheURL := fs.String("cache-url", "http://127.0.0.1:9102", "the cache service this api streams from")
		client := fs.String("edge-client", "api", "client label of the service-graph edge (the job name of this service)")
		server := fs.String("edge-server", "cache", "server label of the service-graph edge (the job name of the cache)")
		return func() (service.Spec, error) {
			edge := service.NewEdgeCounter(*client, *server)
			sw := &incidents.Switch{}
			cache := &incidents.CacheClient{
				BaseURL: strings.TrimRight(*cacheURL, "/"),
				HTTP:    &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
				OnCall:  edge.Inc,
			}
			return service.Spec{
				Name: "api", Incident: "println", Switch: sw,
				Routes:     map[string]http.Handler{"/emoji": incidents.APIHandler(cache, sw)},
				Collectors: []prometheus.Collector{edge},
			}, nil
		}
	},
	"cache": func(fs *flag.FlagSet) func() (service.Spec, error) {
		size := fs.Int("blob-size", 64<<10, "bytes of the blob the cache serves (the story's image files)")
		return func() (service.Spec, error) {
			if *size <= 0 {
				return service.Spec{}, errors.New("-blob-size must be positive")
			}
			return service.Spec{
				Name:   "cache",
				Routes: map[string]http.Handler{"/blob": incidents.CacheHandler(incidents.NewBlob(*size, 42))},
			}, nil
		}
	},
	"poller": func(fs *flag.FlagSet) func() (service.Spec, error) {
		tick := fs.Duration("tick", 100*time.Millisecond, "how long epoll_wait may block when healthy")
		return func() (service.Spec, error) {
			if *tick < time.Millisecond {
				return service.Spec{}, errors.New("-tick must be at least 1ms (0 is the incident, switched by -incident)")
			}
			sw := &incidents.Switch{}
			loop, err := incidents.NewEventLoop(*tick, sw)
			if err != nil {
				return service.Spec{}, err
			}
			return service.Spec{
				Name: "poller", Incident: "epoll", Switch: sw,
				Routes: map[string]http.Handler{"/events": incidents.PollerHandler(loop)},
				Background: func(ctx context.Context) error {
					defer loop.Close()
					return loop.Run(ctx)
				},
			}, nil
		}
	},
	"worker": func(fs *flag.FlagSet) func() (service.Spec, error) {
		pool := fs.Int("pool", 4, "goroutines in the worker pool; with the incident on, each request fans out to all of them")
		builds := fs.Int("builds", 500, "build records in the JSON page a job decodes, again until it has spent -job-cpu (~1.5 ms a decode at 500)")
		jobCPU := fs.Duration("job-cpu", 12*time.Millisecond, "CPU time one job spends decoding: a request costs one job, or -pool jobs at once with the incident on (4 x 12 ms outruns the playground's 20 ms quota per 100 ms period; one does not)")
		return func() (service.Spec, error) {
			if *pool < 1 || *builds < 1 || *jobCPU <= 0 {
				return service.Spec{}, fmt.Errorf("-pool, -builds and -job-cpu must be positive")
			}
			sw := &incidents.Switch{}
			return service.Spec{
				Name: "worker", Incident: "cfs", Switch: sw,
				Routes: map[string]http.Handler{
					"/builds": incidents.BuildsHandler(incidents.NewWorkerPool(*pool), incidents.BuildsPage(*builds), *pool, *jobCPU, sw),
				},
			}, nil
		}
	},
	"gzipper": func(fs *flag.FlagSet) func() (service.Spec, error) {
		level := fs.Int("level", 6, "gzip compression level")
		flags := fs.Int("flags", 40, "feature flags in the JSON document each response carries")
		return func() (service.Spec, error) {
			if err := incidents.ValidCompressLevel(*level); err != nil {
				return service.Spec{}, err
			}
			sw := &incidents.Switch{}
			return service.Spec{
				Name: "gzipper", Incident: "gzip", Switch: sw,
				Routes: map[string]http.Handler{
					"/flags": incidents.Compress(*level, sw, incidents.FlagsHandler(incidents.FlagsDocument(*flags))),
				},
			}, nil
		}
	},
	// The endpoint story: two routes of very different costs, /search (whose
	// matching regresses with the incident on) and /healthz.
	"shop": func(fs *flag.FlagSet) func() (service.Spec, error) {
		products := fs.Int("products", 800, "products in the catalogue /search matches its terms against (the incident's regular expressions run over each)")
		rankCPU := fs.Duration("rank-cpu", time.Millisecond, "CPU time /search spends ranking its matches, the route's healthy cost")
		return func() (service.Spec, error) {
			if *products < 1 || *rankCPU <= 0 {
				return service.Spec{}, errors.New("-products and -rank-cpu must be positive")
			}
			sw := &incidents.Switch{}
			return service.Spec{
				Name: "shop", Incident: "endpoint", Switch: sw,
				Routes: map[string]http.Handler{
					"/search":  incidents.SearchHandler(incidents.Catalogue(*products), *rankCPU, sw),
					"/healthz": incidents.HealthHandler(),
				},
			}, nil
		}
	},
	// The healthy control: CPU follows its traffic and nothing about it should
	// ever fire. Its only knob is -extra-cpu, for the sibling-outlier story.
	"catalog": func(fs *flag.FlagSet) func() (service.Spec, error) {
		flags := fs.Int("items", 40, "items in the JSON document each response carries")
		return func() (service.Spec, error) {
			return service.Spec{
				Name:   "catalog",
				Routes: map[string]http.Handler{"/items": incidents.FlagsHandler(incidents.FlagsDocument(*flags))},
			}, nil
		}
	},
}
