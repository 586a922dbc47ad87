package catalogue

import (
	"slices"
	"strings"
	"testing"
)

func TestRepositoryCatalogue(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := Stories(); !slices.Contains(got, "println") || len(got) != len(c.Incidents) {
		t.Errorf("stories %v", got)
	}
	p := Story("println")
	if p.Alert == "" || p.Service != "api" || !p.CulpritRegexp().MatchString("google.golang.org/protobuf/internal/encoding/text.appendString") {
		t.Errorf("println: %+v", p)
	}
	if r := Story("cfs").CulpritRegexp(); r != nil {
		t.Errorf("cfs has a culprit %v; throttling is no code path", r)
	}
}

func TestParseRefusesBrokenCatalogues(t *testing.T) {
	for name, text := range map[string]string{
		"not json":      `{`,
		"no incidents":  `{"alerts": [{"name": "A"}], "incidents": []}`,
		"unknown alert": `{"alerts": [{"name": "A"}], "incidents": [{"story": "s", "alert": "B"}]}`,
		"bad culprit":   `{"alerts": [{"name": "A"}], "incidents": [{"story": "s", "alert": "A", "culprit": "("}]}`,
	} {
		if _, err := Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), Path) {
			t.Errorf("%s: err %v, want one naming %s", name, err, Path)
		}
	}
}
