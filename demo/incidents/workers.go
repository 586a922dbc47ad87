package incidents

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// WorkerPool runs jobs on a fixed set of goroutines: the cfs story's operator
// workers. Inside a CFS-limited cgroup, as many busy workers as the pool has
// compete for the container's quota, not for the machine's cores.
type WorkerPool struct {
	jobs chan func()
	wg   sync.WaitGroup
}

// NewWorkerPool starts size goroutines.
func NewWorkerPool(size int) *WorkerPool {
	p := &WorkerPool{jobs: make(chan func())}
	for range size {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

// Do runs every job on the pool and waits for all of them.
func (p *WorkerPool) Do(ctx context.Context, jobs ...func()) error {
	var wg sync.WaitGroup
	for _, job := range jobs {
		wg.Add(1)
		select {
		case p.jobs <- func() { defer wg.Done(); job() }:
		case <-ctx.Done():
			wg.Done()
			wg.Wait()
			return ctx.Err()
		}
	}
	wg.Wait()
	return nil
}

// Close stops the workers once queued jobs are done.
func (p *WorkerPool) Close() {
	close(p.jobs)
	p.wg.Wait()
}

// Build is one CI build record, what the story's CI operator stored in Redis.
type Build struct {
	ID       int           `json:"id"`
	Project  string        `json:"project"`
	Status   string        `json:"status"`
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration"`
	Commit   string        `json:"commit"`
	Steps    []string      `json:"steps"`
}

// BuildsPage is the stored JSON of a project's n builds.
func BuildsPage(n int) []byte {
	builds := make([]Build, n)
	t := time.Date(2019, 2, 1, 0, 0, 0, 0, time.UTC)
	for i := range builds {
		builds[i] = Build{
			ID: i, Project: "ci-operator", Status: []string{"passed", "failed", "running"}[i%3],
			Started: t.Add(time.Duration(i) * time.Minute), Duration: time.Duration(i%90) * time.Second,
			Commit: fmt.Sprintf("%040x", i*7919), Steps: []string{"checkout", "build", "test", "publish"},
		}
	}
	b, _ := json.Marshal(builds)
	return b
}

// BuildsHandler answers "list this project's builds" by decoding the stored
// page (JSON decoding was the top of the story's CPU profile) on the pool.
// Healthy, one worker does the request's job once. With the incident on, the
// request is fanned out concurrently to shards workers, the story's change to
// "a concurrent way": each worker does the whole job and keeps its share, so
// one request now costs shards times the CPU and keeps that many workers
// runnable at once; inside a CPU quota the service is throttled, its latency
// climbs and its CPU usage stays flat at the limit.
//
// A job decodes the page, again and again, until its thread has spent jobCPU
// of CPU time: what a request costs is then the same on every machine, and so
// is whether it exceeds the quota. (A page of fixed size cost 15 ms where it
// was sized and 4.5 ms on a faster machine, where four of them no longer
// outran a 0.2-core quota and the incident went unthrottled.)
//
//go:noinline
func BuildsHandler(pool *WorkerPool, page []byte, shards int, jobCPU time.Duration, concurrent *Switch) http.Handler {
	decodeShard := func(shard, of int, out *int) func() {
		return func() {
			var builds []Build
			spend(jobCPU, func() {
				builds = builds[:0]
				if err := json.Unmarshal(page, &builds); err != nil {
					panic(err) // the page is ours
				}
			})
			for _, b := range builds {
				if b.ID%of == shard {
					*out++
				}
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1
		if concurrent.On() {
			n = shards
		}
		counts := make([]int, n)
		jobs := make([]func(), n)
		for i := range jobs {
			jobs[i] = decodeShard(i, n, &counts[i])
		}
		if err := pool.Do(r.Context(), jobs...); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		total := 0
		for _, c := range counts {
			total += c
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, "{\"builds\":%d}\n", total)
	})
}

// spend runs work at least once, then again until the calling thread has
// spent cpu of CPU time on it. The goroutine stays on its thread meanwhile, so
// the thread's clock is the work's; time spent runnable but not running (a
// busy machine, a throttled cgroup) does not count.
func spend(cpu time.Duration, work func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	for {
		work()
		if threadCPU()-start >= cpu {
			return
		}
	}
}

// threadCPU is the calling thread's CPU time so far.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err) // Linux has had this clock since 2.6.12
	}
	return time.Duration(ts.Nano())
}
