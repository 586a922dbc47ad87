package mixin

import (
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// Links are applied once, last, to every alert: a runbook anchor per alert,
// the dashboard its labels open, and profile_url only when configured.
func TestAlertLinks(t *testing.T) {
	alerts := func(entry string) map[string]rule {
		m := map[string]rule{}
		for _, r := range renderRules(t, entry) {
			if r.Alert != "" {
				m[r.Alert] = r
			}
		}
		if want := len(harness.CatalogueAlerts(t)); len(m) != want {
			t.Fatalf("%s: %d alerts, the catalogue lists %d", entry, len(m), want)
		}
		return m
	}
	for name, r := range alerts("shipped.jsonnet") {
		if _, ok := r.Annotations["profile_url"]; ok {
			t.Errorf("%s: profile_url without a profiles URL configured", name)
		}
		for _, k := range []string{"summary", "description", "runbook_url", "dashboard_url"} {
			if r.Annotations[k] == "" {
				t.Errorf("%s: no %s", name, k)
			}
		}
		if r.Labels["severity"] == "" {
			t.Errorf("%s: no severity", name)
		}
	}
	for name, r := range alerts("profiles.jsonnet") {
		a := r.Annotations
		if want := "https://wiki.example.com/hotpath#" + strings.ToLower(name); a["runbook_url"] != want {
			t.Errorf("%s: runbook_url %q, want %q", name, a["runbook_url"], want)
		}
		dashboard, profile := "https://grafana.example.com/d/svc-cpu?", true
		if name == "CPUThrottlingSustained" { // a container, not a service
			dashboard, profile = "https://grafana.example.com/d/cfs?", false
		}
		if !strings.HasPrefix(a["dashboard_url"], dashboard) {
			t.Errorf("%s: dashboard_url %q, want %s...", name, a["dashboard_url"], dashboard)
		}
		if _, ok := a["profile_url"]; ok != profile {
			t.Errorf("%s: profile_url present %v, want %v", name, ok, profile)
		}
	}
}
