package incidents

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// EventLoop is the epoll story's streaming core: one goroutine blocked in a real
// epoll_wait(2) on an eventfd that clients signal. Healthy, epoll_wait blocks
// until there is work or the next housekeeping tick, so CPU tracks the number
// of events. With the incident on, the timeout function returns 0 ("do not
// wait, react faster"): epoll_wait returns at once with nothing, the loop spins,
// and the process burns a core whatever the load.
type EventLoop struct {
	epfd, efd int
	tick      time.Duration
	zero      *Switch

	mu    sync.Mutex
	queue []chan struct{}

	// Wakeups counts epoll_wait returns, Idle those that found nothing: the
	// ratio is what syscount/strace showed in the story.
	Wakeups, Idle atomic.Uint64
}

// NewEventLoop creates the epoll instance and the eventfd it watches. tick is
// how long epoll_wait may block when the timeout is computed correctly.
func NewEventLoop(tick time.Duration, zeroTimeout *Switch) (*EventLoop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	efd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(efd)}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, efd, &ev); err != nil {
		unix.Close(efd)
		unix.Close(epfd)
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	return &EventLoop{epfd: epfd, efd: efd, tick: tick, zero: zeroTimeout}, nil
}

// timeoutMillis is the function the story found: it decides how long
// epoll_wait may block. The incident's version returns 0 in every case.
func (l *EventLoop) timeoutMillis() int {
	if l.zero.On() {
		return 0
	}
	return int(l.tick / time.Millisecond)
}

// Run is the event loop; it returns when ctx is done (within one tick).
func (l *EventLoop) Run(ctx context.Context) error {
	events := make([]unix.EpollEvent, 8)
	for ctx.Err() == nil {
		n, err := unix.EpollWait(l.epfd, events, l.timeoutMillis())
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("epoll_wait: %w", err)
		}
		l.Wakeups.Add(1)
		if n > 0 {
			l.processActivity()
		} else {
			l.Idle.Add(1)
		}
	}
	return nil
}

// processActivity clears the eventfd and serves every queued event.
func (l *EventLoop) processActivity() {
	var buf [8]byte
	_, _ = unix.Read(l.efd, buf[:])
	l.mu.Lock()
	queue := l.queue
	l.queue = nil
	l.mu.Unlock()
	for _, done := range queue {
		streamChunk()
		close(done)
	}
}

// chunk is what each event "streams": a small, fixed cost per client event,
// so that a healthy loop's CPU is proportional to its traffic.
var chunk = NewBlob(16<<10, 1)

func streamChunk() { crc32.ChecksumIEEE(chunk) }

// Submit queues one client event, wakes the loop through the eventfd and
// waits until the loop has served it.
func (l *EventLoop) Submit(ctx context.Context) error {
	done := make(chan struct{})
	l.mu.Lock()
	l.queue = append(l.queue, done)
	l.mu.Unlock()
	one := [8]byte{1} // eventfd counters are host-endian uint64; 1 in little endian
	if _, err := unix.Write(l.efd, one[:]); err != nil && !errors.Is(err, unix.EAGAIN) {
		return fmt.Errorf("eventfd write: %w", err)
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close releases the epoll instance and the eventfd; call it after Run returned.
func (l *EventLoop) Close() error {
	return errors.Join(unix.Close(l.efd), unix.Close(l.epfd))
}

// PollerHandler serves one client event per request through the loop.
//
//go:noinline
func PollerHandler(l *EventLoop) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := l.Submit(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
}
