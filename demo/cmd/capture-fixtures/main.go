// Command capture-fixtures records the pprof fixtures in tests/fixtures: for
// each story it serves the story's handlers (package incidents, the code the
// demo services run) on 127.0.0.1, drives them with a constant request rate,
// and profiles the process with runtime/pprof twice, incident off (baseline)
// and on (incident). It then checks that the captures reproduce the story and
// fails otherwise, so a recapture cannot silently commit a healthy "incident".
//
//	go run ./cmd/capture-fixtures -out ../tests/fixtures [-seconds 4] [-story println,epoll,gzip]
//
// The profile covers the whole capture process: the service, its upstream
// where it has one (the cache, for println) and the load client. The
// incident's function is what changes between the two captures.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/hotpath/hotpath/demo/fixtures"
)

// Sample every 64 KiB instead of every 512 KiB so that the baseline's smaller
// allocations show beside flate's ~1 MiB compressor in the gzip heap profile.
// Set before main, as runtime.MemProfileRate should be.
func init() { runtime.MemProfileRate = 64 << 10 }

func main() {
	out := flag.String("out", "../tests/fixtures", "directory the *.pb.gz captures are written to")
	seconds := flag.Float64("seconds", 4, "profiling time per capture, after the warm-up")
	warmup := flag.Duration("warmup", time.Second, "load before each capture starts, so connections and pools are warm")
	only := flag.String("story", "", "comma-separated stories to capture (default: all of "+names()+")")
	flag.Parse()

	var stories []fixtures.Story
	if *only == "" {
		stories = fixtures.Captures
	} else {
		for _, n := range strings.Split(*only, ",") {
			s, ok := fixtures.Lookup(n)
			if !ok {
				fail("unknown story %q (known: %s)", n, names())
			}
			stories = append(stories, s)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail("%v", err)
	}
	// The println incident prints every fetched message; send that to
	// /dev/null, as the demo does with the api's stdout. The report goes to stderr.
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		fail("%v", err)
	}
	os.Stdout = devnull

	d := time.Duration(*seconds * float64(time.Second))
	failed := false
	for _, s := range stories {
		if err := captureStory(s, *out, *warmup, d); err != nil {
			fmt.Fprintf(os.Stderr, "FAIL %s: %v\n", s.Name, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func captureStory(s fixtures.Story, dir string, warmup, d time.Duration) error {
	r, err := startRig(s.Name)
	if err != nil {
		return err
	}
	defer r.close()
	var profs [2]*profile.Profile
	for i, on := range []bool{false, true} {
		raw, err := capture(s.Profile, r, on, warmup, d)
		if err != nil {
			return err
		}
		if profs[i], err = profile.Parse(bytes.NewReader(raw)); err != nil {
			return err
		}
		name := s.BaselineFile()
		if on {
			name = s.IncidentFile()
		}
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "wrote %s (%d bytes)\n", filepath.Join(dir, name), len(raw))
	}
	base, inc, err := fixtures.Check(s, profs[0], profs[1])
	fmt.Fprintf(os.Stderr, "%s: %s holds %.1f%% of %s in the baseline, %.1f%% in the incident (%.3g/s vs %.3g/s)\n",
		s.Name, s.Function, 100*base.Share(), s.SampleType, 100*inc.Share(), base.PerSecond(), inc.PerSecond())
	return err
}

func names() string {
	var n []string
	for _, s := range fixtures.Captures {
		n = append(n, s.Name)
	}
	return strings.Join(n, ",")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "capture-fixtures: "+format+"\n", args...)
	os.Exit(2)
}
