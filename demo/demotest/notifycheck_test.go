package demotest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hotpath/hotpath/demo/playground"
)

// writeNotify writes hotpath-notify's messages.jsonl and the sink's file as the
// alert path leaves them.
func writeNotify(t *testing.T, run playground.Running, recs []map[string]any, sinkLines int) {
	t.Helper()
	if err := os.MkdirAll(run.NotifyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b, s strings.Builder
	for _, r := range recs {
		j, _ := json.Marshal(r)
		b.Write(append(j, '\n'))
	}
	for range sinkLines {
		s.WriteString(`{"message":{"text":"x"}}` + "\n")
	}
	if err := os.WriteFile(filepath.Join(run.NotifyDir, "messages.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run.SlackFile, []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// incidentMessage is a firing message as hotpath-notify records it: its
// changes, the first with its size per request unless perRequest is false
// (then the line has none), and the message text (with the deploy line
// where a rollout precedes the job's story).
func incidentMessage(alert, job string, labels map[string]string, first string, perRequest bool, latencyMs float64) map[string]any {
	l := map[string]string{"alertname": alert, "job": job}
	for k, v := range labels {
		l[k] = v
	}
	c := map[string]any{"function": first, "deltaPercent": 30.5, "unit": "ns/req"}
	line := "1. `" + first + "` +22.1 pts of CPU (0.0% → 22.1%)"
	if perRequest {
		c["perRequestDelta"] = 17100.0
		line = "1. `" + first + "` +17.1 µs/req (0 s → 17.1 µs per request) · +22.1 pts of CPU (0.0% → 22.1%)"
	}
	deploy := ""
	if job == "gzipper" {
		l["namespace"] = "hotpath-demo"
		deploy = "\nSince the rollout of `hotpath-demo/gzipper:1.5.0` at 21:42 UTC (previously `1.4.2`)."
	}
	return map[string]any{"status": "firing", "latencyMs": latencyMs, "labels": l,
		"changes": []map[string]any{c, {"function": "runtime.memmove", "deltaPercent": 2.0}},
		"payload": map[string]any{"text": ":fire: FIRING " + alert + "\n*CPU +374% = load ~0% × per request +374%*\n*Got more expensive per request:*\n" + line + deploy}}
}

// functionMessage is a firing function alert's message as hotpath-notify
// records it: the lead (its first body line), then the diff naming first.
func functionMessage(function, lead, first string, latencyMs float64) map[string]any {
	m := incidentMessage("FunctionCostPerRequestRegression", "api", map[string]string{"function": function, "profile_type": "cpu"}, first, true, latencyMs)
	p := m["payload"].(map[string]any)
	p["text"] = strings.Replace(p["text"].(string), "\n", "\n"+lead+"\n", 1)
	return m
}

const appendString = "google.golang.org/protobuf/internal/encoding/text.appendString"

// appendStringLead is the lead notify/lib/function-lead.mjs writes for it:
// new in the incident, it had no reference.
const appendStringLead = "*Function `text.appendString`: 560 µs CPU per request now, new among its service's top functions (before, it was in `other`).*"

func TestFunctionLeadNamesTheFunctionWithItsCostBeforeOrNew(t *testing.T) {
	record := func(lead string) notifyRecord {
		var r notifyRecord
		r.Status = "firing"
		r.Labels = map[string]string{"alertname": "FunctionCostPerRequestRegression", "function": appendString}
		r.Payload.Text = ":fire: FIRING FunctionCostPerRequestRegression\n" + lead
		return r
	}
	for lead, want := range map[string]string{
		appendStringLead: "",
		"*Function `text.appendString`: 560 µs CPU per request now, 120 µs before (+367%).*":                                        "",
		"*Function `text.appendString`: 560 µs CPU per request now.*":                                                               "does not lead with the function",
		"*Function `fmt.Fprintln`: 560 µs CPU per request now, new among its service's top functions (before, it was in `other`).*": "leads with fmt.Fprintln",
		// a service with endpoints: the split first, then the function
		"*One endpoint: `/search`* (endpoints' own cost +279%, traffic mix −61%).\n" + appendStringLead: "",
		"*One endpoint: `/search`* (endpoints' own cost +279%, traffic mix −61%).\nno function line":    "does not lead with the function",
	} {
		if got := functionLeadProblem(record(lead)); (want == "") != (got == "") || !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %q, want %q", lead, got, want)
		}
	}
}

// allIncidents are messages naming each story's culprit first, as the
// replayed incidents do (notify/test/replay.test.mjs).
func allIncidents(run playground.Running) []map[string]any {
	outlier := run.World.StoryService("outlier")
	return []map[string]any{
		incidentMessage("CPUPerRequestAboveUpstream", "api", map[string]string{"upstream": "cache"}, "google.golang.org/protobuf/internal/encoding/text.appendString", true, 4000),
		functionMessage(appendString, appendStringLead, appendString, 6000),
		incidentMessage("CPUNotTrackingLoad", "poller", nil, "github.com/hotpath/hotpath/demo/incidents.(*EventLoop).Run", true, 5000),
		incidentMessage("AllocationsPerRequestRegression", "gzipper", nil, "compress/flate.NewWriter", true, 9000),
		incidentMessage("CPUPerRequestRegression", "gzipper", nil, "compress/flate.NewWriter", true, 6000),
		incidentMessage("CPUPerRequestOutlier", outlier.Job, map[string]string{"instance": outlier.Instances[run.World.OutlierInstance].Addr()}, "crypto/internal/fips140/sha256.blockSHANI", false, 7000),
		// not the incident's own: a service's other alerts are not asserted
		incidentMessage("AllocationsPerRequestRegression", "api", nil, "encoding/json.Marshal", false, 8000),
		// the endpoint story's: its route is its answer, no culprit and no
		// throttling answer asked of it
		incidentMessage("EndpointCostPerRequestRegression", "shop", map[string]string{"endpoint": "/search", "profile_type": "cpu"}, "internal/stringslite.Index", true, 6000),
	}
}

func TestNotifyCheckPassesWhenEveryIncidentNamesItsCulpritAndMeasuresLatency(t *testing.T) {
	run := alertPath(t)
	writeNotify(t, run, allIncidents(run), 8)
	r := notifyCheck(context.Background(), run, time.Second)
	if r.Verdict != "passed: 8 messages, each incident's (println, epoll, gzip, outlier) names its culprit first, per request; gzip's names the rollout it followed; none for a healthy service" {
		t.Fatalf("verdict %q\n%s", r.Verdict, strings.Join(r.Lines, "\n"))
	}
	// gzip's CPU message is not an expectation of its own (the CPU alert may not fire)
	if got := r.LatencySummary(); got != "median 6s, worst 9s over 6 incident messages" {
		t.Errorf("latency %q", got)
	}
}

func TestNotifyCheckFails(t *testing.T) {
	cache := map[string]any{"status": "firing", "labels": map[string]string{"alertname": "CPUPerRequestRegression", "job": "cache"}}
	replace := func(run playground.Running, i int, m map[string]any) []map[string]any {
		all := allIncidents(run)
		if m == nil {
			return append(all[:i], all[i+1:]...)
		}
		all[i] = m
		return all
	}
	noDiff := incidentMessage("CPUNotTrackingLoad", "poller", nil, "x", true, 1)
	noDiff["reason"] = "no cpu samples for {service_name=\"poller\"} in the baseline window"
	noDiff["changes"] = []any{}
	for _, c := range []struct {
		name string
		recs func(run playground.Running) []map[string]any
		sink int
		want string
	}{
		{"no message at all", func(playground.Running) []map[string]any { return nil }, 0, "no message for the println incident (CPUPerRequestAboveUpstream job=api)"},
		{"no epoll message", func(run playground.Running) []map[string]any { return replace(run, 2, nil) }, 6, "no message for the epoll incident (CPUNotTrackingLoad job=poller)"},
		{"println names a runtime frame first", func(run playground.Running) []map[string]any {
			return replace(run, 0, incidentMessage("CPUPerRequestAboveUpstream", "api", map[string]string{"upstream": "cache"}, "runtime.memmove", true, 1))
		}, 7, "the println incident's CPUPerRequestAboveUpstream message names runtime.memmove first, not the culprit"},
		{"epoll names the syscall, not the loop", func(run playground.Running) []map[string]any {
			return replace(run, 2, incidentMessage("CPUNotTrackingLoad", "poller", nil, "runtime.exitsyscall", true, 1))
		}, 7, "the epoll incident's CPUNotTrackingLoad message names runtime.exitsyscall first"},
		{"epoll without a diff", func(run playground.Running) []map[string]any { return replace(run, 2, noDiff) }, 7, "the epoll incident's CPUNotTrackingLoad message has no diff: no cpu samples"},
		{"gzip allocations as a share only", func(run playground.Running) []map[string]any {
			return replace(run, 3, incidentMessage("AllocationsPerRequestRegression", "gzipper", nil, "compress/flate.NewWriter", false, 1))
		}, 7, "the gzip incident's AllocationsPerRequestRegression message names compress/flate.NewWriter first but not its size per request"},
		{"gzip CPU names the runtime", func(run playground.Running) []map[string]any {
			return replace(run, 4, incidentMessage("CPUPerRequestRegression", "gzipper", nil, "runtime.memclrNoHeapPointers", true, 1))
		}, 7, "the gzip incident's CPUPerRequestRegression message names runtime.memclrNoHeapPointers first"},
		{"the outlier names the wrong code", func(run playground.Running) []map[string]any {
			outlier := run.World.StoryService("outlier")
			return replace(run, 5, incidentMessage("CPUPerRequestOutlier", outlier.Job, map[string]string{"instance": outlier.Instances[run.World.OutlierInstance].Addr()}, "main.handler", false, 1))
		}, 7, "the outlier incident's CPUPerRequestOutlier message names main.handler first"},
		{"the outlier's CPU regression names the wrong code", func(run playground.Running) []map[string]any {
			outlier := run.World.StoryService("outlier")
			return append(allIncidents(run), incidentMessage("CPUPerRequestRegression", outlier.Job, nil, "main.handler", true, 1))
		}, 8, "the outlier incident's CPUPerRequestRegression message names main.handler first"},
		{"no function alert message", func(run playground.Running) []map[string]any { return replace(run, 1, nil) }, 6, "no message for the println incident (FunctionCostPerRequestRegression job=api)"},
		{"the function alert's message leads with the diff", func(run playground.Running) []map[string]any {
			return replace(run, 1, incidentMessage("FunctionCostPerRequestRegression", "api", map[string]string{"function": appendString, "profile_type": "cpu"}, appendString, true, 1))
		}, 7, "the FunctionCostPerRequestRegression{function=" + appendString + ",job=api,profile_type=cpu} message does not lead with the function and its cost per request now and before"},
		{"the function alert's message leads with another function", func(run playground.Running) []map[string]any {
			return replace(run, 1, functionMessage(appendString, "*Function `fmt.Fprintln`: 560 µs CPU per request now, 120 µs before (+367%).*", appendString, 1))
		}, 7, "message leads with fmt.Fprintln, not the function it names (" + appendString + ")"},
		{"the function alert's message without its cost", func(run playground.Running) []map[string]any {
			return replace(run, 1, functionMessage(appendString, "*Function `text.appendString`* (CPU per request): _Prometheus has no cost per request of it before and now._", appendString, 1))
		}, 7, "message does not lead with the function and its cost per request now and before"},
		{"gzip without the rollout it followed", func(run playground.Running) []map[string]any {
			m := incidentMessage("AllocationsPerRequestRegression", "gzipper", nil, "compress/flate.NewWriter", true, 9000)
			m["payload"] = map[string]any{"text": strings.Replace(m["payload"].(map[string]any)["text"].(string), "Since the rollout", "Since the deploy", 1)}
			return replace(run, 3, m)
		}, 7, "the gzip incident's AllocationsPerRequestRegression message does not name the rollout it followed (want Since the rollout of `hotpath-demo/gzipper:1\\.5\\.0`"},
		{"gzip naming the old version as the new", func(run playground.Running) []map[string]any {
			m := incidentMessage("AllocationsPerRequestRegression", "gzipper", nil, "compress/flate.NewWriter", true, 9000)
			m["payload"] = map[string]any{"text": strings.Replace(m["payload"].(map[string]any)["text"].(string), "gzipper:1.5.0", "gzipper:1.4.2", 1)}
			return replace(run, 3, m)
		}, 7, "the gzip incident's AllocationsPerRequestRegression message does not name the rollout it followed"},
		{"a message for a healthy service", func(run playground.Running) []map[string]any { return append(allIncidents(run), cache) }, 8, "a message for a healthy service cache"},
		{"the sink missed one", func(run playground.Running) []map[string]any { return allIncidents(run) }, 6, "the Slack sink received 6 of the 8 messages"},
	} {
		run := alertPath(t)
		writeNotify(t, run, c.recs(run), c.sink)
		r := notifyCheck(context.Background(), run, 10*time.Millisecond)
		if !strings.HasPrefix(r.Verdict, "FAILED") || !strings.Contains(r.Verdict, c.want) {
			t.Errorf("%s: verdict %q, want FAILED ... %q", c.name, r.Verdict, c.want)
		}
	}
	run := newFake(t.TempDir()).run
	run.AlertingOff = "alertmanager: exited"
	if r := notifyCheck(context.Background(), run, time.Millisecond); r.Verdict != "FAILED: the alert path did not run: alertmanager: exited" {
		t.Errorf("without the alert path: %q", r.Verdict)
	}
}

func TestNotifyReportLinesShowTheHeadlineAndTheFirstChangeAsSent(t *testing.T) {
	run := alertPath(t)
	writeNotify(t, run, allIncidents(run)[3:4], 1)
	r := notifyCheck(context.Background(), run, time.Second)
	want := "AllocationsPerRequestRegression{job=gzipper,namespace=hotpath-demo} firing after 9.0s: CPU +374% = load ~0% × per request +374% | 1. compress/flate.NewWriter +17.1 µs/req (0 s → 17.1 µs per request) · +22.1 pts of CPU (0.0% → 22.1%)"
	if len(r.Lines) != 1 || r.Lines[0] != want {
		t.Errorf("lines %q, want [%q]", r.Lines, want)
	}
}

func TestUnboldKeepsGoMethodStars(t *testing.T) {
	for in, want := range map[string]string{
		"*CPU +374% = load ~0% × per request +374%*":                  "CPU +374% = load ~0% × per request +374%",
		"*Fixed cost:* 0.49 cores; 75% in incidents.(*EventLoop).Run": "Fixed cost: 0.49 cores; 75% in incidents.(*EventLoop).Run",
		"_Not per request: no counts._":                               "_Not per request: no counts._",
	} {
		if got := unbold(in); got != want {
			t.Errorf("unbold(%q) = %q, want %q", in, got, want)
		}
	}
}

// alertPath is a playground whose alert path runs.
func alertPath(t *testing.T) playground.Running {
	run := newFake(t.TempDir()).run
	run.AlertPath, run.AlertmanagerAt = true, "http://127.0.0.1:9093"
	return run
}
