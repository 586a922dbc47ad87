package dashboards

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/hotpath/hotpath/tests/harness"
)

// Every dashboard query and every recording rule runs without an error on
// the label shapes of real fleets (promkit/synth: pods serving two jobs, jobs
// without pod or namespace, pause and pod-level cgroups, cluster on some
// series only, request counters with extra labels, a job with no traffic,
// kube-prometheus-stack's dropped series, the requests of a mesh, an ingress
// controller, OpenTelemetry, Micrometer and gRPC), every service gets its
// requests from its one source and its CPU from its process or its pods, and
// the joined panels put each service's throttling on that service's row. The
// rules are the shipped ones with only the groups' intervals shortened and
// every request source on (tests/realrules/testdata).
func TestRealFleetShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus")
	}
	p := harness.ServeRealShapes(t, "fast-intervals.jsonnet")
	ctx := context.Background()

	harness.WaitFor(t, 60*time.Second, "every service recorded, throttling recorded", func() (bool, string) {
		s, err := p.Query(ctx, `job:requests:rate5m`)
		if err != nil || len(s) < len(synth.Jobs) {
			return false, fmt.Sprintf("job:requests:rate5m: %d series, want %d (%v)", len(s), len(synth.Jobs), err)
		}
		s, err = p.Query(ctx, `container:cpu_cfs_throttled_seconds:rate5m > 0`)
		return err == nil && len(s) >= 2, fmt.Sprintf("throttled containers: %v %v", s, err)
	})

	t.Run("recording rules: healthy, no failed evaluation, services with their own labels", func(t *testing.T) {
		harness.RulesHealthy(t, p)
		s, err := p.Query(ctx, `job:requests:rate5m`)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		rates := map[string]float64{}
		for _, x := range s {
			delete(x.Metric, "__name__")
			got[x.Metric["job"]] = fmt.Sprint(x.Metric)
			rates[x.Metric["job"]] = x.Value
		}
		for _, problem := range harness.CompareRates(rates, synth.ExpectedRequests) {
			t.Errorf("job:requests:rate5m: %s", problem)
		}
		for job, labels := range synth.Jobs {
			if got[job] != fmt.Sprint(labels) {
				t.Errorf("job:requests:rate5m for %s: %s, want %v", job, got[job], labels)
			}
		}
	})

	t.Run("CPU: each service's process where it has one, else its pods' containers, never both", func(t *testing.T) {
		harness.WaitForJobRates(t, p, 30*time.Second, "job:cpu_seconds:rate5m for every service with CPU", `job:cpu_seconds:rate5m`, synth.ExpectedAutoCPU)
	})

	t.Run("no dashboard query fails, whichever service is picked", func(t *testing.T) {
		plain, _ := shipped(t)
		for _, name := range sortedKeys(plain) {
			d := plain[name]
			for _, svc := range []string{"api", "web", "blackbox", "idle-worker", "reviews", "checkout", "storefront"} {
				vals := sampleValues(d, "1m")
				for k, v := range vals {
					if v == sampleService {
						vals[k] = svc
					}
				}
				for _, q := range d.queries(t) {
					if _, err := countSeries(p, substitute(q.expr, vals), q.instant); err != nil {
						t.Errorf("%s %s (service %s): %v\n  %s", name, q.where, svc, err, q.expr)
					}
				}
			}
		}
	})

	t.Run("tables through Grafana's transformations: one row per service or container, each value on its row", func(t *testing.T) {
		plain, _ := shipped(t)
		checked := checkTablesJoin(t, p, plain)
		t.Logf("cells checked: %v", checked)
		// The shapes have throttled containers and services with and
		// without cluster and namespace: both tables join several columns.
		for panel, columns := range map[string][]string{
			`hotpath-overview.json "Services by CPU"`:               {"req/s", "CPU cores", "throttled"},
			`hotpath-throttling.json "Top 10 throttled containers"`: {"throttled", "throttled periods", "used", "limit"},
		} {
			for _, c := range columns {
				if checked[panel][c] < 2 {
					t.Errorf("%s: %d cells of %s checked, want 2 or more: the shapes did not reach the table", panel, checked[panel][c], c)
				}
			}
		}
	})

	t.Run("legends print only the labels a series has", func(t *testing.T) {
		plain, _ := shipped(t)
		n := checkLegends(t, p, plain, []string{"api", "web", "blackbox", "idle-worker"})
		t.Logf("%d series legends checked", n)
		if n == 0 {
			t.Error("no legend checked")
		}
	})

	t.Run("joined panels: each service's throttling on its own row", func(t *testing.T) {
		plain, _ := shipped(t)
		for _, c := range []struct{ file, panel string }{
			{"hotpath-throttling.json", "Throttled seconds by service"},
			{"hotpath-overview.json", "Services by CPU"},
		} {
			d := plain[c.file]
			var expr string
			for _, q := range d.queries(t) {
				if strings.HasPrefix(q.where, c.panel+" / ") && strings.Contains(q.expr, "throttled_seconds") {
					expr = substitute(q.expr, sampleValues(d, "1m"))
				}
			}
			if expr == "" {
				t.Fatalf("%s: no throttling query in panel %q", c.file, c.panel)
			}
			s, err := p.Query(ctx, expr)
			if err != nil {
				t.Errorf("%s %q: %v", c.file, c.panel, err)
				continue
			}
			rows := map[string]float64{}
			for _, x := range s {
				if _, dup := rows[x.Metric["job"]]; dup {
					t.Errorf("%s %q: two rows for %s", c.file, c.panel, x.Metric["job"])
				}
				rows[x.Metric["job"]] = x.Value
			}
			for _, problem := range harness.CompareRates(rows, synth.ExpectedThrottled) {
				t.Errorf("%s %q: row %s", c.file, c.panel, problem)
			}
		}
	})
}
