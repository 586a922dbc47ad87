package main

import (
	"fmt"
	"testing"

	info "github.com/google/cadvisor/info/v1"
)

// Pod-level cgroups get container="" (hotpath's rules drop them with
// container!=""), container cgroups the full identity; others only their id.
func TestPodLabels(t *testing.T) {
	f := PodLabels("hotpath-demo", "demo")
	for name, want := range map[string]string{
		"/hotpath-demo/worker-0/worker": "container=worker id=/hotpath-demo/worker-0/worker name=worker namespace=demo pod=worker-0",
		"/hotpath-demo/worker-0":        "container= id=/hotpath-demo/worker-0 name= namespace=demo pod=worker-0",
		"/hotpath-demo":                 "container= id=/hotpath-demo namespace= pod=",
		"/":                             "container= id=/ namespace= pod=",
		"/hotpath-demo-other/x":         "container= id=/hotpath-demo-other/x namespace= pod=",
	} {
		got := f(&info.ContainerInfo{ContainerReference: info.ContainerReference{Name: name}})
		if s := render(got); s != want {
			t.Errorf("%s: %s, want %s", name, s, want)
		}
	}
}

func render(m map[string]string) string {
	keys := []string{"container", "id", "name", "namespace", "pod"}
	s := ""
	for _, k := range keys {
		if v, ok := m[k]; ok {
			if s != "" {
				s += " "
			}
			s += fmt.Sprintf("%s=%s", k, v)
		}
	}
	return s
}
