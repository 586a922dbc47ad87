// Command kube-state-exporter stands in for kube-state-metrics in the
// playground: it serves kube_pod_container_info for the world's pods (the
// image each container runs, which hotpath's default versionSources reads as
// the service's version), and changes a container's image on request (the
// playground's rollout).
//
//	kube-state-exporter [-listen 127.0.0.1:9181] -container NAMESPACE/POD/CONTAINER=IMAGE ...
//
// POST /admin/image?namespace=&pod=&container=&image= rolls the container
// out with the new image; GET /admin lists the containers.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hotpath/hotpath/demo/httpserve"
	"github.com/hotpath/hotpath/demo/kubestate"
)

type containerFlags []kubestate.Container

func (c *containerFlags) String() string { return fmt.Sprint(*c) }

func (c *containerFlags) Set(v string) error {
	id, image, ok := strings.Cut(v, "=")
	parts := strings.Split(id, "/")
	if !ok || image == "" || len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return fmt.Errorf("%q: want NAMESPACE/POD/CONTAINER=IMAGE", v)
	}
	*c = append(*c, kubestate.Container{Namespace: parts[0], Pod: parts[1], Container: parts[2], Image: image})
	return nil
}

func main() {
	listen := flag.String("listen", "127.0.0.1:9181", "address to serve /metrics and /admin on")
	var containers containerFlags
	flag.Var(&containers, "container", "a pod's container and its image, NAMESPACE/POD/CONTAINER=IMAGE (repeatable)")
	flag.Parse()
	if len(containers) == 0 {
		fmt.Fprintln(os.Stderr, "kube-state-exporter: no -container given: nothing to serve")
		os.Exit(2)
	}
	err := httpserve.Run(*listen, kubestate.Handler(kubestate.NewPods(containers)), func(context.Context, string) error {
		fmt.Fprintf(os.Stderr, "kube-state-exporter: %d containers, serving http://%s/metrics\n", len(containers), *listen)
		return nil
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-state-exporter: %v\n", err)
		os.Exit(1)
	}
}
