package kubestate

import (
	"encoding/json"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Handler serves the pods: GET /metrics (InfoMetric), GET /admin (the
// containers as JSON) and POST /admin/image?namespace=&pod=&container=&image=
// (a rollout: the container starts again with that image).
func Handler(p *Pods) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(p)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("GET /admin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(p.List())
	})
	mux.HandleFunc("POST /admin/image", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		c := Container{Namespace: q.Get("namespace"), Pod: q.Get("pod"), Container: q.Get("container")}
		was, err := p.SetImage(c.ID(), q.Get("image"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"container": c.ID(), "was": was.Image, "image": q.Get("image")})
	})
	return mux
}
