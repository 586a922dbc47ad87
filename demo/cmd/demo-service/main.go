// Command demo-service runs one of the playground's services:
//
//	demo-service api     [-listen 127.0.0.1:9101] [-cache-url http://127.0.0.1:9102]  the println story
//	demo-service cache   [-listen 127.0.0.1:9102] [-blob-size 65536]                   api's upstream
//	demo-service poller  [-listen 127.0.0.1:9103] [-tick 100ms]                        the epoll story
//	demo-service worker  [-listen 127.0.0.1:9104] [-pool 4] [-job-cpu 12ms]            the cfs story
//	demo-service gzipper [-listen 127.0.0.1:9105] [-level 6] [-flags 40]               the gzip story
//	demo-service catalog [-listen 127.0.0.1:9106]                                      healthy control
//	demo-service shop    [-listen 127.0.0.1:9110] [-products 800] [-rank-cpu 1ms]     the endpoint story
//
// Every service also takes -incident (start with the incident on) and
// -extra-cpu (CPU burned per request: the sibling-outlier knob), and serves
// /metrics, /debug/pprof/ and the admin endpoints:
//
//	GET  /admin                                  state as JSON
//	POST /admin/incident?on=true|false           switch the incident
//	POST /admin/extra-cpu?per_request=2ms        set the extra CPU per request
//
// Several instances of one service run side by side on different -listen
// ports; job and instance labels come from Prometheus's scrape configuration.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/hotpath/hotpath/demo/service"
)

func main() {
	if len(os.Args) < 2 || builders[os.Args[1]] == nil {
		usage()
		os.Exit(2)
	}
	name := os.Args[1]
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	listen := fs.String("listen", "127.0.0.1:"+defaultPorts[name], "address to serve on (keep it on 127.0.0.1)")
	incidentOn := fs.Bool("incident", false, "start with the incident switched on")
	extraCPU := fs.Duration("extra-cpu", 0, "CPU burned per request on top of the real work, e.g. 2ms (makes this instance a sibling outlier)")
	build := builders[name](fs)
	_ = fs.Parse(os.Args[2:])

	spec, err := build()
	if err != nil {
		fail(name, err)
	}
	if spec.Switch != nil {
		spec.Switch.Set(*incidentOn)
	} else if *incidentOn {
		fail(name, fmt.Errorf("%s has no incident to switch on", name))
	}
	svc, err := service.New(spec, *extraCPU)
	if err != nil {
		fail(name, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "%s: serving on http://%s (incident %q on=%v, extra cpu %s) at %s\n",
		name, *listen, spec.Incident, *incidentOn, *extraCPU, time.Now().Format(time.RFC3339))
	if err := svc.Run(ctx, *listen); err != nil {
		fail(name, err)
	}
}

func usage() {
	names := make([]string, 0, len(builders))
	for n := range builders {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "usage: demo-service <%s> [flags]\n       demo-service <service> -h  lists the flags\n", strings.Join(names, "|"))
}

func fail(name string, err error) {
	fmt.Fprintf(os.Stderr, "demo-service %s: %v\n", name, err)
	os.Exit(1)
}
