// Command loadgen drives the demo services with request rates that vary over
// time, each target at its own rate, and stops by itself after -duration.
//
//	loadgen -duration 30m \
//	  -target 'api=http://127.0.0.1:9101/emoji@sine:5:40:6m' \
//	  -target 'poller=http://127.0.0.1:9103/events@square:10:100:4m' \
//	  -target 'gzipper=http://127.0.0.1:9105/flags@30'
//
// A rate is a number of requests per second, sine:LOW:HIGH:PERIOD or
// square:LOW:HIGH:PERIOD. Swinging traffic with a period of a few minutes
// makes "CPU that does not track load" visible within half an hour. The
// generator is open-loop (a slow service does not slow the offered load) but
// bounded: at most -max-in-flight outstanding requests per target, the rest
// counted as dropped.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hotpath/hotpath/demo/load"
)

func main() {
	var specs []string
	flag.Func("target", "NAME=URL@RATE, repeatable", func(v string) error { specs = append(specs, v); return nil })
	duration := flag.Duration("duration", 10*time.Minute, "how long to run; the generator stops by itself")
	maxInFlight := flag.Int("max-in-flight", 32, "outstanding requests per target at most")
	every := flag.Duration("report", 30*time.Second, "print per-target counts this often (0: only at the end)")
	flag.Parse()

	targets, err := parseTargets(specs)
	if err != nil {
		fmt.Fprintf(os.Stderr, "loadgen: %v\n", err)
		os.Exit(2)
	}
	if *duration <= 0 || *maxInFlight < 1 {
		fmt.Fprintln(os.Stderr, "loadgen: -duration and -max-in-flight must be positive")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()

	client := load.NewClient(*maxInFlight)
	stats := make([]*load.Stats, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		stats[i] = &load.Stats{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			load.Drive(ctx, client, t, *maxInFlight, stats[i])
		}()
	}
	fmt.Fprintf(os.Stderr, "loadgen: %d targets for %s\n", len(targets), *duration)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	var tick <-chan time.Time
	if *every > 0 {
		t := time.NewTicker(*every)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-tick:
			report(targets, stats)
		case <-done:
			report(targets, stats)
			return
		}
	}
}

func parseTargets(specs []string) ([]load.Target, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("give at least one -target NAME=URL@RATE")
	}
	var out []load.Target
	for _, s := range specs {
		name, rest, ok1 := strings.Cut(s, "=")
		url, rate, ok2 := strings.Cut(rest, "@")
		if !ok1 || !ok2 || name == "" || !strings.HasPrefix(url, "http") {
			return nil, fmt.Errorf("target %q: want NAME=URL@RATE, e.g. api=http://127.0.0.1:9101/emoji@sine:5:40:6m", s)
		}
		r, err := load.ParseRate(rate)
		if err != nil {
			return nil, fmt.Errorf("target %q: %w", name, err)
		}
		out = append(out, load.Target{Name: name, URL: url, Rate: r})
	}
	return out, nil
}

func report(targets []load.Target, stats []*load.Stats) {
	for i, t := range targets {
		s := stats[i]
		fmt.Fprintf(os.Stderr, "loadgen %s %-8s sent=%d ok=%d failed=%d dropped=%d\n",
			time.Now().Format("15:04:05"), t.Name, s.Sent.Load(), s.OK.Load(), s.Failed.Load(), s.Dropped.Load())
	}
}
