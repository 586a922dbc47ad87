package dashboards

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hotpath/hotpath/tests/harness"
)

// The fleet table's "alerts firing" column counts, per service, every firing
// hotpath alert of the service: the alerts that carry its service label, and
// the alerts on its pods' containers, which carry none (CPUThrottlingSustained
// is built on cAdvisor's per-container series). The scenario throttles
// one api pod, so api's count must include that container's alert. The
// expected counts are computed here from ALERTS itself and the scenario's own
// pod -> service map, not from the column's query.
func TestFleetAlertsColumnCountsContainerAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus")
	}
	rules, alertRules := rulePack()
	alerts := withoutForDurations(t, alertRules)

	// Live data only: the throttling rules need two scrapes, not a history.
	// No regression: the service alerts that do fire (the outlier pod) are
	// counted all the same.
	now := time.Now()
	sc := scenario{start: now.Add(-time.Hour), regressAt: now.Add(48 * time.Hour)}
	exp := harness.NewExporter(t, "")
	exp.Follow(t, 250*time.Millisecond, sc.model().Page)
	p := harness.StartPrometheus(t, harness.PromConfig{RuleFiles: []string{rules, alerts}, Targets: []string{exp.Addr}})

	plain, _ := shipped(t)
	d := plain["hotpath-overview.json"]
	var column string
	for _, q := range d.queries(t) {
		if q.where == "Services by CPU / H" {
			column = substitute(q.expr, sampleValues(d, "2m"))
		}
	}
	if column == "" {
		t.Fatal(`hotpath-overview.json has no "Services by CPU / H" (alerts firing) query`)
	}

	serviceOf := map[string]string{}
	for _, pd := range pods {
		serviceOf[pd.name] = pd.job
	}
	harness.WaitFor(t, 3*time.Minute, "the alerts column counts the throttled pod's alert for api", func() (bool, string) {
		want, throttled, err := firingPerService(p, serviceOf)
		if err != nil {
			return false, err.Error()
		}
		got, err := vectorByJob(p, column)
		if err != nil {
			return false, err.Error()
		}
		if throttled == 0 {
			return false, "no container alert firing yet"
		}
		if !maps.Equal(got, want) {
			return false, fmt.Sprintf("column %v, firing alerts per service %v (%d on containers)\n  %s", got, want, throttled, column)
		}
		return true, ""
	})
}

// firingPerService counts the firing alerts of each service: by their job
// label, or, for those without one, through the pod label. throttled is how
// many were counted through the pod.
func firingPerService(p *harness.Prometheus, serviceOf map[string]string) (map[string]float64, int, error) {
	v, err := instantVector(p, `ALERTS{alertstate="firing"}`)
	if err != nil {
		return nil, 0, err
	}
	out, throttled := map[string]float64{}, 0
	for _, s := range v {
		if job := string(s.Metric["job"]); job != "" {
			out[job]++
			continue
		}
		job, ok := serviceOf[string(s.Metric["pod"])]
		if !ok {
			return nil, 0, fmt.Errorf("alert %s has neither a job nor a pod of the scenario", s.Metric)
		}
		out[job]++
		throttled++
	}
	return out, throttled, nil
}

func vectorByJob(p *harness.Prometheus, q string) (map[string]float64, error) {
	v, err := instantVector(p, q)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, s := range v {
		out[string(s.Metric["job"])] = float64(s.Value)
	}
	return out, nil
}

func instantVector(p *harness.Prometheus, q string) (model.Vector, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, _, err := p.API.Query(ctx, q, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	vec, ok := v.(model.Vector)
	if !ok {
		return nil, fmt.Errorf("%s: a %s, not a vector", q, v.Type())
	}
	return vec, nil
}
