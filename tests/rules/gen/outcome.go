package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hotpath/hotpath/tests/harness"
)

// outcomeQueries are the PromQL hotpath-notify evaluates when a regression
// alert resolves (catalogue/catalogue.json, `outcome`, generated with the
// cost model): the suites evaluate the same text, so a change to the model
// that breaks the receiver's verdict fails here.
type outcomeQueries struct {
	Before, Now, Threshold string
	Factor                 float64
}

// catalogueAlert is an alert of catalogue/catalogue.json, with the queries
// the suites evaluate as hotpath-notify does.
type catalogueAlert struct {
	Name    string
	Outcome *outcomeQueries
	Change  *struct{ Cores string } // the change a firing message prices, in cores
}

func catalogueAlerts() []catalogueAlert {
	b, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "catalogue", "catalogue.json"))
	if err != nil {
		fail(err)
	}
	var c struct{ Alerts []catalogueAlert }
	if err := json.Unmarshal(b, &c); err != nil {
		fail(err)
	}
	return c.Alerts
}

func catalogueOutcome(alert string) outcomeQueries {
	for _, a := range catalogueAlerts() {
		if a.Name == alert && a.Outcome != nil {
			return *a.Outcome
		}
	}
	fail(fmt.Errorf("catalogue/catalogue.json: no outcome for %s (run make generate)", alert))
	return outcomeQueries{}
}

// ratio is the receiver's verdict as PromQL, for service s, the alert having
// fired at minute `firedAt`: the cost per request now over what the model of
// then predicts at today's traffic, kept where it is under the ratio the
// alert fired on (recovered) or, with `accepted`, where it is not.
func (o outcomeQueries) verdict(s service, firedAt int, accepted bool) string {
	at := func(q string) string {
		return fmt.Sprintf("((%s) and on (cluster, namespace, job) %s)", strings.ReplaceAll(q, "{{at}}", fmt.Sprint(firedAt*60)), s.sel("job:requests:rate5m"))
	}
	op := "<"
	if accepted {
		op = ">="
	}
	return fmt.Sprintf("%s / on (cluster, namespace, job) %s %s on (cluster, namespace, job) clamp_max(%s, %s)",
		at(o.Now), at(o.Before), op, at(o.Threshold), trimFloat(o.Factor))
}
