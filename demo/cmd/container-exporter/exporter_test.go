package main

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/hotpath/hotpath/demo/cgroup"
)

// Real cAdvisor on a real cgroup: a busy process under a 0.2-core quota shows
// up with its pod/container labels, its quota, its usage and its throttling.
func TestExporterServesRealThrottling(t *testing.T) {
	parent := fmt.Sprintf("hotpath-test-exporter-%d", os.Getpid())
	cg := cgroup.Default(parent)
	if err := cg.Check(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	defer func() { _, _ = cg.CleanStale() }()
	g, err := cg.Create("pod-t/app", 0.2, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	busy := exec.Command("sh", "-c", "while :; do :; done")
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = busy.Process.Kill(); _ = busy.Wait() }()
	if err := g.Add(busy.Process.Pid); err != nil {
		t.Fatal(err)
	}
	m, err := newManager(parent, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	reg := newRegistry(m, parent, "demo")

	want := map[string]func(float64) bool{
		"container_cpu_usage_seconds_total":         func(v float64) bool { return v > 0 },
		"container_cpu_cfs_periods_total":           func(v float64) bool { return v > 0 },
		"container_cpu_cfs_throttled_periods_total": func(v float64) bool { return v > 0 },
		"container_cpu_cfs_throttled_seconds_total": func(v float64) bool { return v > 0 },
		"container_spec_cpu_quota":                  func(v float64) bool { return v == 20000 },
		"container_spec_cpu_period":                 func(v float64) bool { return v == 100000 },
	}
	var got map[string]float64
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		got = appSeries(t, reg.Gather)
		ok := true
		for name, check := range want {
			ok = ok && check(got[name])
		}
		if ok {
			t.Logf("cAdvisor for /%s/pod-t/app: %v", parent, got)
			return
		}
	}
	t.Fatalf("after 10s the app container's series are %v", got)
}

// appSeries picks the values of the series labelled as the test's container.
func appSeries(t *testing.T, gather func() ([]*dto.MetricFamily, error)) map[string]float64 {
	t.Helper()
	mfs, err := gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["namespace"] != "demo" || labels["pod"] != "pod-t" || labels["container"] != "app" {
				continue
			}
			switch {
			case m.Counter != nil:
				out[mf.GetName()] += m.Counter.GetValue()
			case m.Gauge != nil:
				out[mf.GetName()] = m.Gauge.GetValue()
			}
		}
	}
	return out
}
