package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// Supervisor owns every process the playground starts: each one in its own
// process group (so the terminal's Ctrl-C reaches only the orchestrator, which
// stops them in order), killed with the orchestrator if it dies
// (Pdeathsig), and recorded in a pid file so the next run can clean up after
// a run that was killed with SIGKILL.
type Supervisor struct {
	LogDir  string
	PidFile string

	mu    sync.Mutex
	procs []*Proc
}

// Proc is one supervised process.
type Proc struct {
	sup  *Supervisor
	Name string
	Cmd  *exec.Cmd
	Log  string
	done chan struct{}
	err  error
}

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited, and how.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.err
	default:
		return false, nil
	}
}

// Tail is the last n bytes of the process's log.
func (p *Proc) Tail(n int) string { return promkit.TailFile(p.Log, n) }

// Start runs argv with its output in LogDir/name.log (stdout to /dev/null
// when quiet).
func (s *Supervisor) Start(name string, quiet bool, env []string, argv ...string) (*Proc, error) {
	logPath := filepath.Join(s.LogDir, name+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = logf
	cmd.Stdout = logf
	if quiet {
		cmd.Stdout = nil // /dev/null
	}
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{sup: s, Name: name, Cmd: cmd, Log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logf.Close()
		close(p.done)
	}()
	s.mu.Lock()
	s.procs = append(s.procs, p)
	s.mu.Unlock()
	if err := s.writePids(); err != nil {
		return p, err
	}
	return p, nil
}

// Launch starts argv supervised (promkit.Launcher: the Prometheus and Thanos
// servers promkit starts for the playground).
func (s *Supervisor) Launch(name string, argv ...string) (promkit.Process, error) {
	p, err := s.Start(name, false, nil, argv...)
	if p == nil {
		return nil, err // a nil *Proc must not become a non-nil Process
	}
	return p, err
}

// Stop stops the process (promkit.Process): SIGTERM, then SIGKILL after
// 30s, time for Prometheus to write its head block out.
func (p *Proc) Stop() { p.sup.Stop(p, 30*time.Second) }

// Stop stops one process: SIGTERM, then SIGKILL after grace.
func (s *Supervisor) Stop(p *Proc, grace time.Duration) {
	if done, _ := p.Exited(); !done {
		_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(grace):
			_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
			<-p.done
		}
	}
	s.mu.Lock()
	for i, q := range s.procs {
		if q == p {
			s.procs = append(s.procs[:i], s.procs[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	_ = s.writePids()
}

// StopAll stops every process, the last started first.
func (s *Supervisor) StopAll(grace time.Duration) {
	s.mu.Lock()
	procs := append([]*Proc(nil), s.procs...)
	s.mu.Unlock()
	for i := len(procs) - 1; i >= 0; i-- {
		s.Stop(procs[i], grace)
	}
	_ = os.Remove(s.PidFile)
}

// KillAll kills every process at once (the second Ctrl-C).
func (s *Supervisor) KillAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.procs {
		_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Procs lists the running processes.
func (s *Supervisor) Procs() []*Proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Proc(nil), s.procs...)
}

type pidRecord struct {
	Pid  int    `json:"pid"`
	Name string `json:"name"`
	Exe  string `json:"exe"`
}

func (s *Supervisor) writePids() error {
	s.mu.Lock()
	var recs []pidRecord
	for _, p := range s.procs {
		if done, _ := p.Exited(); !done {
			recs = append(recs, pidRecord{Pid: p.Cmd.Process.Pid, Name: p.Name, Exe: p.Cmd.Path})
		}
	}
	s.mu.Unlock()
	b, _ := json.MarshalIndent(recs, "", "  ")
	tmp := s.PidFile + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, s.PidFile)
}

// CleanStale kills what a previous run recorded in pidFile and left running
// (it was killed before it could clean up). A pid is killed only while it
// still runs the same executable, so a reused pid is left alone. It returns
// what it killed.
func CleanStale(pidFile string) ([]string, error) {
	b, err := os.ReadFile(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var recs []pidRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		return nil, fmt.Errorf("%s: %w", pidFile, err)
	}
	var killed []string
	for _, r := range recs {
		if !sameExe(r.Pid, r.Exe) {
			continue
		}
		// Its process group first (Setpgid made the pid its leader).
		_ = syscall.Kill(-r.Pid, syscall.SIGKILL)
		_ = syscall.Kill(r.Pid, syscall.SIGKILL)
		killed = append(killed, fmt.Sprintf("%s (pid %d)", r.Name, r.Pid))
	}
	// Give the kernel a moment to reap them before ports are checked.
	for i := 0; i < 50; i++ {
		alive := false
		for _, r := range recs {
			if sameExe(r.Pid, r.Exe) {
				alive = true
			}
		}
		if !alive {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return killed, os.Remove(pidFile)
}

// sameExe reports whether pid is alive and runs exe (a process that exec'd,
// as cgroup-helper exec-in does, shows its new executable: accept both).
func sameExe(pid int, exe string) bool {
	link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return false
	}
	link = strings.TrimSuffix(link, " (deleted)")
	if link == exe {
		return true
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil && link == real {
		return true
	}
	// cgroup-helper exec-in exec's the service: both live in the demo's own
	// bin directory (the one that holds hotpath-demo). Only there: the
	// sandbox runs node from a system directory, where another program on a
	// reused pid is not ours.
	dir := filepath.Dir(exe)
	if _, err := os.Stat(filepath.Join(dir, "hotpath-demo")); err != nil {
		return false
	}
	return filepath.Dir(link) == dir
}
