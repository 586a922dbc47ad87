package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"time"

	"github.com/hotpath/hotpath/demo/kubestate"
	"github.com/hotpath/hotpath/promkit"
)

// The playground's pods as kube-state-metrics reports them (demo/kubestate:
// kube_pod_container_info, the image each container runs), so the rule
// pack's default versionSources knows each pod'ed service's version from
// the first minute of the history on, and the deploy that precedes a story.

// KubeStateJob is the job kube-state-metrics is scraped as (with
// honor_labels, as kube-prometheus scrapes it: the series name the pod).
const KubeStateJob = "kube-state-metrics"

// imageRepo is where the services' images come from: <imageRepo>/<job>:<tag>.
const imageRepo = "hotpath-demo"

// firstTag is the tag a service's image runs at the start, unless a
// rollout names another.
const firstTag = "1.0.0"

// Rollout is a new version of a story's service, rolled out DeployLead
// before its incident begins: the regression follows the deploy, as a bad
// release's does, and hotpath-notify's message names it.
type Rollout struct {
	Story, Job string
	From, To   string // image tags
}

// Rollouts are the stories that follow a deploy.
var Rollouts = []Rollout{{Story: "gzip", Job: "gzipper", From: "1.4.2", To: "1.5.0"}}

// DeployLead is how long a rollout comes before its incident: long enough
// for the pack to record the deploy (a scrape, 15s, then an evaluation, 1m)
// before the regression begins, so the old version's last window is clean;
// far inside the pack's deployWindow (2h), so the alert carries the deploy.
const DeployLead = 2 * time.Minute

// RolloutOf is the rollout before story, or nil.
func RolloutOf(story string) *Rollout {
	for i := range Rollouts {
		if Rollouts[i].Story == story {
			return &Rollouts[i]
		}
	}
	return nil
}

// Image is a service's image at tag.
func Image(job, tag string) string { return fmt.Sprintf("%s/%s:%s", imageRepo, job, tag) }

// Pods are the world's pods at the start: one container, named as its job,
// for each service whose target labels name a pod (the requests series
// carry namespace and pod, which the pack joins the image through).
func (w *World) Pods() []kubestate.Container {
	var out []kubestate.Container
	for _, s := range w.Services {
		pod := s.Labels["pod"]
		if pod == "" {
			continue
		}
		tag := firstTag
		for _, r := range Rollouts {
			if r.Job == s.Job {
				tag = r.From
			}
		}
		out = append(out, kubestate.Container{Namespace: s.Labels["namespace"], Pod: pod, Container: s.Job, Image: Image(s.Job, tag)})
	}
	return out
}

// PodInfo are the Pods' series as kube-state-metrics serves them (without
// the target's job and instance).
func (w *World) PodInfo() []promkit.Metric {
	var out []promkit.Metric
	for _, c := range w.Pods() {
		out = append(out, promkit.Metric{Name: kubestate.InfoMetric, Labels: c.Labels(), Value: 1})
	}
	return out
}

// KubeStateAddr is the exporter's address (its instance label).
func (w *World) KubeStateAddr() string { return fmt.Sprintf("127.0.0.1:%d", w.Ports.KubeState) }

// kubeStateScrape is the exporter's scrape job ("" without pods).
func (w *World) kubeStateScrape() string {
	if len(w.Pods()) == 0 {
		return ""
	}
	return promkit.StaticJob(KubeStateJob, []string{w.KubeStateAddr()}, nil, true)
}

func (w *World) kubeStatePorts(m map[int]string) {
	if len(w.Pods()) > 0 {
		m[w.Ports.KubeState] = "kube-state-exporter (kube-state-metrics' pod containers)"
	}
}

// Deploy rolls out the story's new version: its pod's container starts
// again with the new tag. It returns the rollout and the image the
// container ran before (the new one already when it was rolled out).
func (w *World) Deploy(ctx context.Context, story string) (*Rollout, string, error) {
	r := RolloutOf(story)
	var s *Service
	if r != nil {
		s = w.Service(r.Job)
	}
	if s == nil || s.Labels["pod"] == "" {
		return nil, "", fmt.Errorf("no rollout precedes the %q story in this world", story)
	}
	q := url.Values{"namespace": {s.Labels["namespace"]}, "pod": {s.Labels["pod"]}, "container": {s.Job}, "image": {Image(s.Job, r.To)}}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+w.KubeStateAddr()+"/admin/image?"+q.Encode(), nil)
	if err != nil {
		return nil, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("rolling out %s %s: %w (is the playground running?)", r.Job, r.To, err)
	}
	defer resp.Body.Close()
	var out struct{ Was string }
	if resp.StatusCode != 200 {
		return nil, "", fmt.Errorf("rolling out %s %s: %s", r.Job, r.To, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, "", err
	}
	return r, out.Was, nil
}

// Deploy rolls out the story's new version (World.Deploy).
func (inc *Incidents) Deploy(ctx context.Context, story string) (*Rollout, string, error) {
	return inc.World.Deploy(ctx, story)
}

// startKubeState starts the kube-state-metrics stand-in with the world's pods.
func (p *Processes) startKubeState(ctx context.Context) error {
	pods := p.World.Pods()
	if len(pods) == 0 {
		return nil
	}
	argv := []string{p.bin("kube-state-exporter"), "-listen", p.World.KubeStateAddr()}
	for _, c := range pods {
		argv = append(argv, "-container", c.ID()+"="+c.Image)
	}
	proc, err := p.Sup.Start("kube-state-exporter", false, nil, argv...)
	if err != nil {
		return err
	}
	if err := promkit.WaitHTTP(ctx, proc, "http://"+p.World.KubeStateAddr()+"/metrics", 20*time.Second); err != nil {
		return fmt.Errorf("kube-state-exporter: %w", err)
	}
	p.Logf("    %-10s http://%s/metrics (kube_pod_container_info of %d pods)", "kube-state", p.World.KubeStateAddr(), len(pods))
	return nil
}

// WithRollouts adds a Deploy step DeployLead before each switch-on of a
// story that a rollout precedes (at the start when that is earlier).
func WithRollouts(schedule []Step) []Step {
	var out []Step
	for _, s := range schedule {
		if s.On && RolloutOf(s.Story) != nil {
			out = append(out, Step{At: max(0, s.At-DeployLead), Story: s.Story, Deploy: true})
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}
