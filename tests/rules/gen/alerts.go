package main

import (
	"fmt"
	"strings"
	"time"
)

// The annotations each alert must render, written out here rather than read
// from the rule files, so a test fails when a rule renders other words, labels
// or numbers than these.

const (
	runbookURL = "https://github.com/hotpath/hotpath/blob/main/docs/runbook.md#"
	grafanaURL = "http://localhost:3000"
)

// service is one service's identity labels.
type service struct{ cluster, namespace, job string }

// inShop is job in namespace shop of cluster eu1, where most suites' services run.
func inShop(job string) service { return service{"eu1", "shop", job} }

func (s service) labels() map[string]string {
	m := map[string]string{"job": s.job}
	if s.cluster != "" {
		m["cluster"] = s.cluster
	}
	if s.namespace != "" {
		m["namespace"] = s.namespace
	}
	return m
}

// sel is a series of this service: metric{cluster=..., namespace=..., job=..., extra...}.
func (s service) sel(metric string, extra ...string) string {
	ls := ""
	add := func(kv string) {
		if ls != "" {
			ls += ", "
		}
		ls += kv
	}
	if s.cluster != "" {
		add(fmt.Sprintf("cluster=%q", s.cluster))
	}
	if s.namespace != "" {
		add(fmt.Sprintf("namespace=%q", s.namespace))
	}
	add(fmt.Sprintf("job=%q", s.job))
	for _, e := range extra {
		add(e)
	}
	return metric + "{" + ls + "}"
}

func (s service) where() string {
	w := s.job
	if s.namespace != "" {
		w += " in namespace " + s.namespace
	}
	if s.cluster != "" {
		w += " (cluster " + s.cluster + ")"
	}
	return w
}

func (s service) dashboard() string {
	return fmt.Sprintf("%s/d/hotpath-service?var-cluster=%s&var-namespace=%s&var-job=%s", grafanaURL, s.cluster, s.namespace, s.job)
}

// withLinkTimes adds the times a service alert's dashboard_url carries
// (config alertLinkTimes, jsonnet/lib/alert-links.libsonnet): from 3h before to
// 30m after the evaluation, and hotpath-at, the evaluation itself, in unix ms.
// promtool evaluates at eval_time after the epoch, so the times are exact.
func withLinkTimes(annotations map[string]string, evalTime string) map[string]string {
	url, ok := annotations["dashboard_url"]
	if !ok || !strings.HasPrefix(url, grafanaURL+"/d/hotpath-service?") {
		return annotations
	}
	d, err := time.ParseDuration(evalTime)
	if err != nil {
		panic(fmt.Sprintf("eval_time %q: %v", evalTime, err))
	}
	t := d.Milliseconds()
	return with(annotations, "dashboard_url", fmt.Sprintf("%s&from=%d&to=%d&hotpath-at=%d&hotpath-view=diff", url, t-3*3600*1000, t+30*60*1000, t))
}

