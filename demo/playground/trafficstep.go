package playground

import (
	"fmt"
	"strconv"
)

// StartTrafficStep doubles the traffic of the world's TrafficStepJob: a
// second load generator at the service's own constant rate, until the run
// ends. It returns the service, or nil when the world has no step.
func (inc *Incidents) StartTrafficStep() (*Service, error) {
	s := inc.World.Service(inc.World.TrafficStepJob)
	if s == nil {
		return nil, nil
	}
	if _, err := strconv.ParseFloat(s.Load, 64); err != nil {
		return nil, fmt.Errorf("traffic step on %s: its load %q is not a constant rate to double", s.Job, s.Load)
	}
	argv := []string{inc.bin("loadgen"), "-duration", inc.Opt.Duration.String(), "-report", "1m"}
	for _, t := range inc.World.LoadTargets() {
		if t.Service == s {
			argv = append(argv, "-target", fmt.Sprintf("%s-step=%s@%s", t.Name, t.URL, t.Rate))
		}
	}
	if _, err := inc.Sup.Start("loadgen-step", false, nil, argv...); err != nil {
		return nil, err
	}
	return s, nil
}

// StartMixChange adds the world's MixChange: a second load generator at its
// rate on its route of each instance of its service, until the run ends. It
// returns the change, or nil when the world has none.
func (inc *Incidents) StartMixChange() (*MixChange, error) {
	m := inc.World.MixChange
	if m == nil {
		return nil, nil
	}
	argv := []string{inc.bin("loadgen"), "-duration", inc.Opt.Duration.String(), "-report", "1m"}
	for _, t := range inc.World.LoadTargets() {
		if t.Service.Job == m.Job && t.Route == m.Route {
			argv = append(argv, "-target", fmt.Sprintf("%s-mix=%s@%s", t.Name, t.URL, m.Rate))
		}
	}
	if len(argv) == 5 {
		return nil, fmt.Errorf("mix change: no load target on %s%s", m.Job, m.Route)
	}
	if _, err := inc.Sup.Start("loadgen-mix", false, nil, argv...); err != nil {
		return nil, err
	}
	return m, nil
}
