// Package kubestate stands in for kube-state-metrics in the playground: the
// kube_pod_container_info series of the world's pods, labelled as
// kube-state-metrics v2 labels them, and the one change the playground makes
// to a pod: a new image for a container (a rollout).
package kubestate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// InfoMetric is kube-state-metrics' series of a pod's container; hotpath's
// default versionSources reads the tag of its `image`.
const InfoMetric = "kube_pod_container_info"

// infoLabels are InfoMetric's labels, in kube-state-metrics' order.
var infoLabels = []string{"namespace", "pod", "uid", "container", "image_spec", "image", "image_id", "container_id"}

// Container is one container of a pod and the image it runs.
type Container struct {
	Namespace, Pod, Container, Image string
}

// ID is the container's place: namespace/pod/container.
func (c Container) ID() string { return c.Namespace + "/" + c.Pod + "/" + c.Container }

// Labels are InfoMetric's labels for the container, as kube-state-metrics
// gives them on containerd: the pod's uid, the image as specified and as
// run, the image's digest and the runtime's container id. The ids are
// derived from the pod and the image, so a container that starts again
// with a new image gets a new container_id, as the kubelet gives it.
func (c Container) Labels() map[string]string {
	repo := c.Image
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo = repo[:i]
	}
	uid := digest("pod", c.Namespace, c.Pod)
	return map[string]string{
		"namespace":    c.Namespace,
		"pod":          c.Pod,
		"uid":          fmt.Sprintf("%s-%s-%s-%s-%s", uid[:8], uid[8:12], uid[12:16], uid[16:20], uid[20:32]),
		"container":    c.Container,
		"image_spec":   c.Image,
		"image":        c.Image,
		"image_id":     repo + "@sha256:" + digest("image", c.Image),
		"container_id": "containerd://" + digest("container", c.ID(), c.Image),
	}
}

func digest(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])
}

// Pods is the running set of containers, served as InfoMetric (a
// prometheus.Collector). Safe for concurrent use.
type Pods struct {
	mu         sync.Mutex
	containers map[string]Container // by ID
	desc       *prometheus.Desc
}

// NewPods serves the given containers.
func NewPods(cs []Container) *Pods {
	p := &Pods{containers: map[string]Container{},
		desc: prometheus.NewDesc(InfoMetric, "[STABLE] Information about a container in a pod.", infoLabels, nil)}
	for _, c := range cs {
		p.containers[c.ID()] = c
	}
	return p
}

// SetImage starts a container again with a new image, in place (the pod
// keeps its name): its series is replaced by one with the new image and
// container id. It returns the container as it was.
func (p *Pods) SetImage(id, image string) (Container, error) {
	if image == "" {
		return Container{}, fmt.Errorf("no image given for %s", id)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.containers[id]
	if !ok {
		return Container{}, fmt.Errorf("no container %s (containers: %s)", id, strings.Join(p.idsLocked(), ", "))
	}
	was := c
	c.Image = image
	p.containers[id] = c
	return was, nil
}

// List is every container, sorted by ID.
func (p *Pods) List() []Container {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Container, 0, len(p.containers))
	for _, id := range p.idsLocked() {
		out = append(out, p.containers[id])
	}
	return out
}

func (p *Pods) idsLocked() []string {
	ids := make([]string, 0, len(p.containers))
	for id := range p.containers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Describe implements prometheus.Collector.
func (p *Pods) Describe(ch chan<- *prometheus.Desc) { ch <- p.desc }

// Collect implements prometheus.Collector: one series of value 1 per container.
func (p *Pods) Collect(ch chan<- prometheus.Metric) {
	for _, c := range p.List() {
		l := c.Labels()
		values := make([]string, len(infoLabels))
		for i, k := range infoLabels {
			values[i] = l[k]
		}
		ch <- prometheus.MustNewConstMetric(p.desc, prometheus.GaugeValue, 1, values...)
	}
}
