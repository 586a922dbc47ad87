package promkit

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Process is a server process started by a Launcher.
type Process interface {
	// Exited reports whether the process has exited, and how.
	Exited() (bool, error)
	// Tail is the last n bytes of its log.
	Tail(n int) string
	// Stop stops it and waits until it has exited; stopping twice is harmless.
	Stop()
}

// Launcher starts argv as a process named name (its log is named after it).
type Launcher interface {
	Launch(name string, argv ...string) (Process, error)
}

// ExecLauncher starts plain child processes with their output in
// LogDir/<name>.log; Stop kills them.
type ExecLauncher struct{ LogDir string }

// Launch starts argv.
func (l ExecLauncher) Launch(name string, argv ...string) (Process, error) {
	log := filepath.Join(l.LogDir, name+".log")
	f, err := os.Create(log)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &execProcess{log: log, done: make(chan struct{})}
	p.kill = func() { _ = cmd.Process.Kill() }
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

type execProcess struct {
	log  string
	kill func()
	done chan struct{}
	err  error
}

func (p *execProcess) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

func (p *execProcess) Tail(n int) string { return TailFile(p.log, n) }

func (p *execProcess) Stop() {
	p.kill()
	<-p.done
}

// TailFile is the last n bytes of a file, trimmed ("" when unreadable).
func TailFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}

// WaitHTTP polls url until it answers 200, failing early, with the tail of
// its log, when proc exits, and after timeout.
func WaitHTTP(ctx context.Context, proc Process, url string, timeout time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	err := Poll(ctx, timeout, 150*time.Millisecond, func() (bool, error) {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return true, nil
			}
		}
		if done, perr := proc.Exited(); done {
			return true, fmt.Errorf("exited (%v):\n%s", perr, proc.Tail(1500))
		}
		return false, nil
	})
	if errors.Is(err, ErrTimeout) {
		return fmt.Errorf("%s not answering after %s:\n%s", url, timeout, proc.Tail(1500))
	}
	return err
}

// handedOut is every address FreeAddr returned in this process. A caller may
// reserve an address and start its server later (Thanos Query, whose ruler
// needs Query's URL first): the kernel can give the port it just freed to the
// next FreeAddr, and two servers of one test then race for it (CI, 02:44:
// the ruler took Query's port and Query died with "address already in use").
var handedOut = struct {
	sync.Mutex
	addrs map[string]bool
}{addrs: map[string]bool{}}

// FreeAddr is a 127.0.0.1 address with a port nobody listens on now and that
// no earlier call in this process returned.
func FreeAddr() (string, error) {
	handedOut.Lock()
	defer handedOut.Unlock()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", fmt.Errorf("no free port: %w", err)
		}
		addr := l.Addr().String()
		l.Close()
		if !handedOut.addrs[addr] {
			handedOut.addrs[addr] = true
			return addr, nil
		}
	}
	return "", errors.New("no free port: 100 tries found only ports handed out before")
}
