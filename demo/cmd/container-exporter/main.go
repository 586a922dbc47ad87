// Command container-exporter serves cAdvisor's container metrics for the
// demo's cgroups, by embedding cAdvisor v0.52.1 as a library the way the
// kubelet does: manager.New with the raw cgroup handler (restricted to the
// demo's parent group), and metrics.NewPrometheusCollector with a
// ContainerLabelsFunc that turns cgroup paths into namespace/pod/container.
// cAdvisor's own command module is not on the Go module proxy, and v0.53+
// moved into a module the proxy refuses; v0.52.1 builds as a library.
//
//	container-exporter [-listen 127.0.0.1:9180] [-parent hotpath-demo] [-namespace hotpath-demo] [-housekeeping 1s]
//
// Served: container_cpu_usage_seconds_total, container_cpu_cfs_periods_total,
// container_cpu_cfs_throttled_periods_total, container_cpu_cfs_throttled_seconds_total,
// container_spec_cpu_quota, container_spec_cpu_period (and cAdvisor's other
// cpu series) for /hotpath-demo/<pod> (container="") and
// /hotpath-demo/<pod>/<container>.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/google/cadvisor/cache/memory"
	"github.com/google/cadvisor/container"
	v2 "github.com/google/cadvisor/info/v2"
	"github.com/google/cadvisor/manager"
	"github.com/google/cadvisor/metrics"
	"github.com/google/cadvisor/utils/sysfs"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"k8s.io/utils/clock"

	"github.com/hotpath/hotpath/demo/cgroup"
	"github.com/hotpath/hotpath/demo/httpserve"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:9180", "address to serve /metrics on")
	parent := flag.String("parent", "hotpath-demo", "cgroup parent whose groups are exported (cgroup-helper's -parent)")
	namespace := flag.String("namespace", "hotpath-demo", "namespace label the groups get")
	housekeeping := flag.Duration("housekeeping", time.Second, "how often cAdvisor reads each group's stats")
	flag.Parse()

	// Say so clearly where cgroups are missing, instead of serving nothing.
	if _, err := os.Stat(cgroup.Default(*parent).CPU); err != nil {
		fmt.Fprintf(os.Stderr, "container-exporter: no cgroup v1 cpu controller (%v): container metrics are unavailable here\n", err)
		os.Exit(3)
	}
	m, err := newManager(*parent, *housekeeping)
	if err != nil {
		fmt.Fprintf(os.Stderr, "container-exporter: starting cAdvisor: %v\n", err)
		os.Exit(1)
	}
	defer m.Stop()

	reg := newRegistry(m, *parent, *namespace)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))

	err = httpserve.Run(*listen, mux, func(context.Context, string) error {
		fmt.Fprintf(os.Stderr, "container-exporter: cAdvisor v0.52.1 watching /%s, serving http://%s/metrics\n", *parent, *listen)
		return nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "container-exporter: %v\n", err)
		os.Exit(1)
	}
}

// newRegistry serves the manager's containers as the kubelet's
// /metrics/cadvisor does: every container below "/", latest stats only.
func newRegistry(m manager.Manager, parent, namespace string) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	opts := v2.RequestOptions{IdType: v2.TypeName, Count: 1, Recursive: true}
	reg.MustRegister(metrics.NewPrometheusCollector(m, PodLabels(parent, namespace), includedMetrics, clock.RealClock{}, opts))
	return reg
}

// includedMetrics is what hotpath reads: cpu usage and CFS. cgroup-helper
// makes groups in the cpu and cpuacct hierarchies only, so memory, disk and
// network series would be zeros, not measurements: they are left out.
var includedMetrics = container.MetricSet{
	container.CpuUsageMetrics: struct{}{},
}

// newManager starts cAdvisor as the kubelet does (pkg/kubelet/cadvisor): an
// in-memory stats cache, the real sysfs, fixed housekeeping, and the raw
// cgroup handler restricted to the demo's groups (the kubelet passes its
// cgroup roots the same way).
func newManager(parent string, interval time.Duration) (manager.Manager, error) {
	allowDynamic := false
	hk := manager.HousekeepingConfig{Interval: &interval, AllowDynamic: &allowDynamic}
	m, err := manager.New(memory.New(2*time.Minute, nil), sysfs.NewRealSysFs(), hk, includedMetrics,
		http.DefaultClient, []string{"/" + parent}, nil, "", 0)
	if err != nil {
		return nil, err
	}
	if err := m.Start(); err != nil {
		return nil, err
	}
	return m, nil
}
