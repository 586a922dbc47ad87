// Package cgroup puts demo processes under a real CFS quota with the cgroup
// v1 cpu controller, the mechanism behind Kubernetes CPU limits (the cfs story).
// Groups live under one parent per demo (/sys/fs/cgroup/cpu/hotpath-demo/...)
// and are mirrored in the cpuacct hierarchy where it is mounted apart, so that
// a container exporter finds both the throttling (cpu.stat) and the usage
// (cpuacct.usage) of each group.
package cgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Manager creates and removes groups under Parent.
type Manager struct {
	// CPU is the cpu controller's mount point, CPUAcct the cpuacct's; when
	// they are mounted together both name (or link to) the same directory.
	CPU, CPUAcct string
	// Parent is the directory under each hierarchy that holds the demo's
	// groups: one place to clean, and the prefix the exporter watches.
	Parent string
}

// Default is the cgroup v1 layout of this machine kind.
func Default(parent string) *Manager {
	return &Manager{CPU: "/sys/fs/cgroup/cpu", CPUAcct: "/sys/fs/cgroup/cpuacct", Parent: parent}
}

// ErrUnavailable wraps every reason the demo cannot make groups here.
var ErrUnavailable = errors.New("real CFS throttling is unavailable")

// Check says whether groups can be made, and if not, exactly why: the demo
// then says so and runs without its throttled service.
func (m *Manager) Check() error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%w: cgroups need root (running as uid %d)", ErrUnavailable, os.Geteuid())
	}
	for _, f := range []string{"cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.stat"} {
		if _, err := os.Stat(filepath.Join(m.CPU, f)); err != nil {
			return fmt.Errorf("%w: no cgroup v1 cpu controller at %s (%v); on cgroup v2 machines this helper does not apply", ErrUnavailable, m.CPU, err)
		}
	}
	probe := filepath.Join(m.CPU, fmt.Sprintf(".hotpath-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return fmt.Errorf("%w: cannot create a group under %s: %v", ErrUnavailable, m.CPU, err)
	}
	if err := os.Remove(probe); err != nil {
		return fmt.Errorf("%w: cannot remove the probe group %s: %v", ErrUnavailable, probe, err)
	}
	return nil
}

// hierarchies are the distinct directories a group is made in: the cpu
// controller, and cpuacct when it is mounted elsewhere (and present).
func (m *Manager) hierarchies() []string {
	roots := []string{m.CPU}
	if m.CPUAcct == "" {
		return roots
	}
	a, errA := filepath.EvalSymlinks(m.CPU)
	b, errB := filepath.EvalSymlinks(m.CPUAcct)
	if errB != nil || (errA == nil && a == b) {
		return roots
	}
	return append(roots, m.CPUAcct)
}

// Group is one cgroup, e.g. "worker-0/worker": a pod-level group and a
// container group inside it, both with the quota, as the kubelet lays out a
// pod with one limited container.
type Group struct {
	m    *Manager
	Name string
}

// Path is the group's directory in the cpu hierarchy.
func (g *Group) Path() string { return filepath.Join(g.m.CPU, g.m.Parent, g.Name) }

// CgroupName is the group's name as cAdvisor reports it, e.g.
// /hotpath-demo/worker-0/worker.
func (g *Group) CgroupName() string { return "/" + filepath.ToSlash(filepath.Join(g.m.Parent, g.Name)) }

// Create makes the group (and every level above it) in each hierarchy and
// sets the quota on each level of the cpu hierarchy below Parent. cpus <= 0
// means no limit. An existing group is reused with the new quota.
func (m *Manager) Create(name string, cpus float64, period time.Duration) (*Group, error) {
	if err := validName(name); err != nil {
		return nil, err
	}
	g := &Group{m: m, Name: name}
	for _, root := range m.hierarchies() {
		if err := os.MkdirAll(filepath.Join(root, m.Parent, name), 0o755); err != nil {
			return nil, fmt.Errorf("cgroup %s: %w", g.CgroupName(), err)
		}
	}
	if err := g.SetQuota(cpus, period); err != nil {
		return nil, err
	}
	return g, nil
}

func validName(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, "..") || filepath.Clean(name) != name {
		return fmt.Errorf("cgroup name %q: want a relative path such as worker-0/worker", name)
	}
	return nil
}

// Open is a group made before (by another process, e.g. cgroup-helper run).
func (m *Manager) Open(name string) (*Group, error) {
	if err := validName(name); err != nil {
		return nil, err
	}
	g := &Group{m: m, Name: name}
	if _, err := os.Stat(g.Path()); err != nil {
		return nil, fmt.Errorf("cgroup %s: %w", g.CgroupName(), err)
	}
	return g, nil
}

// levels are the group's directories in the cpu hierarchy, outermost first.
func (g *Group) levels() []string {
	var out []string
	dir := filepath.Join(g.m.CPU, g.m.Parent)
	for _, part := range strings.Split(g.Name, "/") {
		dir = filepath.Join(dir, part)
		out = append(out, dir)
	}
	return out
}

