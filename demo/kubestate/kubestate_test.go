package kubestate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hotpath/hotpath/promkit"
)

func scrape(t *testing.T, url string) []promkit.Metric {
	t.Helper()
	ms, err := promkit.Scrape(context.Background(), url+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var out []promkit.Metric
	for _, m := range ms {
		if m.Name == InfoMetric {
			out = append(out, m)
		}
	}
	return out
}

func post(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Post(url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The series carries kube-state-metrics' labels; a rollout replaces it with
// one of the new image and a new container id, the pod and its uid kept.
func TestRolloutReplacesTheContainersSeries(t *testing.T) {
	srv := httptest.NewServer(Handler(NewPods([]Container{
		{Namespace: "demo", Pod: "gzipper-0", Container: "gzipper", Image: "hotpath-demo/gzipper:1.4.2"},
		{Namespace: "demo", Pod: "worker-0", Container: "worker", Image: "hotpath-demo/worker:1.0.0"},
	})))
	defer srv.Close()
	before := scrape(t, srv.URL)
	if len(before) != 2 {
		t.Fatalf("%d series, want 2: %v", len(before), before)
	}
	g := before[0].Labels
	if g["pod"] != "gzipper-0" || g["container"] != "gzipper" || g["namespace"] != "demo" || g["image"] != "hotpath-demo/gzipper:1.4.2" ||
		g["image_spec"] != g["image"] || len(g["uid"]) != 36 || len(g["image_id"]) != len("hotpath-demo/gzipper@sha256:")+64 || len(g["container_id"]) != len("containerd://")+64 || before[0].Value != 1 {
		t.Fatalf("gzipper's series: %v = %g", g, before[0].Value)
	}
	if code := post(t, srv.URL+"/admin/image?namespace=demo&pod=gzipper-0&container=gzipper&image=hotpath-demo/gzipper:1.5.0"); code != 200 {
		t.Fatalf("rollout: %d", code)
	}
	after := scrape(t, srv.URL)
	if len(after) != 2 {
		t.Fatalf("%d series after the rollout, want 2: %v", len(after), after)
	}
	n := after[0].Labels
	if n["image"] != "hotpath-demo/gzipper:1.5.0" || n["uid"] != g["uid"] || n["pod"] != g["pod"] || n["container_id"] == g["container_id"] || n["image_id"] == g["image_id"] {
		t.Errorf("after the rollout: %v (before: %v)", n, g)
	}
	if after[1].Key() != before[1].Key() {
		t.Errorf("the worker changed: %s -> %s", before[1].Key(), after[1].Key())
	}
}

func TestBadRolloutsChangeNothing(t *testing.T) {
	srv := httptest.NewServer(Handler(NewPods([]Container{{Namespace: "demo", Pod: "gzipper-0", Container: "gzipper", Image: "hotpath-demo/gzipper:1.4.2"}})))
	defer srv.Close()
	before := scrape(t, srv.URL)
	for _, q := range []string{
		"namespace=demo&pod=gzipper-1&container=gzipper&image=x:1", // no such pod
		"namespace=demo&pod=gzipper-0&container=gzipper",           // no image
	} {
		if code := post(t, srv.URL+"/admin/image?"+q); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
	if after := scrape(t, srv.URL); len(after) != 1 || after[0].Key() != before[0].Key() {
		t.Errorf("after bad rollouts: %v, want %v", after, before)
	}
}
