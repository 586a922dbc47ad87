package playground

import (
	"strings"
	"testing"
)

// Prometheus sends alerts to Alertmanager once the alert path runs, and
// only then.
func TestPromConfigHasAlertingOnlyWithAlertmanager(t *testing.T) {
	w := testWorld()
	if strings.Contains(w.PromConfig([]string{"r.yaml"}, false).YAML(), "alerting:") {
		t.Error("alerting section without Alertmanager")
	}
	w.Alertmanager = "127.0.0.1:29093"
	if cfg := w.PromConfig([]string{"r.yaml"}, false).YAML(); !strings.Contains(cfg, "alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: [\"127.0.0.1:29093\"]\n") {
		t.Errorf("config:\n%s", cfg)
	}
	if !strings.Contains(alertmanagerConfig("127.0.0.1:29095"), "url: http://127.0.0.1:29095/webhook") {
		t.Error("Alertmanager's receiver is not hotpath-notify")
	}
}
