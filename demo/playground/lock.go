package playground

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

func (p *Processes) takeLock() error {
	f, err := lockFile(p.StatePath("run", "lock"))
	if err != nil {
		return err
	}
	p.lock = f
	return nil
}

// lockFile takes the run's lock (flock: released when the process dies,
// however it dies) and writes the pid into it.
func lockFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		return nil, fmt.Errorf("another playground is running from %s (pid %s): stop it first (Ctrl-C there)", filepath.Dir(filepath.Dir(path)), strings.TrimSpace(string(b)))
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(fmt.Sprint(os.Getpid())), 0)
	return f, nil
}

// TryLock takes a run's lock for a moment (hotpath-demo clean): an error
// means a playground is running there.
func TryLock(path string) (func(), error) {
	f, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}
