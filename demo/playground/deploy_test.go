package playground

import (
	"context"
	"net"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/demo/kubestate"
	"github.com/hotpath/hotpath/promkit"
)

// Every service whose targets name a pod has one: gzipper at the tag its
// rollout starts from, the others at the first tag.
func TestPods(t *testing.T) {
	var got []string
	for _, c := range testWorld().Pods() {
		got = append(got, c.ID()+"="+c.Image)
	}
	want := []string{
		"hotpath-demo/poller-0/poller=hotpath-demo/poller:1.0.0",
		"hotpath-demo/worker-0/worker=hotpath-demo/worker:1.0.0",
		"hotpath-demo/gzipper-0/gzipper=hotpath-demo/gzipper:1.4.2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("pods %q, want %q", got, want)
	}
}

// The history's kube_pod_container_info is what the live exporter serves,
// label for label, with the scrape's job and instance, at 1 all day; and
// gzipper's own series carry the (namespace, pod) the pack joins it through.
func TestHistoryCarriesTheLiveImages(t *testing.T) {
	w := testWorld()
	end := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	h := &History{World: w, Cal: testCalibration(w), End: end, LoadStart: end, Length: time.Hour, Step: 15 * time.Second, Seed: 1}
	series, err := h.series()
	if err != nil {
		t.Fatal(err)
	}
	history := map[string][]float64{}
	for _, s := range series {
		history[s.key] = s.values
	}
	srv := httptest.NewServer(kubestate.Handler(kubestate.NewPods(w.Pods())))
	defer srv.Close()
	live, err := promkit.Scrape(context.Background(), srv.URL+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range live {
		if m.Name != kubestate.InfoMetric {
			continue
		}
		n++
		m.Labels["job"], m.Labels["instance"] = KubeStateJob, w.KubeStateAddr()
		vals := history[m.Key()]
		if vals == nil {
			t.Errorf("no history for the live %s", m.Key())
			continue
		}
		if slices.Min(vals) != 1 || slices.Max(vals) != 1 {
			t.Errorf("%s: history between %g and %g, want 1", m.Key(), slices.Min(vals), slices.Max(vals))
		}
	}
	if n != 3 {
		t.Errorf("the exporter serves %d containers, want 3", n)
	}
	gz := w.Service("gzipper").Instances[0].Addr()
	if history[`http_requests_total{code="200",handler="/flags",instance="`+gz+`",job="gzipper",method="get",namespace="hotpath-demo",pod="gzipper-0"}`] == nil {
		t.Error("gzipper's requests lack the namespace and pod its image is joined through")
	}
}

// kube-state-metrics is scraped with honor_labels (its series name the pod),
// and not at all in a world without pods.
func TestPromConfigScrapesKubeState(t *testing.T) {
	w := testWorld()
	y := w.PromConfig(nil, true).YAML()
	want := `  - job_name: "kube-state-metrics"
    honor_labels: true
    static_configs:
      - targets: ["` + w.KubeStateAddr() + `"]`
	if !strings.Contains(y, want) {
		t.Errorf("no kube-state-metrics job with honor_labels in\n%s", y)
	}
	for _, s := range w.Services {
		s.Labels = nil
	}
	if y := w.PromConfig(nil, true).YAML(); strings.Contains(y, KubeStateJob) {
		t.Error("a world without pods scrapes kube-state-metrics")
	}
}

// A rollout comes DeployLead before its story's switch-on, in time order;
// no earlier than the start.
func TestWithRollouts(t *testing.T) {
	got := WithRollouts([]Step{
		{At: 10 * time.Minute, Story: "println", On: true},
		{At: 11 * time.Minute, Story: "gzip", On: true},
		{At: 20 * time.Minute, Story: "gzip", On: false},
	})
	want := []Step{
		{At: 9 * time.Minute, Story: "gzip", Deploy: true},
		{At: 10 * time.Minute, Story: "println", On: true},
		{At: 11 * time.Minute, Story: "gzip", On: true},
		{At: 20 * time.Minute, Story: "gzip", On: false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("schedule %v, want %v", got, want)
	}
	if got := WithRollouts([]Step{{At: time.Minute, Story: "gzip", On: true}}); got[0] != (Step{At: 0, Story: "gzip", Deploy: true}) {
		t.Errorf("an early story's rollout: %v", got)
	}
}

// Deploy starts gzipper's container again with the new tag; a story no
// rollout precedes is an error.
func TestDeploy(t *testing.T) {
	w := testWorld()
	pods := kubestate.NewPods(w.Pods())
	srv := httptest.NewServer(kubestate.Handler(pods))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	w.Ports.KubeState, _ = strconv.Atoi(port)
	r, was, err := w.Deploy(context.Background(), "gzip")
	if err != nil || r.To != "1.5.0" || was != "hotpath-demo/gzipper:1.4.2" {
		t.Fatalf("deploy: %+v, was %q, %v", r, was, err)
	}
	var images []string
	for _, c := range pods.List() {
		images = append(images, c.Image)
	}
	if !slices.Contains(images, "hotpath-demo/gzipper:1.5.0") || slices.Contains(images, "hotpath-demo/gzipper:1.4.2") {
		t.Errorf("images after the rollout: %v", images)
	}
	if _, _, err := w.Deploy(context.Background(), "println"); err == nil || !strings.Contains(err.Error(), `no rollout precedes the "println" story`) {
		t.Errorf("println: %v", err)
	}
}
