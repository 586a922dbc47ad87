// Command profile-store is the playground's stand-in for Pyroscope (which
// cannot be installed here): it pulls CPU and allocation profiles from each
// demo service's /debug/pprof back to back, keeps them bounded by age and
// size, and serves the merged pprof of any window:
//
//	profile-store [-listen 127.0.0.1:9190] [-window 10s] [-retention 3h] [-max-mb 256] \
//	  -target api=http://127.0.0.1:9101 -target cache=http://127.0.0.1:9102 ...
//
//	GET /profile?service=api&type=cpu|alloc_space|alloc_objects&from=<unix ms>&to=<unix ms>
//	GET /services
//	POST /querier.v1.QuerierService/SelectMergeProfile   (Pyroscope's querier API, application/proto)
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/httpserve"
	"github.com/hotpath/hotpath/demo/profilestore"
)

func main() {
	var specs []string
	flag.Func("target", "SERVICE=BASE_URL of a service serving /debug/pprof/, repeatable; a SERVICE named twice is one service's instances, merged in its profiles", func(v string) error { specs = append(specs, v); return nil })
	listen := flag.String("listen", "127.0.0.1:9190", "address to serve the query API on")
	window := flag.Duration("window", 10*time.Second, "length of each collected profile (whole seconds)")
	retention := flag.Duration("retention", 3*time.Hour, "how long profiles are kept")
	maxMB := flag.Int("max-mb", 256, "bound on the stored profiles' total size; the oldest go first")
	flag.Parse()

	var targets []profilestore.Target
	for _, s := range specs {
		name, url, ok := strings.Cut(s, "=")
		if !ok || name == "" || !strings.HasPrefix(url, "http") {
			fail(2, "target %q: want SERVICE=BASE_URL, e.g. api=http://127.0.0.1:9101", s)
		}
		targets = append(targets, profilestore.Target{Service: name, BaseURL: url})
	}
	if len(targets) == 0 {
		fail(2, "give at least one -target SERVICE=BASE_URL")
	}
	if *window < time.Second || *retention < *window || *maxMB < 1 {
		fail(2, "want -window >= 1s, -retention >= -window and -max-mb >= 1")
	}

	store := profilestore.New(*retention, *maxMB<<20)
	err := httpserve.Run(*listen, profilestore.Handler(store), func(ctx context.Context, _ string) error {
		c := &profilestore.Collector{Store: store, Window: *window, Retry: 2 * time.Second,
			Client: &http.Client{Timeout: *window + 15*time.Second}}
		go c.Run(ctx, targets)
		fmt.Fprintf(os.Stderr, "profile-store (a Pyroscope stand-in): %d services, %s profiles, serving http://%s\n", len(targets), *window, *listen)
		return nil
	})
	if err != nil {
		fail(1, "%v", err)
	}
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "profile-store: "+format+"\n", args...)
	os.Exit(code)
}
