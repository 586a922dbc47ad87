// Package catalogue reads catalogue/catalogue.json, the table of hotpath's
// alerts and the playground's incidents that `make generate` renders from
// jsonnet/catalogue.libsonnet, so the playground never spells an alert name,
// a story or a culprit pattern of its own.
//
// The file is found by walking up from the working directory to the
// repository root: the playground runs from the repository (it loads rules/
// and plugin/dist from there too), its tests from inside it.
package catalogue

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
)

// Alert is one hotpath alert.
type Alert struct {
	Name     string   `json:"name"`
	Identity string   `json:"identity"`
	Labels   []string `json:"labels"`
	Profile  string   `json:"profile"`  // "" when the cause is no code path
	Baseline string   `json:"baseline"` // "previous", "siblings", "dayEarlier" or ""
	Link     string   `json:"link"`
}

// Incident is one of the playground's incidents.
type Incident struct {
	Story   string `json:"story"`
	Service string `json:"service"`
	Alert   string `json:"alert"`
	Profile string `json:"profile"` // "" when the cause is no code path
	Culprit string `json:"culprit"` // a regex of the frames it adds; "" with no profile
	Driver  string `json:"driver"`
	// Answer is a regex of the code hotpath-notify's message must name first:
	// the culprit once runtime and syscall time is charged to its caller.
	Answer string `json:"answer"`
	// AlsoAnswers are the other alerts the service fires whose messages must
	// name the same code.
	AlsoAnswers []string `json:"alsoAnswers"`
}

// Catalogue is the whole file.
type Catalogue struct {
	Alerts    []Alert    `json:"alerts"`
	Incidents []Incident `json:"incidents"`
}

// Path is where the catalogue lives, relative to the repository root.
const Path = "catalogue/catalogue.json"

var load = sync.OnceValues(func() (Catalogue, error) {
	dir, err := os.Getwd()
	if err != nil {
		return Catalogue{}, err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, Path))
		if err == nil {
			return Parse(b)
		}
		if !os.IsNotExist(err) {
			return Catalogue{}, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Catalogue{}, fmt.Errorf("no %s in the working directory or above it: run from the hotpath repository", Path)
		}
		dir = parent
	}
})

// Parse reads the catalogue's JSON, refusing one without incidents or with an
// incident whose alert it does not list.
func Parse(b []byte) (Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", Path, err)
	}
	if len(c.Alerts) == 0 || len(c.Incidents) == 0 {
		return c, fmt.Errorf("%s: %d alerts, %d incidents; want both", Path, len(c.Alerts), len(c.Incidents))
	}
	alerts := map[string]bool{}
	for _, a := range c.Alerts {
		alerts[a.Name] = true
	}
	for _, i := range c.Incidents {
		if !alerts[i.Alert] {
			return c, fmt.Errorf("%s: incident %s expects alert %q, which it does not list", Path, i.Story, i.Alert)
		}
		for what, re := range map[string]string{"culprit": i.Culprit, "answer": i.Answer} {
			if _, err := regexp.Compile(re); err != nil {
				return c, fmt.Errorf("%s: incident %s: %s: %w", Path, i.Story, what, err)
			}
		}
		for _, a := range i.AlsoAnswers {
			if !alerts[a] {
				return c, fmt.Errorf("%s: incident %s: alsoAnswers names alert %q, which it does not list", Path, i.Story, a)
			}
		}
	}
	return c, nil
}

// Load returns the repository's catalogue.
func Load() (Catalogue, error) { return load() }

func must() Catalogue {
	c, err := load()
	if err != nil {
		panic(err)
	}
	return c
}

// Stories are the incidents' names, in the order `make demo` switches them on.
func Stories() []string {
	var out []string
	for _, i := range must().Incidents {
		out = append(out, i.Story)
	}
	return out
}

// Story is the incident of that name; it panics on a name the catalogue does
// not list (a story name comes from Stories, never from a user).
func Story(name string) Incident {
	for _, i := range must().Incidents {
		if i.Story == name {
			return i
		}
	}
	panic(fmt.Sprintf("%s lists no incident %q", Path, name))
}

// AlertNamed is the alert of that name; it panics on a name the catalogue
// does not list (the names come from the catalogue itself).
func AlertNamed(name string) Alert {
	for _, a := range must().Alerts {
		if a.Name == name {
			return a
		}
	}
	panic(fmt.Sprintf("%s lists no alert %q", Path, name))
}

// AnswerRegexp is the incident's answer pattern, compiled (nil with none).
func (i Incident) AnswerRegexp() *regexp.Regexp {
	if i.Answer == "" {
		return nil
	}
	return regexp.MustCompile(i.Answer)
}

// CulpritRegexp is the incident's culprit pattern, compiled (nil with none).
func (i Incident) CulpritRegexp() *regexp.Regexp {
	if i.Culprit == "" {
		return nil
	}
	return regexp.MustCompile(i.Culprit)
}

// FunctionAlert is the alert that names a function (its identity is
// "function": FunctionCostPerRequestRegression), or a zero Alert when the
// catalogue has none.
func FunctionAlert() Alert {
	for _, a := range must().Alerts {
		if a.Identity == "function" {
			return a
		}
	}
	return Alert{}
}

// EndpointAlert is the alert that names an endpoint (its identity is
// "endpoint": EndpointCostPerRequestRegression), or a zero Alert when the
// catalogue has none.
func EndpointAlert() Alert {
	for _, a := range must().Alerts {
		if a.Identity == "endpoint" {
			return a
		}
	}
	return Alert{}
}
