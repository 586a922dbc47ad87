package main

import (
	"strings"

	info "github.com/google/cadvisor/info/v1"
	"github.com/google/cadvisor/metrics"
)

// PodLabels maps the demo's cgroup paths to the labels the kubelet gives
// cAdvisor's series: /<parent>/<pod> is a pod-level cgroup (container="",
// which hotpath's rules drop with container!=""), /<parent>/<pod>/<container>
// a container. Every other cgroup (the root) keeps only its id.
func PodLabels(parent, namespace string) metrics.ContainerLabelsFunc {
	prefix := "/" + parent + "/"
	return func(c *info.ContainerInfo) map[string]string {
		set := map[string]string{metrics.LabelID: c.Name, "namespace": "", "pod": "", "container": ""}
		rest, ok := strings.CutPrefix(c.Name, prefix)
		if !ok || rest == "" {
			return set
		}
		pod, ctr, _ := strings.Cut(rest, "/")
		set["namespace"], set["pod"], set["container"] = namespace, pod, ctr
		set[metrics.LabelName] = ctr
		return set
	}
}
