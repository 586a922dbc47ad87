package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// CatalogueAlert is one alert of catalogue/catalogue.json (generated from
// jsonnet/catalogue.libsonnet), as far as the tests read it.
type CatalogueAlert struct {
	Name            string   `json:"name"`
	HasServiceLabel bool     `json:"hasServiceLabel"`
	Labels          []string `json:"labels"` // its identity labels
	Severity        string   `json:"severity"`
}

// CatalogueAlerts are the catalogue's alerts, in its order: what a test
// compares the rule pack with, instead of a count or names of its own.
func CatalogueAlerts(t testing.TB) []CatalogueAlert {
	t.Helper()
	path := filepath.Join(RepoRoot(), "catalogue", "catalogue.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the catalogue (make generate writes it): %v", err)
	}
	var c struct {
		Alerts []CatalogueAlert `json:"alerts"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(c.Alerts) == 0 {
		t.Fatalf("%s lists no alert", path)
	}
	return c.Alerts
}
