// Command profile-replay serves recorded pprof captures through the profile
// store's query API (the Pyroscope querier endpoint hotpath-notify calls), at
// the times a test gives them: an incident replayed without running it.
//
//	profile-replay -listen 127.0.0.1:0 -addr-file A \
//	  -profile api:cpu:1767268800000:1767269100000:tests/fixtures/println-incident.cpu.pb.gz ...
//
// Each -profile is SERVICE[/INSTANCE]:KIND:FROM_MS:TO_MS:FILE (KIND cpu or
// alloc; FILE a gzipped pprof as /debug/pprof serves it; INSTANCE "replay"
// when not given; SERVICE#INSTANCE for a service name with slashes in it). A capture given twice for a window is merged twice: twice
// the traffic through the same code. With -addr-file the address it
// listens on is written there once it accepts connections.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/httpserve"
	"github.com/hotpath/hotpath/demo/profilestore"
)

func main() {
	var specs []string
	flag.Func("profile", "SERVICE:KIND:FROM_MS:TO_MS:FILE, repeatable", func(v string) error { specs = append(specs, v); return nil })
	listen := flag.String("listen", "127.0.0.1:0", "address to serve the query API on")
	addrFile := flag.String("addr-file", "", "write the address listened on to this file")
	flag.Parse()

	// the captures of a week-earlier baseline must outlive the store's eviction
	store := profilestore.New(30*24*time.Hour, 1<<30)
	for _, s := range specs {
		e, err := parseSpec(s)
		if err != nil {
			fail(2, "-profile %q: %v", s, err)
		}
		store.Add(e)
	}
	if len(specs) == 0 {
		fail(2, "give at least one -profile SERVICE:KIND:FROM_MS:TO_MS:FILE")
	}
	err := httpserve.Run(*listen, profilestore.Handler(store), func(_ context.Context, addr string) error {
		if *addrFile == "" {
			return nil
		}
		return os.WriteFile(*addrFile, []byte(addr), 0o644)
	})
	if err != nil {
		fail(1, "%v", err)
	}
}

func parseSpec(s string) (profilestore.Entry, error) {
	p := strings.SplitN(s, ":", 5)
	if len(p) != 5 {
		return profilestore.Entry{}, fmt.Errorf("want SERVICE:KIND:FROM_MS:TO_MS:FILE")
	}
	kind := profilestore.Kind(p[1])
	if kind != profilestore.KindCPU && kind != profilestore.KindAlloc {
		return profilestore.Entry{}, fmt.Errorf("kind %q: want cpu or alloc", p[1])
	}
	from, err1 := strconv.ParseInt(p[2], 10, 64)
	to, err2 := strconv.ParseInt(p[3], 10, 64)
	if err1 != nil || err2 != nil || to <= from {
		return profilestore.Entry{}, fmt.Errorf("want FROM_MS < TO_MS, unix milliseconds")
	}
	data, err := os.ReadFile(p[4])
	if err != nil {
		return profilestore.Entry{}, err
	}
	// SERVICE#INSTANCE for a service_name with slashes in it (Alloy's eBPF "ebpf/ns/container")
	sep := "/"
	if strings.Contains(p[0], "#") {
		sep = "#"
	}
	service, instance, ok := strings.Cut(p[0], sep)
	if !ok {
		instance = "replay"
	}
	return profilestore.Entry{Service: service, Instance: instance, Kind: kind, Start: time.UnixMilli(from), End: time.UnixMilli(to), Data: data}, nil
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "profile-replay: "+format+"\n", args...)
	os.Exit(code)
}
