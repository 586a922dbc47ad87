package realrules

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/promkit"
	"github.com/hotpath/hotpath/promkit/synth"
	"github.com/hotpath/hotpath/tests/harness"
)

// The rule pack in the real Prometheus: every group evaluates without an
// error, every recorded series appears with its labels, the deterministic
// values are what the scripted services imply, and the incidents' alerts go pending
// while the healthy service stays quiet. A day of the 1m series the baseline
// reads is backfilled; the rest is scraped live from a scripted exporter.
func TestRulePackInRealPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Prometheus with a backfilled day of history")
	}
	ruleFiles := harness.FastRuleFiles(t, "fast-intervals.jsonnet")

	p, state := harness.ServeHistory(t, ruleFiles, history, rawHistory, newCounters)
	ctx := context.Background()

	records := promkit.RecordedNames(harness.ParseRules(t, ruleFiles[:1]))
	if len(records) < 40 {
		t.Fatalf("%s: only %d recording rules", ruleFiles[0], len(records))
	}
	// The throttled container's rollout (kube-state-metrics' image tag), once
	// the first tag is recorded, so the versions group records a deploy too.
	harness.WaitFor(t, 60*time.Second, "the first image tag recorded", func() (bool, string) {
		s, err := p.Query(ctx, fmt.Sprintf(`job:version:info{job="ci-operator", version=%q}`, ciOperatorFirst))
		return err == nil && len(s) == 1, fmt.Sprintf("%v %v", s, err)
	})
	// On a failure, the fit's inputs of the flat services' models as read
	// then: their halves' points, the service's and the functions'.
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, q := range []string{
			`job:requests:baseline_half_quantile{job=~"api|checkout"}`,
			`job:requests:function_half_quantile{job=~"api|checkout"}`,
			`job:requests:baseline_median{job=~"api|checkout"}`,
			`job_function:cpu_seconds:half_quantile{job=~"api|checkout"}`,
			`count_over_time(job:requests:rate5m_by_half{job=~"api|checkout"}[1h])`,
			`min_over_time(job:requests:rate5m_by_half{job=~"api|checkout"}[1h])`,
			`min_over_time(job:requests:rate5m{job=~"api|checkout"}[1m])`,
			`count_over_time(job_function:cpu_seconds:by_half{job=~"api|checkout"}[1h])`,
			`min_over_time(job_function:cpu_seconds:by_half{job=~"api|checkout"}[1h])`,
		} {
			s, err := p.Query(ctx, q)
			t.Logf("%s: %v %v", q, s, err)
		}
	})
	rolledOut := time.Now()
	state.rolledOut.Store(true)
	harness.WaitFor(t, 90*time.Second, "every group evaluated, every recorded series present", func() (bool, string) {
		rules, err := p.Rules(ctx)
		if err != nil {
			return false, err.Error()
		}
		for _, r := range rules {
			if r.Health != "ok" {
				return false, fmt.Sprintf("%s/%s: health %q %s", r.Group, r.Name, r.Health, r.LastError)
			}
		}
		for _, name := range records {
			s, err := p.Query(ctx, name)
			if err != nil || len(s) == 0 {
				return false, fmt.Sprintf("%s: no series yet (%v)", name, err)
			}
		}
		return true, ""
	})

	t.Run("no evaluation failed", func(t *testing.T) {
		failures := promkit.ValuesBy(p.SelfMetrics(t)["prometheus_rule_evaluation_failures_total"], "rule_group")
		if len(failures) == 0 {
			t.Fatal("prometheus_rule_evaluation_failures_total not exported")
		}
		for group, v := range failures {
			if v != 0 {
				t.Errorf("%s: %g failed evaluations", group, v)
			}
		}
	})

	t.Run("no NaN or Inf recorded", func(t *testing.T) {
		for _, name := range records {
			s, err := p.Query(ctx, fmt.Sprintf("%s != %s or abs(%s) == Inf", name, name, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range s {
				t.Errorf("%s%v: %g", name, x.Metric, x.Value)
			}
		}
	})

	t.Run("labels and values", func(t *testing.T) {
		svc := func(job string, extra ...string) map[string]string {
			m := map[string]string{"cluster": "eu1", "namespace": "shop", "job": job}
			for i := 0; i+1 < len(extra); i += 2 {
				m[extra[i]] = extra[i+1]
			}
			return m
		}
		fn := func(job, function string) map[string]string {
			return map[string]string{"job": job, "function": function}
		}
		ep := func(job, endpoint string) map[string]string {
			return map[string]string{"job": job, "endpoint": endpoint}
		}
		// A group's first evaluations can come before the first live scrape:
		// their rate windows then end at the backfill's last sample and read
		// a rate off by the gap. The functions' cost per request divides by
		// another group's request rate: wait until both were recorded from
		// live samples (the ratio is then the one of the raw counters now).
		harness.WaitFor(t, 20*time.Second, "the functions' cost per request recorded from live samples", func() (bool, string) {
			s, err := p.Query(ctx, `abs(job_function:cpu_seconds_per_request:ratio_rate5m / on (job, function) (sum by (job, function) (rate(hotpath_profile_cpu_seconds_total[5m])) / on (job) group_left () sum by (job) (rate(http_requests_total[5m]))) - 1) > 0.005`)
			return err == nil && len(s) == 0, fmt.Sprintf("recorded apart from the live ratio: %v %v", s, err)
		})
		// The prediction applies the fitted model to the request rate the
		// same evaluation recorded (same group), not to the scripted rate of
		// this instant: traffic moves, and rate5m lags it by minutes.
		rate, err := p.Query(ctx, `job:requests:rate5m{job="healthy"}`)
		if err != nil || len(rate) != 1 {
			t.Fatalf("job:requests:rate5m{job=\"healthy\"}: %v %v", rate, err)
		}
		live := rate[0].Value
		// rate5m averages the last five minutes, and the diurnal rate steps
		// at the hour: just after one it still holds the hour before.
		if scripted := meanRequestRate(services[0], time.Now(), 5*time.Minute); math.Abs(live-scripted) > 0.1*scripted {
			t.Errorf("job:requests:rate5m{job=\"healthy\"} = %g, the scripted service served %g req/s over the last 5m", live, scripted)
		}
		for _, c := range []struct {
			query  string
			labels map[string]string
			want   float64
			tol    float64 // relative
		}{
			{`job:cpu_seconds:baseline_fixed{job="healthy"}`, svc("healthy"), synth.Typical.FixedCPU, 0.02},
			{`job:cpu_seconds_per_request:baseline_marginal{job="healthy"}`, svc("healthy"), synth.Typical.CPUPerRequest, 0.02},
			{`job:alloc_bytes:baseline_fixed{job="healthy"}`, svc("healthy"), synth.Typical.FixedAlloc, 0.02},
			{`job:alloc_bytes_per_request:baseline_marginal{job="healthy"}`, svc("healthy"), synth.Typical.AllocPerRequest, 0.02},
			{`job:cpu_seconds:baseline_predicted{job="healthy"}`, svc("healthy"), synth.Typical.FixedCPU + synth.Typical.CPUPerRequest*live, 0.02},
			{`job:cpu_seconds_per_request:baseline_ratio{job="cache"}`, svc("cache"), 0.03125 / 16, 0.01},
			{`job:cpu_seconds_per_request:ratio_to_upstream`, svc("api", "upstream", "cache"), 10, 0.02},
			{`job:cpu_seconds_per_request:ratio_to_upstream_baseline_median`, svc("api", "upstream", "cache"), 10, 0.01},
			{`job_upstream:edges:group`, map[string]string{"job": "api", "upstream": "cache"}, 1, 0},
			{`job:cpu_seconds_per_request:recent_marginal{job="swing"}`, svc("swing"), synth.Typical.CPUPerRequest, 0.05},
			{`container:cpu_limit_cores:ratio`, map[string]string{"cluster": "eu1", "namespace": "ci", "pod": "ci-operator-1", "container": "app"}, 0.3, 1e-9},
			{`container:cpu_cfs_throttled_periods:ratio_rate5m`, map[string]string{"cluster": "eu1", "namespace": "ci", "pod": "ci-operator-1", "container": "app"}, 0.5, 0.02},
			// the bridge's rows per request of their service, keyed by the
			// service label and the function alone; the reference model is
			// the backfilled day's (flat traffic: all of it per request)
			{fmt.Sprintf(`job_function:cpu_seconds_per_request:ratio_rate5m{function=%q}`, apiFunction), fn("api", apiFunction), 0.6 * 0.3125 / 16, 0.02},
			{fmt.Sprintf(`job_function:alloc_bytes_per_request:ratio_rate5m{function=%q}`, apiFunction), fn("api", apiFunction), 0.6 * synth.Typical.FixedAlloc / 16, 0.02},
			// (25h of history: a row younger than two days is judged against
			// the fit of its current day, whose points live minutes join;
			// at a flat traffic the rate's jitter puts some under the median)
			{fmt.Sprintf(`job_function:cpu_seconds_per_request:reference_marginal{function=%q}`, apiFunction), fn("api", apiFunction), 0.6 * 0.3125 / 16, 0.03},
			{fmt.Sprintf(`job_function:cpu_seconds_per_request:ratio_rate5m{function=%q}`, checkoutFunction), fn("checkout", checkoutFunction), 0.15 / 16, 0.02},
			// the endpoint rows per request of their own route (the route's
			// counter keyed by scope, service and endpoint; the rows by the
			// service label and the endpoint); the reference is the
			// backfilled day's
			// (a rate over the scrapes since the backfill's last sample: as
			// job:requests:rate5m above, within 10%)
			{`job_endpoint:requests:rate5m{endpoint="/render"}`, svc("checkout", "endpoint", "/render"), 4, 0.1},
			// swing's route counter is new live: its instance is left out
			{`instance:route_requests:restarted`, svc("swing", "instance", "i1"), 1, 0},
			{`job_endpoint:cpu_seconds_per_request:ratio_rate5m{endpoint="/render"}`, ep("checkout", "/render"), 0.15 / 4, 0.02},
			{`job_endpoint:cpu_seconds_per_request:baseline_reference{endpoint="/render"}`, ep("checkout", "/render"), 0.05 / 4, 0.01},
			{`job_endpoint:alloc_bytes_per_request:ratio_rate5m{endpoint="/cart"}`, ep("checkout", "/cart"), 0.7 * synth.Typical.FixedAlloc / 12, 0.02},
			{`job:cpu_seconds_unlabelled_share:ratio_rate5m`, map[string]string{"job": "checkout"}, 0.05 / 0.6, 0.02},
			{`job:endpoint_cpu_seconds_per_request:at_reference`, map[string]string{"job": "checkout"}, (0.05 + 0.35) / 16, 0.02},
			{fmt.Sprintf(`job:version:info{version=%q}`, ciOperatorNext), map[string]string{"cluster": "eu1", "namespace": "ci", "job": "ci-operator", "version": ciOperatorNext}, 1, 0},
		} {
			s, err := p.Query(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != 1 {
				t.Errorf("%s: %d series, want 1: %v", c.query, len(s), s)
				continue
			}
			got := map[string]string{}
			for k, v := range s[0].Metric {
				if k != "__name__" {
					got[k] = v
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.labels) {
				t.Errorf("%s: labels %v, want %v", c.query, got, c.labels)
			}
			if math.Abs(s[0].Value-c.want) > c.tol*math.Abs(c.want) {
				t.Errorf("%s = %g, want %g (±%g%%)", c.query, s[0].Value, c.want, c.tol*100)
			}
		}
	})

	t.Run("a regressed row's current model: its history's cost, or at most the mean of history and live", func(t *testing.T) {
		// checkout's render costs 0.05 cores in the history, 0.15 live, at
		// 16 req/s: the live points that fell under the service's median
		// stand alone in the lower half of the fit, and the flat traffic's
		// fit is the mean of the halves' points. A model that took in the
		// regression whole would read 0.15/16.
		s, err := p.Query(ctx, fmt.Sprintf(`job_function:cpu_seconds_per_request:reference_marginal{function=%q}`, checkoutFunction))
		if err != nil || len(s) != 1 {
			t.Fatalf("%v %v", s, err)
		}
		if v := s[0].Value; v < 0.05/16*0.99 || v > 0.1/16*1.02 {
			t.Errorf("checkout's %s reference_marginal = %g, want between %g and %g", checkoutFunction, v, 0.05/16, 0.1/16)
		}
	})

	t.Run("the rollout of the image tag is one deploy, dated when the new tag first ran", func(t *testing.T) {
		s, err := p.Query(ctx, `job:version:rollout_timestamp`)
		if err != nil || len(s) != 1 {
			t.Fatalf("job:version:rollout_timestamp: %v %v, want one deploy", s, err)
		}
		if s[0].Metric["job"] != "ci-operator" || s[0].Metric["version"] != ciOperatorNext || s[0].Metric["previous_version"] != ciOperatorFirst {
			t.Errorf("deploy %v, want ci-operator %s from %s", s[0].Metric, ciOperatorNext, ciOperatorFirst)
		}
		if at := time.Unix(int64(s[0].Value), 0); at.Before(rolledOut.Add(-time.Second)) || at.After(rolledOut.Add(10*time.Second)) {
			t.Errorf("deploy at %v, the page changed at %v", at, rolledOut)
		}
	})

	t.Run("the incidents' alerts go pending, the healthy service stays quiet", func(t *testing.T) {
		// api spends 10x its cache, but always did: no regression against its
		// own history, nor in its function; the throttled container has no
		// job. checkout's render adds 20% to its service: the function alert
		// names it, in CPU only, and the service alerts stay quiet (under
		// their floors); its route /render, whose cost per request of its own
		// requests tripled, is the endpoint alert's. regressed, whose CPU
		// doubled, is a regression and not a busy loop (CPUNotTrackingLoad)
		// at any hour.
		want := strings.Join([]string{"CPUPerRequestAboveUpstream/api/cache", "CPUPerRequestRegression/regressed/", "CPUThrottlingSustained//", "EndpointCostPerRequestRegression/checkout///render/cpu", "FunctionCostPerRequestRegression/checkout//checkout.render/cpu"}, " ")
		alerts := func() (string, error) {
			s, err := p.Query(ctx, `ALERTS`)
			if err != nil {
				return "", err
			}
			var got []string
			for _, a := range s {
				key := a.Metric["alertname"] + "/" + a.Metric["job"] + "/" + a.Metric["upstream"]
				if f := a.Metric["function"] + a.Metric["endpoint"]; f != "" {
					key += "/" + f + "/" + a.Metric["profile_type"]
				}
				got = append(got, key)
			}
			sort.Strings(got)
			return strings.Join(got, " "), nil
		}
		harness.WaitFor(t, 30*time.Second, "pending alerts", func() (bool, string) {
			got, err := alerts()
			return err == nil && got == want, fmt.Sprintf("alerts [%s] %v, want [%s]", got, err, want)
		})
		// and they stay the only ones while the live minutes enter the fits'
		// windows (the long fit's 3h holds a live record every 2s here)
		for start := time.Now(); time.Since(start) < holdAlerts; time.Sleep(2 * time.Second) {
			if got, err := alerts(); err != nil || got != want {
				t.Fatalf("%s later: alerts [%s] %v, want [%s]", time.Since(start).Round(time.Second), got, err, want)
			}
		}
	})
}

// holdAlerts is how long the incidents' alerts must stay the only ones once
// they are pending: the first live minutes have by then tilted every fit
// that a history without the pack's own records would leave to them.
const holdAlerts = 90 * time.Second
