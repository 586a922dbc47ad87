package promkit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Server is a running server that speaks Prometheus's HTTP API: Prometheus,
// or a Thanos component.
type Server struct {
	*Client
	Process Process
}

// Stop stops the server and waits until it has exited.
func (s *Server) Stop() { s.Process.Stop() }

// ReadyTimeout bounds the wait for a server's /-/ready: Prometheus replays
// its WAL and opens every (backfilled) block first.
const ReadyTimeout = 90 * time.Second

// APITimeout bounds every request to a server.
const APITimeout = time.Minute

// StartServer launches argv, a server whose HTTP API listens on addr, and
// waits until its /-/ready answers 200; it is stopped again when it does not.
func StartServer(ctx context.Context, l Launcher, name, addr string, argv ...string) (*Server, error) {
	proc, err := l.Launch(name, argv...)
	if err != nil {
		return nil, err
	}
	c, err := NewClient("http://"+addr, APITimeout)
	if err == nil {
		err = WaitHTTP(ctx, proc, c.URL+"/-/ready", ReadyTimeout)
	}
	if err != nil {
		proc.Stop()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &Server{Client: c, Process: proc}, nil
}

// Prometheus describes one Prometheus server.
type Prometheus struct {
	Bin     string // the pinned prometheus
	Name    string // its process and config file name
	Dir     string // where its config goes
	DataDir string // its TSDB
	Addr    string // host:port of its HTTP API
	Config  Config
	Args    []string // more flags
}

// LeaveOverlappingBlocks are the flags that keep a server from merging
// backfilled blocks that overlap its own at start: queries read overlapping
// blocks as they are, and the merge would compete for CPU for minutes.
var LeaveOverlappingBlocks = []string{"--no-storage.tsdb.allow-overlapping-compaction"}

// StartPrometheus writes Dir/<Name>.yml, starts the server and waits until
// it is ready.
func StartPrometheus(ctx context.Context, l Launcher, p Prometheus) (*Server, error) {
	cfg := filepath.Join(p.Dir, p.Name+".yml")
	if err := os.WriteFile(cfg, []byte(p.Config.YAML()), 0o644); err != nil {
		return nil, err
	}
	argv := append([]string{p.Bin,
		"--config.file=" + cfg,
		"--storage.tsdb.path=" + p.DataDir,
		"--web.listen-address=" + p.Addr,
		"--web.enable-lifecycle",
		"--log.level=warn",
	}, p.Args...)
	return StartServer(ctx, l, p.Name, p.Addr, argv...)
}
