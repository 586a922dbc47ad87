//go:build bench

package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// floorGroup is the floor the pack is measured against (issue 11): the
// cheapest honest read of the same inputs, one
// `sum by (<identity labels>) (rate(<input>[5m]))` per input counter, at the
// identity the pack aggregates that input to, evaluated in the same
// Prometheus, in the same run, at the same interval as the pack's groups.
const floorGroup = "hotpath-floor"

// floorInputs are the pack's input counters and the labels it keeps of each.
var floorInputs = []struct{ metric, by string }{
	{"http_requests_total", "cluster, namespace, job, instance"},
	{"process_cpu_seconds_total", "cluster, namespace, job, instance"},
	{"go_memstats_alloc_bytes_total", "cluster, namespace, job"},
	{"container_cpu_usage_seconds_total", "cluster, namespace, pod, container"},
	{"container_cpu_cfs_periods_total", "cluster, namespace, pod, container"},
	{"container_cpu_cfs_throttled_periods_total", "cluster, namespace, pod, container"},
	{"container_cpu_cfs_throttled_seconds_total", "cluster, namespace, pod, container"},
	{"traces_service_graph_request_total", "client, server"},
}

// writeFloor writes the floor group as a rule file and returns its path.
func writeFloor(t *testing.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, "groups:\n  - name: %s\n    rules:\n", floorGroup)
	for _, in := range floorInputs {
		fmt.Fprintf(&b, "      - record: floor:%s:rate5m\n        expr: 'sum by (%s) (rate(%s[5m]))'\n", in.metric, in.by, in.metric)
	}
	path := filepath.Join(t.TempDir(), "floor.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
