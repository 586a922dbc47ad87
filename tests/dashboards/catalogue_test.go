package dashboards

import (
	"slices"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// serviceAlertNames are the catalogue's alerts that carry the service label.
func serviceAlertNames(t *testing.T) []string {
	var out []string
	for _, a := range harness.CatalogueAlerts(t) {
		if a.HasServiceLabel {
			out = append(out, a.Name)
		}
	}
	return out
}

func catalogueAlertNames(t *testing.T) []string {
	var out []string
	for _, a := range harness.CatalogueAlerts(t) {
		out = append(out, a.Name)
	}
	return slices.Sorted(slices.Values(out))
}
