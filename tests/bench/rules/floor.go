//go:build bench

package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// floorGroup is the floor the pack is measured against: the
// cheapest honest read of the same inputs, one
// `sum by (<identity labels>) (rate(<input>[5m]))` per input counter, at the
// identity the pack aggregates that input to, evaluated in the same
// Prometheus, in the same run, at the same interval as the pack's groups.
// The two cAdvisor limits are gauges, which rate() would misread: their
// cheapest read is the instant value, `max by (<identity labels>) (<input>)`,
// as the pack reads them.
const floorGroup = "hotpath-floor"

// floorInputs are the pack's inputs and the labels it keeps of each.
var floorInputs = []struct {
	metric, by string
	gauge      bool
}{
	{"http_requests_total", "cluster, namespace, job, instance", false},
	{"process_cpu_seconds_total", "cluster, namespace, job, instance", false},
	{"go_memstats_alloc_bytes_total", "cluster, namespace, job", false},
	{"container_cpu_usage_seconds_total", "cluster, namespace, pod, container", false},
	{"container_cpu_cfs_periods_total", "cluster, namespace, pod, container", false},
	{"container_cpu_cfs_throttled_periods_total", "cluster, namespace, pod, container", false},
	{"container_cpu_cfs_throttled_seconds_total", "cluster, namespace, pod, container", false},
	{"container_spec_cpu_quota", "cluster, namespace, pod, container", true},
	{"container_spec_cpu_period", "cluster, namespace, pod, container", true},
	{"traces_service_graph_request_total", "client, server", false},
	// the profile bridge's rows, by service label and function
	{"hotpath_profile_cpu_seconds_total", "job, function", false},
	{"hotpath_profile_alloc_bytes_total", "job, function", false},
}

// writeFloor writes the floor group as a rule file and returns its path.
func writeFloor(t *testing.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, "groups:\n  - name: %s\n    rules:\n", floorGroup)
	for _, in := range floorInputs {
		if in.gauge {
			fmt.Fprintf(&b, "      - record: floor:%s:max\n        expr: 'max by (%s) (%s)'\n", in.metric, in.by, in.metric)
			continue
		}
		fmt.Fprintf(&b, "      - record: floor:%s:rate5m\n        expr: 'sum by (%s) (rate(%s[5m]))'\n", in.metric, in.by, in.metric)
	}
	path := filepath.Join(t.TempDir(), "floor.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// inputNames is the floor's inputs as a regular expression's alternatives.
var inputNames = func() string {
	var names []string
	for _, in := range floorInputs {
		names = append(names, in.metric)
	}
	return strings.Join(names, "|")
}()

// rawInput matches an expression that selects one of the pack's raw inputs
// (the floor's, and kube-state-metrics' limits, the fallback when cAdvisor's
// are dropped); every other rule reads only recorded series.
var rawInput = regexp.MustCompile(`\b(kube_pod_container_resource_limits|` + inputNames + `)\b`)

func readsRawInput(query string) bool { return rawInput.MatchString(query) }
