// Package incidents holds the code paths of the playground's incidents
// (docs/reference.md, "The playground's incidents"), once, so that the
// demo services (cmd/demo-service) and the fixture capture (cmd/capture-fixtures)
// run the very same functions: a flame graph of the demo and the committed
// pprof fixtures then point at the same frames.
//
// Each incident has a healthy path and the incident's path, chosen at run time by a
// Switch, so that one process can show "before" and "after":
//
//	000 println  api.go, cache.go  fmt.Println of the fetched protobuf message
//	001 epoll    poller.go         epoll_wait whose timeout drops to 0 (busy loop)
//	002 CFS      workers.go        a worker pool whose demand exceeds its CPU quota
//	003 gzip     gzip.go           gzip.NewWriterLevel per response vs a sync.Pool
//	endpoint     search.go         /search's terms as regexps compiled per request, /healthz untouched
//
// The handler constructors are marked go:noinline: inlined into a caller,
// their closures would be named after it (main.startRig.Compress.func8), and
// flame graphs should read incidents.Compress.func1 wherever the code runs.
package incidents

import "sync/atomic"

// Switch turns a story's incident on or off while the service runs. It is read
// on every request, so it is an atomic rather than a mutex-guarded bool.
type Switch struct{ on atomic.Bool }

// On reports whether the incident code path is active.
func (s *Switch) On() bool { return s.on.Load() }

// Set turns the incident on or off.
func (s *Switch) Set(on bool) { s.on.Store(on) }
