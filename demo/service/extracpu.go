package service

import (
	"crypto/sha256"
	"net/http"
	"sync/atomic"
	"time"
)

// ExtraCPU is CPU burned per request on top of the real work. It exists for
// the sibling-outlier story: run three or more instances of one service and
// give one of them extra CPU per request (an instance on a bad build or with
// debug settings); its CPU per request then stands out from its siblings'.
type ExtraCPU struct{ d atomic.Int64 }

// Set changes the extra CPU per request; 0 turns it off.
func (e *ExtraCPU) Set(d time.Duration) { e.d.Store(int64(d)) }

// Get is the extra CPU per request.
func (e *ExtraCPU) Get() time.Duration { return time.Duration(e.d.Load()) }

// Wrap burns the extra CPU before each request of h.
func (e *ExtraCPU) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d := e.Get(); d > 0 {
			burnCPU(d)
		}
		h.ServeHTTP(w, r)
	})
}

var burnBlock [4096]byte

// burnCPU hashes until d of wall time has passed: on an idle core that is d
// of CPU, the work shows in profiles as crypto/sha256 under burnCPU.
//
//go:noinline
func burnCPU(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		sha256.Sum256(burnBlock[:])
	}
}
