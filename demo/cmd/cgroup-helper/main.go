// Command cgroup-helper puts demo processes under a real CFS quota (cgroup v1
// cpu controller, as root) and takes the groups down again:
//
//	cgroup-helper check                                   exit 0 if groups can be made, else say why (exit 3)
//	cgroup-helper run -name worker-0/worker -cpus 0.2 -- CMD [ARGS]
//	                                                      start CMD inside a new group, remove the group when CMD exits
//	cgroup-helper create -name worker-0/worker -cpus 0.2 [-shares 1024] [-pid N]
//	cgroup-helper set -name worker-0/worker -cpus 1.2     change the quota of a running group (0: unlimited)
//	cgroup-helper stat -name worker-0/worker [-every 5s]  throttled periods, throttled s/s, usage
//	cgroup-helper remove -name worker-0/worker
//	cgroup-helper clean                                   remove every group under -parent (a previous run's)
//
// Common flags: -parent hotpath-demo, -period 100ms, -cpu-root, -cpuacct-root.
// Groups are /sys/fs/cgroup/cpu/<parent>/<name>; a two-level name is a pod
// and its container, as the kubelet lays them out.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hotpath/hotpath/demo/cgroup"
)

func main() { os.Exit(realMain(os.Args[1:])) }

// realMain runs one subcommand and returns the exit status: 0, 1 for an
// error, 2 for bad usage, 3 when cgroups are unavailable, or the status of
// the command `run` ran.
func realMain(args []string) int {
	if len(args) < 1 {
		return usage()
	}
	cmd := args[0]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	parent := fs.String("parent", "hotpath-demo", "directory under each cgroup hierarchy that holds the demo's groups")
	cpuRoot := fs.String("cpu-root", "/sys/fs/cgroup/cpu", "mount point of the cgroup v1 cpu controller")
	acctRoot := fs.String("cpuacct-root", "/sys/fs/cgroup/cpuacct", "mount point of the cgroup v1 cpuacct controller")
	name := fs.String("name", "", "group name below -parent, e.g. worker-0/worker (pod/container)")
	cpus := fs.Float64("cpus", 0, "CPU limit in cores (0: unlimited)")
	shares := fs.Int("shares", 0, "cpu.shares, the weight under contention (0: leave the default 1024); run the spinning poller with e.g. 128")
	period := fs.Duration("period", 100*time.Millisecond, "CFS period")
	pid := fs.Int("pid", 0, "create: process to move into the group")
	every := fs.Duration("every", 0, "stat: print rates every interval until interrupted (0: print the counters once)")
	_ = fs.Parse(args[1:])
	m := &cgroup.Manager{CPU: *cpuRoot, CPUAcct: *acctRoot, Parent: *parent}

	var err error
	switch cmd {
	case "check":
		if err = m.Check(); err == nil {
			fmt.Printf("cgroups writable: groups go under %s/%s\n", m.CPU, m.Parent)
		}
	case "run":
		err = run(m, *name, *cpus, *shares, *period, fs.Args())
	case "exec-in": // run's first step, in the child; see run
		err = execIn(m, *name, fs.Args())
	case "create":
		var g *cgroup.Group
		if g, err = create(m, *name, *cpus, *shares, *period); err == nil && *pid > 0 {
			err = g.Add(*pid)
		}
	case "set":
		var g *cgroup.Group
		if g, err = m.Open(*name); err == nil {
			err = g.SetQuota(*cpus, *period)
		}
	case "stat":
		err = stat(m, *name, *every)
	case "remove":
		var g *cgroup.Group
		if g, err = m.Open(*name); err == nil {
			err = g.Remove()
		}
	case "clean":
		var removed []string
		removed, err = m.CleanStale()
		if len(removed) > 0 {
			fmt.Printf("removed stale groups: %s\n", strings.Join(removed, " "))
		}
	default:
		return usage()
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return exit.ExitCode() // run: the command's own status
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cgroup-helper %s: %v\n", cmd, err)
		if errors.Is(err, cgroup.ErrUnavailable) {
			return 3
		}
		return 1
	}
	return 0
}

func create(m *cgroup.Manager, name string, cpus float64, shares int, period time.Duration) (*cgroup.Group, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	g, err := m.Create(name, cpus, period)
	if err != nil {
		return nil, err
	}
	if shares > 0 {
		if err := g.SetShares(shares); err != nil {
			_ = g.Remove()
			return nil, err
		}
	}
	return g, nil
}

// run starts the command inside the group and removes the group once the
// command has exited, forwarding SIGINT/SIGTERM to it: the supervisor the demo
// runs the throttled service under. The command is started through this
// binary's exec-in step, which joins the group before it execs the command,
// so no instruction of the command runs outside the group.
func run(m *cgroup.Manager, name string, cpus float64, shares int, period time.Duration, argv []string) error {
	if len(argv) == 0 {
		return errors.New("run: give the command after --")
	}
	g, err := create(m, name, cpus, shares, period)
	if err != nil {
		return err
	}
	defer g.Remove()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := append([]string{"exec-in", "-parent", m.Parent, "-cpu-root", m.CPU, "-cpuacct-root", m.CPUAcct, "-name", name, "--"}, argv...)
	c := exec.Command(self, args...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Start(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "cgroup-helper: pid %d runs in %s (%.2f cores per %s, 0 = unlimited)\n", c.Process.Pid, g.CgroupName(), cpus, period)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			_ = c.Process.Signal(s)
		}
	}()
	return c.Wait()
}

// execIn moves this process into the group, then becomes the command.
func execIn(m *cgroup.Manager, name string, argv []string) error {
	if len(argv) == 0 {
		return errors.New("exec-in: give the command after --")
	}
	g, err := m.Open(name)
	if err != nil {
		return err
	}
	if err := g.Add(os.Getpid()); err != nil {
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return err
	}
	return syscall.Exec(path, argv, os.Environ())
}

func stat(m *cgroup.Manager, name string, every time.Duration) error {
	g, err := m.Open(name)
	if err != nil {
		return err
	}
	prev, err := g.Stat()
	if err != nil {
		return err
	}
	if every <= 0 {
		fmt.Printf("%s quota=%.3f cores periods=%d throttled_periods=%d throttled_time=%s usage=%s\n",
			g.CgroupName(), prev.Quota, prev.Periods, prev.ThrottledPeriods, prev.ThrottledTime, prev.Usage)
		return nil
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	t := time.NewTicker(every)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-sigs:
			return nil
		case now := <-t.C:
			cur, err := g.Stat()
			if err != nil {
				return err
			}
			r := cur.Since(prev, now.Sub(last))
			fmt.Printf("%s quota=%.2f throttled_periods=%.0f%% throttled=%.2fs/s usage=%.2f cores\n",
				g.CgroupName(), cur.Quota, 100*r.ThrottledRatio, r.ThrottledSeconds, r.UsageCores)
			prev, last = cur, now
		}
	}
}

func usage() int {
	fmt.Fprintln(os.Stderr, "usage: cgroup-helper check|run|create|set|stat|remove|clean [-name POD/CONTAINER] [-cpus N] [-- CMD ARGS]")
	return 2
}