func with(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func ratio(v float64) string { return fmt.Sprintf("%.2f", v) }

// serviceFiring is an alert on a service: its labels (plus extra pairs and
// the severity) and the annotations every efficiency alert carries.
func serviceFiring(s service, alert, summary, description string, extra ...string) firing {
	return firing{
		labels: with(s.labels(), append(extra, "severity", "warning")...),
		annotations: map[string]string{
			"summary":       summary,
			"description":   description,
			"runbook_url":   runbookURL + strings.ToLower(alert),
			"dashboard_url": s.dashboard(),
			// versionSources is on by default: every efficiency alert carries
			// these, empty where the service has no version series.
			"version":          "",
			"previous_version": "",
			"rollout_time":     "",
		},
	}
}

func regressionFiring(s service, value float64) firing {
	return serviceFiring(s, "CPUPerRequestRegression",
		"A service uses more CPU than its own cost model predicts at its current traffic.",
		fmt.Sprintf("%s uses %sx the CPU its own cost model (fixed + marginal CPU per request, fitted on 1d of history up to 1d ago) predicts at its current request rate. Each request, or the idle work, became more expensive: compare its CPU flame graph with the same hour of a good day.", s.where(), ratio(value)))
}

func allocFiring(s service, value float64) firing {
	return serviceFiring(s, "AllocationsPerRequestRegression",
		"A service allocates more memory per request than its own history predicts.",
		fmt.Sprintf("%s allocates %sx the bytes per second its own cost model (fitted on 1d of history up to 1d ago) predicts at its current request rate. More allocation means more GC CPU: look at its alloc_space flame graph and the diff against the baseline window.", s.where(), ratio(value)))
}

func outlierFiring(s service, instance string, value float64) firing {
	f := serviceFiring(s, "CPUPerRequestOutlier",
		"One instance of a service spends much more CPU per request than its siblings.",
		fmt.Sprintf("Instance %s of %s spends %sx the median CPU per request of its service's instances. Compare its CPU flame graph with a sibling's: a difference in code paths points at data or state, none at the host.", instance, s.where(), ratio(value)),
		"instance", instance)
	// its link opens the overlay with the siblings baseline on that instance (alert-links.libsonnet)
	f.annotations["dashboard_url"] += "&hotpath-baseline=siblings&hotpath-instance=" + instance
	return f
}

// share is humanizePercentage's rendering (see humanizePercentage).
func notTrackingFiring(s service, share string) firing {
	return serviceFiring(s, "CPUNotTrackingLoad",
		"A service burns CPU that does not follow its traffic.",
		fmt.Sprintf("%s: %s of its CPU is a fixed cost that did not follow its request rate when the traffic swung (over the last 30m, or in the 3h windows of the last 1d). A busy loop (a poll with a zero timeout, a spinning retry) looks like this: find the frame that dominates its CPU flame graph at any traffic.", s.where(), share))
}

func upstreamFiring(s service, upstream string, value float64) firing {
	return serviceFiring(s, "CPUPerRequestAboveUpstream",
		"A service spends much more CPU per request than an upstream it calls.",
		fmt.Sprintf("%s spends %sx the CPU per request of its upstream %s (alert at 2x its own median over the last 1d, or 5x). A service that mostly passes data through should cost about what its upstream costs: look for serialization, logging or copying in its flame graph.", s.where(), ratio(value), upstream),
		"upstream", upstream)
}

// container is one cAdvisor container.
type container struct{ cluster, namespace, pod, name string }

func (c container) labels() map[string]string {
	return map[string]string{"cluster": c.cluster, "namespace": c.namespace, "pod": c.pod, "container": c.name}
}

func (c container) sel(metric string, extra ...string) string {
	ls := fmt.Sprintf("cluster=%q, namespace=%q, pod=%q, container=%q", c.cluster, c.namespace, c.pod, c.name)
	for _, e := range extra {
		ls += ", " + e
	}
	return metric + "{" + ls + "}"
}

func throttlingFiring(c container, seconds float64) firing {
	return firing{
		labels: with(c.labels(), "severity", "warning"),
		annotations: map[string]string{
			"summary":       "A container is throttled by its CPU limit for a significant time.",
			"description":   fmt.Sprintf("container %s of pod %s in namespace %s (cluster %s) is throttled %.2f seconds per second, in at least 25%% of its CFS periods. Its CPU limit, not its code, adds latency: compare its usage with its limit, and raise or remove the limit.", c.name, c.pod, c.namespace, c.cluster, seconds),
			"runbook_url":   runbookURL + "cputhrottlingsustained",
			"dashboard_url": fmt.Sprintf("%s/d/hotpath-throttling?var-cluster=%s&var-namespace=%s", grafanaURL, c.cluster, c.namespace),
		},
	}
}

// labelString renders labels for exp_samples: {a="1", b="2"} with the name first.
func labelString(name string, m map[string]string) string {
	keys := sortedKeys(m)
	s := name + "{"
	if name == "" {
		s = "{"
	}
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s=%q", k, m[k])
	}
	return s + "}"
}
