package demotest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestThrottlingProblemNamesWhatTheAnswerLacks(t *testing.T) {
	for _, c := range []struct{ record, want string }{
		{`{"usage": 0.05, "limit": 0.2, "throttled": 1.8, "suggestion": {"action": "remove", "request": 0.1}}`, ""},
		{`{"usage": 0.48, "limit": 0.5, "throttled": 0.3, "suggestion": {"action": "raise", "millicores": 1000}}`, ""},
		{`{"usage": 0.3, "throttled": 0.2, "suggestion": {"action": "raise", "millicores": 700}}`, "lacks its limit"},
		{`{"usage": 0.3, "suggestion": {"action": "none", "why": "x"}}`, "lacks its limit, throttled time, a suggested limit"},
		{`{"why": "Prometheus http://127.0.0.1:9 unreachable: ECONNREFUSED"}`, "has no throttling figures: Prometheus http://127.0.0.1:9 unreachable: ECONNREFUSED"},
		{`null`, "has no throttling answer"},
	} {
		var a *throttlingAnswer
		if err := json.Unmarshal([]byte(c.record), &a); err != nil {
			t.Fatal(err)
		}
		if got := throttlingProblem(a); got != c.want {
			t.Errorf("%s: %q, want %q", c.record, got, c.want)
		}
	}
}

func TestNotifyCheckAssertsTheCfsMessagesThrottlingAnswer(t *testing.T) {
	run := alertPath(t)
	cfs := run.World.StoryService("cfs")
	if cfs == nil || cfs.Cgroup == nil {
		t.Fatal("the fake world has no cfs service with a cgroup")
	}
	message := func(throttling any) map[string]any {
		return map[string]any{"status": "firing", "latencyMs": 3000.0, "reason": "no profile for this alert",
			"labels":     map[string]string{"alertname": "CPUThrottlingSustained", "namespace": run.World.Namespace, "pod": cfs.Cgroup.Pod, "container": cfs.Cgroup.Container},
			"throttling": throttling, "payload": map[string]any{"text": ":fire: FIRING CPUThrottlingSustained\n*CPU quota:* 0.05 cores used on average"}}
	}
	full := map[string]any{"usage": 0.05, "limit": 0.2, "throttled": 1.8, "suggestion": map[string]any{"action": "remove", "request": 0.1}}
	writeNotify(t, run, append(allIncidents(run), message(full)), 9)
	if r := notifyCheck(context.Background(), run, time.Second); !strings.HasPrefix(r.Verdict, "passed: 9 messages") {
		t.Errorf("with the answer: %q", r.Verdict)
	}
	writeNotify(t, run, append(allIncidents(run), message(map[string]any{"usage": 0.05, "throttled": 1.8, "suggestion": map[string]any{"action": "none"}})), 9)
	if r := notifyCheck(context.Background(), run, time.Second); !strings.Contains(r.Verdict, "FAILED: the cfs incident's CPUThrottlingSustained message lacks its limit, a suggested limit") {
		t.Errorf("without the limit and a suggestion: %q", r.Verdict)
	}
}
