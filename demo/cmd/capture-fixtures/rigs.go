package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/hotpath/hotpath/demo/incidents"
)

// rig is one story's service running in this process, and the rate that
// loads it: high enough for a few seconds of profile to hold thousands of
// samples, low enough to share two cores with other work.
type rig struct {
	url      string
	rps      float64
	incident *incidents.Switch
	close    func()
}

// The handlers and sizes are the demo services' defaults (cmd/demo-service).
func startRig(story string) (*rig, error) {
	sw := &incidents.Switch{}
	switch story {
	case "println":
		cacheURL, stopCache, err := serve(incidents.CacheHandler(incidents.NewBlob(64<<10, 42)))
		if err != nil {
			return nil, err
		}
		client := &incidents.CacheClient{BaseURL: cacheURL, HTTP: &http.Client{Timeout: 10 * time.Second}}
		apiURL, stopAPI, err := serve(incidents.APIHandler(client, sw))
		if err != nil {
			stopCache()
			return nil, err
		}
		return &rig{url: apiURL + "/emoji?key=emoji.png", rps: 100, incident: sw, close: func() { stopAPI(); stopCache() }}, nil
	case "epoll":
		loop, err := incidents.NewEventLoop(100*time.Millisecond, sw)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- loop.Run(ctx) }()
		url, stop, err := serve(incidents.PollerHandler(loop))
		if err != nil {
			cancel()
			return nil, err
		}
		return &rig{url: url + "/events", rps: 200, incident: sw, close: func() {
			stop()
			cancel()
			<-done
			_ = loop.Close()
		}}, nil
	case "gzip":
		url, stop, err := serve(incidents.Compress(6, sw, incidents.FlagsHandler(incidents.FlagsDocument(40))))
		if err != nil {
			return nil, err
		}
		return &rig{url: url + "/flags", rps: 200, incident: sw, close: stop}, nil
	}
	return nil, fmt.Errorf("no rig for story %q", story)
}

func serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
