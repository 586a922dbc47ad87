package demotest

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hotpath/hotpath/demo/catalogue"
	"github.com/hotpath/hotpath/demo/playground"
	"github.com/hotpath/hotpath/promkit"
)

// The function alert's expectation: an incident whose culprit is a function
// of its service's profile also fires the catalogue's function alert
// (FunctionCostPerRequestRegression, from hotpath-profile-metrics' rows) for
// its service and profile type, naming a function its culprit pattern
// matches: the bridge's function names are the profile's, so the alert
// names whichever of the culprit's frames grew most, not one fixed name.

// functionSmoothing is how much longer the function alert may take than
// the service alerts, as a share of their bound (10m: 5m more): a function
// whose excess stays under functionStepShare is judged by its median over
// regressionResidualWindow (20m), which crosses its threshold only once the
// incident fills about half of that window (a larger step fires as soon as
// the service alerts do).
const functionSmoothing = 0.5

// functionExpectation is the function alert the story's incident fires on
// its service s; ok is false when the catalogue has no function alert or
// the story no culprit in a profile.
func functionExpectation(story string, s *playground.Service) (Expectation, bool) {
	fa, inc := catalogue.FunctionAlert(), catalogue.Story(story)
	if fa.Name == "" || inc.CulpritRegexp() == nil || inc.Profile == "" {
		return Expectation{}, false
	}
	return Expectation{story, fa.Name, map[string]string{"job": s.Job, "profile_type": inc.Profile}}, true
}

// isFunctionAlert reports whether the expectation is of the function alert.
func (e Expectation) isFunctionAlert() bool {
	return e.Alert != "" && e.Alert == catalogue.FunctionAlert().Name
}

// functionMatches reports whether a names a function of the story's
// culprit (true for every other expectation).
func (e Expectation) functionMatches(a promkit.Alert) bool {
	if !e.isFunctionAlert() {
		return true
	}
	return catalogue.Story(e.Story).CulpritRegexp().MatchString(a.Labels["function"])
}

// Within is how long after its incident's start the expectation must fire,
// with `base` the service alerts' bound: the function and endpoint alerts get
// functionSmoothing of it more (an endpoint's cost per request is a 20m
// median too, crossed once the incident fills about half of it).
func (e Expectation) Within(base time.Duration) time.Duration {
	if e.isFunctionAlert() || e.isEndpointAlert() {
		return base + time.Duration(functionSmoothing*float64(base))
	}
	return base
}

// lastDeadline is the longest of the expectations' bounds: how long the
// incidents phase waits at most.
func lastDeadline(exps []Expectation, base time.Duration) time.Duration {
	d := base
	for _, e := range exps {
		d = max(d, e.Within(base))
	}
	return d
}

// functionLead is the first line of a function alert's message body
// (notify/lib/function-lead.mjs): the function, in backticks as shortened
// for Slack, and its cost per request now and before, or that it is new
// among its service's rows (a function that had no reference).
var functionLead = regexp.MustCompile("^\\*Function `([^`]+)`: .+ per request now, (.+ before|new among its service's top functions)")

// endpointSplit is the line a message of a service with endpoints leads
// with: one endpoint, all of them, or the traffic mix.
var endpointSplit = regexp.MustCompile("^\\*(One endpoint: |All endpoints: |The traffic mix, not the code:)")

// functionLeadProblem says what is wrong with a firing function alert's
// message ("" when it leads with the function the alert names, its cost
// per request now and before, or now and new; "" for every other alert). The message
// shortens the name to its last path element, so the alert's function label
// must end with the name it shows.
func functionLeadProblem(r notifyRecord) string {
	if r.Status != "firing" || r.Labels["alertname"] != catalogue.FunctionAlert().Name {
		return ""
	}
	lines := strings.Split(r.Payload.Text, "\n")
	if len(lines) < 2 {
		return "has no body"
	}
	lead := lines[1]
	// a service with endpoints leads with how its change splits over them
	// (notify/lib/endpoint-lead.mjs), then the function
	if endpointSplit.MatchString(lead) && len(lines) > 2 {
		lead = lines[2]
	}
	m := functionLead.FindStringSubmatch(lead)
	if m == nil {
		return fmt.Sprintf("does not lead with the function and its cost per request now and before: %q", lead)
	}
	if fn := r.Labels["function"]; fn == "" || !strings.HasSuffix(fn, m[1]) {
		return fmt.Sprintf("leads with %s, not the function it names (%s)", m[1], fn)
	}
	return ""
}
