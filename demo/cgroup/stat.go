package cgroup

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Stat is a group's CFS accounting (cpu.stat) and CPU usage (cpuacct.usage):
// the raw numbers behind container_cpu_cfs_* and container_cpu_usage_seconds_total.
type Stat struct {
	Periods, ThrottledPeriods uint64
	ThrottledTime, Usage      time.Duration
	// Quota is the CPU limit in cores; 0 when unlimited.
	Quota float64
}

// Stat reads the group's counters now.
func (g *Group) Stat() (Stat, error) {
	var s Stat
	f, err := os.Open(filepath.Join(g.Path(), "cpu.stat"))
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.ParseUint(v, 10, 64)
		switch k {
		case "nr_periods":
			s.Periods = n
		case "nr_throttled":
			s.ThrottledPeriods = n
		case "throttled_time":
			s.ThrottledTime = time.Duration(n)
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	acct := filepath.Join(g.m.CPU, g.m.Parent, g.Name)
	if hs := g.m.hierarchies(); len(hs) > 1 {
		acct = filepath.Join(hs[1], g.m.Parent, g.Name)
	}
	if n, err := readInt(filepath.Join(acct, "cpuacct.usage")); err == nil {
		s.Usage = time.Duration(n)
	}
	quota, err1 := readInt(filepath.Join(g.Path(), "cpu.cfs_quota_us"))
	period, err2 := readInt(filepath.Join(g.Path(), "cpu.cfs_period_us"))
	if err1 != nil || err2 != nil {
		return s, fmt.Errorf("reading the quota of %s: %v %v", g.CgroupName(), err1, err2)
	}
	if quota > 0 && period > 0 {
		s.Quota = float64(quota) / float64(period)
	}
	return s, nil
}

// Rates is what happened between two Stats, per second of wall time: the
// quantities CPUThrottlingSustained alerts on.
type Rates struct {
	ThrottledRatio   float64 // throttled periods / periods
	ThrottledSeconds float64 // seconds throttled per second
	UsageCores       float64 // CPU seconds per second
}

// Since computes the rates from an earlier Stat taken wall ago.
func (s Stat) Since(before Stat, wall time.Duration) Rates {
	var r Rates
	if dp := s.Periods - before.Periods; dp > 0 {
		r.ThrottledRatio = float64(s.ThrottledPeriods-before.ThrottledPeriods) / float64(dp)
	}
	if wall > 0 {
		r.ThrottledSeconds = (s.ThrottledTime - before.ThrottledTime).Seconds() / wall.Seconds()
		r.UsageCores = (s.Usage - before.Usage).Seconds() / wall.Seconds()
	}
	return r
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}
