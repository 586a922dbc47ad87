package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/hotpath/hotpath/demo/load"
)

// capture loads the rig with its incident on or off and returns one gzipped
// pprof: a CPU profile, or for "heap" the allocations made during the window.
func capture(kind string, r *rig, incidentOn bool, warmup, d time.Duration) ([]byte, error) {
	r.incident.Set(incidentOn)
	defer r.incident.Set(false)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	stats := &load.Stats{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		load.Drive(ctx, load.NewClient(16), load.Target{URL: r.url, Rate: load.Constant(r.rps)}, 64, stats)
	}()
	defer func() { cancel(); wg.Wait() }()
	time.Sleep(warmup)

	var buf bytes.Buffer
	switch kind {
	case "cpu":
		if err := pprof.StartCPUProfile(&buf); err != nil {
			return nil, err
		}
		time.Sleep(d)
		pprof.StopCPUProfile()
	case "heap":
		start := time.Now()
		before, err := heapProfile()
		if err != nil {
			return nil, err
		}
		time.Sleep(d)
		after, err := heapProfile()
		if err != nil {
			return nil, err
		}
		delta, err := allocDelta(before, after, time.Since(start))
		if err != nil {
			return nil, err
		}
		if err := delta.Write(&buf); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown profile kind %q", kind)
	}
	if stats.OK.Load() == 0 {
		return nil, fmt.Errorf("no request to %s succeeded (%d failed)", r.url, stats.Failed.Load())
	}
	return buf.Bytes(), nil
}

// heapProfile runs a GC first: the heap profile reports allocations as of the
// last completed GC, so this makes "now" the profile's moment.
func heapProfile() (*profile.Profile, error) {
	runtime.GC()
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return nil, err
	}
	return profile.Parse(&buf)
}

// allocDelta keeps what was allocated between the two snapshots, as
// /debug/pprof/heap?seconds=N does, for alloc_objects and alloc_space; the
// inuse_* types keep the later snapshot's values (a difference of live heaps
// can be negative, which no flame graph can draw).
func allocDelta(before, after *profile.Profile, d time.Duration) (*profile.Profile, error) {
	ratios := make([]float64, len(before.SampleType))
	for i, st := range before.SampleType {
		if st.Type == "alloc_objects" || st.Type == "alloc_space" {
			ratios[i] = -1
		}
	}
	if err := before.ScaleN(ratios); err != nil {
		return nil, err
	}
	delta, err := profile.Merge([]*profile.Profile{before, after})
	if err != nil {
		return nil, err
	}
	delta.TimeNanos = after.TimeNanos
	delta.DurationNanos = d.Nanoseconds()
	return delta, nil
}
