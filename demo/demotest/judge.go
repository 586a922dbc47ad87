package demotest

import (
	"fmt"
	"time"

	"github.com/hotpath/hotpath/demo/catalogue"
	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// Phase is where demo-test's schedule is when it looks at the alerts.
type Phase int

const (
	// Normal: no incident is on, and no alert may fire at all.
	Normal Phase = iota
	// Incidents: every incident is on; each expectation must fire, and
	// nothing may fire for a healthy service or instance.
	Incidents
)

// Observation is one look at the alerts API: what it served, when and in
// which phase.
type Observation struct {
	At     time.Time
	Phase  Phase
	Alerts []promkit.Alert
}

// Judge turns observations into verdicts: which expectations fired and
// how long after their incident's start, which alerts fired where they
// must not (Violations) and which others fired (AlsoFired, not asserted).
type Judge struct {
	World       *playground.World
	LiveAt      time.Time // the rules went live: the normal phase's start
	IncidentsOn time.Time // the incidents' start (set when they switch on)
	// Within is the service alerts' bound (Expectation.Within); 0: none.
	Within                   time.Duration
	Results                  []Fired
	Violations               []string
	AlsoFired                []string
	seenViolation, seenOther map[string]bool
}

// NewJudge judges the alerts of w, live since liveAt, against exps.
func NewJudge(w *playground.World, liveAt time.Time, exps []Expectation) *Judge {
	j := &Judge{World: w, LiveAt: liveAt, seenViolation: map[string]bool{}, seenOther: map[string]bool{}}
	for _, e := range exps {
		j.Results = append(j.Results, Fired{Expectation: e})
	}
	return j
}

// Observe judges one observation. It returns what it newly found, a line
// each, for the progress output: each alert is reported once.
func (j *Judge) Observe(obs Observation) []string {
	var news []string
	for _, a := range obs.Alerts {
		id := alertID(a)
		// While only the traffic mix moved, an endpoint alert may not even
		// be pending: its expression alone would name a route for it.
		if obs.Phase == Normal && a.State == "pending" && a.Labels["alertname"] == catalogue.EndpointAlert().Name {
			news = append(news, j.violation(id, fmt.Sprintf("%s was pending during the normal phase (only the traffic mix moved), %s after the rules went live (value %s)", id, obs.At.Sub(j.LiveAt).Round(time.Second), a.Value))...)
			continue
		}
		if a.State != "firing" {
			continue
		}
		if obs.Phase == Normal {
			news = append(news, j.violation(id, fmt.Sprintf("%s fired during the normal phase, %s after the rules went live (value %s)", id, obs.At.Sub(j.LiveAt).Round(time.Second), a.Value))...)
			continue
		}
		since := obs.At.Sub(j.IncidentsOn)
		if why := healthyReason(j.World, a); why != "" {
			news = append(news, j.violation(id, fmt.Sprintf("%s fired for a %s, %s after the incidents started (value %s)", id, why, since.Round(time.Second), a.Value))...)
			continue
		}
		matched := false
		for i := range j.Results {
			r := &j.Results[i]
			if r.matches(a) {
				matched = true
				if !r.Fired && (j.Within == 0 || since <= r.Expectation.Within(j.Within)) {
					r.Fired, r.After, r.Value = true, since, a.Value
					news = append(news, fmt.Sprintf("%s fired %s after its incident (%s) started: %s (value %s)", r.Alert, r.After.Round(time.Second), r.Story, id, a.Value))
				}
			}
		}
		if !matched && !j.seenOther[id] {
			j.seenOther[id] = true
			j.AlsoFired = append(j.AlsoFired, fmt.Sprintf("%s after %s", id, since.Round(time.Second)))
			news = append(news, "also fired (not asserted): "+id)
		}
	}
	return news
}

// violation records an alert that must not fire, the first time it is seen.
func (j *Judge) violation(id, v string) []string {
	if j.seenViolation[id] {
		return nil
	}
	j.seenViolation[id] = true
	j.Violations = append(j.Violations, v)
	return []string{"VIOLATION: " + v}
}

// AllFired reports whether every expectation fired.
func (j *Judge) AllFired() bool {
	for _, r := range j.Results {
		if !r.Fired {
			return false
		}
	}
	return true
}
