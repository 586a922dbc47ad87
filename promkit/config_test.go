package promkit

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/config"
)

// The config reads back through Prometheus's own config loader with every
// field where it was put.
func TestConfigLoads(t *testing.T) {
	c := Config{
		Header:             "test",
		ScrapeInterval:     15 * time.Second,
		ScrapeTimeout:      10 * time.Second,
		EvaluationInterval: 90 * time.Second,
		RuleQueryOffset:    3 * time.Second,
		ExternalLabels:     map[string]string{ReplicaLabel: "a", "cluster": "eu 1"},
		Alertmanagers:      []string{"127.0.0.1:9093"},
		RuleFiles:          []string{"/r/a.yaml"},
		ScrapeConfigs:      StaticJob("api", []string{"127.0.0.1:1", "127.0.0.1:2"}, map[string]string{"namespace": "shop"}, true),
	}
	cfg, err := config.Load(c.YAML(), nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.YAML())
	}
	g := cfg.GlobalConfig
	if time.Duration(g.ScrapeInterval) != 15*time.Second || time.Duration(g.EvaluationInterval) != 90*time.Second || time.Duration(g.ScrapeTimeout) != 10*time.Second || time.Duration(g.RuleQueryOffset) != 3*time.Second {
		t.Errorf("global %+v", g)
	}
	if g.ExternalLabels.Get("cluster") != "eu 1" || g.ExternalLabels.Get(ReplicaLabel) != "a" {
		t.Errorf("external labels %v", g.ExternalLabels)
	}
	if len(cfg.RuleFiles) != 1 || len(cfg.AlertingConfig.AlertmanagerConfigs) != 1 {
		t.Errorf("rule files %v, alertmanagers %d", cfg.RuleFiles, len(cfg.AlertingConfig.AlertmanagerConfigs))
	}
	sc := cfg.ScrapeConfigs
	if len(sc) != 1 || sc[0].JobName != "api" || !sc[0].HonorLabels {
		t.Fatalf("scrape configs %+v", sc)
	}
}