// SetQuota gives the group cpus cores per period (cpus <= 0: unlimited). The
// outer levels get the quota first when it grows and last when it shrinks:
// the kernel refuses a child quota above its parent's.
func (g *Group) SetQuota(cpus float64, period time.Duration) error {
	if period < time.Millisecond || period > time.Second {
		return fmt.Errorf("cfs period %s: want between 1ms and 1s", period)
	}
	quota := int64(-1)
	if cpus > 0 {
		quota = int64(cpus * float64(period/time.Microsecond))
		if quota < 1000 {
			return fmt.Errorf("%.3f cores of a %s period is a quota of %dus; the kernel wants >= 1000us", cpus, period, quota)
		}
	}
	levels := g.levels()
	// Lift every quota first, so the period can change without conflicts.
	for _, dir := range levels {
		if err := write(dir, "cpu.cfs_quota_us", "-1"); err != nil {
			return err
		}
	}
	for _, dir := range levels {
		if err := write(dir, "cpu.cfs_period_us", strconv.FormatInt(int64(period/time.Microsecond), 10)); err != nil {
			return err
		}
	}
	for _, dir := range levels {
		if err := write(dir, "cpu.cfs_quota_us", strconv.FormatInt(quota, 10)); err != nil {
			return err
		}
	}
	return nil
}

// SetShares sets the group's cpu.shares (default 1024): its weight when the
// machine's CPUs are contended. A low weight lets a process that spins (the
// epoll incident) use idle CPU without starving its neighbours, and unlike a
// quota it never throttles.
func (g *Group) SetShares(shares int) error {
	if shares < 2 || shares > 262144 {
		return fmt.Errorf("cpu.shares %d: want 2 to 262144", shares)
	}
	for _, dir := range g.levels() {
		if err := write(dir, "cpu.shares", strconv.Itoa(shares)); err != nil {
			return err
		}
	}
	return nil
}

// SetParentShares makes Parent (creating it) and sets its cpu.shares: the
// weight of all the demo's groups together against every process outside
// them. On a node the kubelet weighs its kubepods group by the node's
// allocatable CPUs, so a pod's quota, not its neighbours, caps it; here every
// other process of the demo runs in the root group at 1024 each, and a parent
// of default weight gets 1/(n+1) of the machine against n busy processes, on
// a busy machine less than its groups' quotas, which then never throttle.
func (m *Manager) SetParentShares(shares int) error {
	if shares < 2 || shares > 262144 {
		return fmt.Errorf("cpu.shares %d: want 2 to 262144", shares)
	}
	for _, root := range m.hierarchies() {
		if err := os.MkdirAll(filepath.Join(root, m.Parent), 0o755); err != nil {
			return fmt.Errorf("cgroup /%s: %w", m.Parent, err)
		}
	}
	return write(filepath.Join(m.CPU, m.Parent), "cpu.shares", strconv.Itoa(shares))
}

// Add moves a process (all its threads) into the group in every hierarchy.
func (g *Group) Add(pid int) error {
	for _, root := range g.m.hierarchies() {
		if err := write(filepath.Join(root, g.m.Parent, g.Name), "cgroup.procs", strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

// Remove moves any process left in the group back to the root group and
// removes the group's directories, innermost first, in every hierarchy, and
// Parent too once no other group is left in it.
func (g *Group) Remove() error {
	var errs []error
	for _, root := range g.m.hierarchies() {
		errs = append(errs, removeTree(root, filepath.Join(root, g.m.Parent, g.Name)))
		// Remove now-empty levels up to and including Parent.
		for dir := filepath.Dir(filepath.Join(root, g.m.Parent, g.Name)); dir != filepath.Clean(root); dir = filepath.Dir(dir) {
			if err := os.Remove(dir); err != nil {
				break // another group still lives there
			}
		}
	}
	return errors.Join(errs...)
}

// CleanStale removes every group under Parent, and Parent itself: what a
// previous run left behind after a crash. It returns the groups it removed.
func (m *Manager) CleanStale() ([]string, error) {
	var removed []string
	var errs []error
	for _, root := range m.hierarchies() {
		parent := filepath.Join(root, m.Parent)
		if _, err := os.Stat(parent); errors.Is(err, os.ErrNotExist) {
			continue
		}
		entries, _ := os.ReadDir(parent)
		for _, e := range entries {
			if e.IsDir() && root == m.CPU {
				removed = append(removed, "/"+m.Parent+"/"+e.Name())
			}
		}
		errs = append(errs, removeTree(root, parent))
	}
	return removed, errors.Join(errs...)
}

// removeTree empties and removes dir and every group below it. Processes
// still inside go back to the hierarchy's root group.
func removeTree(root, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.IsDir() {
			errs = append(errs, removeTree(root, filepath.Join(dir, e.Name())))
		}
	}
	if pids, err := readPids(dir); err == nil {
		for _, pid := range pids {
			_ = write(root, "cgroup.procs", pid) // it may have exited meanwhile
		}
	}
	// A process that just exited can keep the group busy for a moment.
	for i := 0; ; i++ {
		err = os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			break
		}
		if i == 20 {
			errs = append(errs, fmt.Errorf("removing %s: %w", dir, err))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.Join(errs...)
}

func readPids(dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(b)), nil
}

func write(dir, file, value string) error {
	if err := os.WriteFile(filepath.Join(dir, file), []byte(value), 0o644); err != nil {
		return fmt.Errorf("writing %s to %s: %w", value, filepath.Join(dir, file), err)
	}
	return nil
}
