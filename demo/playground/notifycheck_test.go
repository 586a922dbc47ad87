package playground

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeNotify writes hotpath-notify's messages.jsonl and the sink's file as the
// alert path leaves them.
func writeNotify(t *testing.T, o *Orchestrator, recs []map[string]any, sinkLines int) {
	t.Helper()
	if err := os.MkdirAll(o.NotifyDir(), 0o755); err != nil {
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
	if err := os.WriteFile(filepath.Join(o.NotifyDir(), "messages.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(o.SlackFile(), []byte(s.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func printlnMessage(fn string, latencyMs float64) map[string]any {
	return map[string]any{"status": "firing", "latencyMs": latencyMs,
		"labels":  map[string]string{"alertname": "CPUPerRequestAboveUpstream", "job": "api", "upstream": "cache"},
		"changes": []map[string]any{{"function": "runtime.memmove", "deltaPercent": 2.0}, {"function": fn, "deltaPercent": 30.5}}}
}

func TestNotifyCheckPassesOnThePrintlnMessageAndMeasuresLatency(t *testing.T) {
	o := New(Options{StateDir: t.TempDir()}, testWorld())
	o.AlertmanagerAt = "http://127.0.0.1:9093"
	gzip := map[string]any{"status": "firing", "latencyMs": 9000.0, "labels": map[string]string{"alertname": "AllocationsPerRequestRegression", "job": "gzipper"},
		"changes": []map[string]any{{"function": "compress/flate.NewWriter", "deltaPercent": 60.0}}}
	writeNotify(t, o, []map[string]any{printlnMessage("google.golang.org/protobuf/internal/encoding/text.appendString", 4000), gzip}, 2)
	r := o.notifyCheck(context.Background(), time.Second)
	if !strings.HasPrefix(r.Verdict, "passed: 2 messages") {
		t.Fatalf("verdict %q\n%s", r.Verdict, strings.Join(r.Lines, "\n"))
	}
	if got := r.LatencySummary(); got != "median 6.5s, worst 9s over 2 incident messages" {
		t.Errorf("latency %q", got)
	}
}

func TestNotifyCheckFails(t *testing.T) {
	cache := map[string]any{"status": "firing", "labels": map[string]string{"alertname": "CPUPerRequestRegression", "job": "cache"}}
	for _, c := range []struct {
		name string
		recs []map[string]any
		sink int
		want string
	}{
		{"no println message", nil, 0, "no message for the println incident (job api)"},
		{"println without the text marshalling", []map[string]any{printlnMessage("syscall.Syscall", 1000)}, 1, "does not name the text-marshalling frames"},
		{"a message for a healthy service", []map[string]any{printlnMessage("fmt.Fprintln", 1000), cache}, 2, "a message for a healthy service cache"},
		{"the sink missed one", []map[string]any{printlnMessage("fmt.Fprintln", 1000)}, 0, "the Slack sink received 0 of the 1 messages"},
	} {
		o := New(Options{StateDir: t.TempDir()}, testWorld())
		o.AlertmanagerAt = "http://127.0.0.1:9093"
		writeNotify(t, o, c.recs, c.sink)
		r := o.notifyCheck(context.Background(), 10*time.Millisecond)
		if !strings.HasPrefix(r.Verdict, "FAILED") || !strings.Contains(r.Verdict, c.want) {
			t.Errorf("%s: verdict %q, want FAILED ... %q", c.name, r.Verdict, c.want)
		}
	}
	o := New(Options{StateDir: t.TempDir()}, testWorld())
	o.AlertingOff = "alertmanager: exited"
	if r := o.notifyCheck(context.Background(), time.Millisecond); r.Verdict != "FAILED: the alert path did not run: alertmanager: exited" {
		t.Errorf("without the alert path: %q", r.Verdict)
	}
}

// Prometheus sends alerts to Alertmanager once the alert path runs, and
// only then.
func TestPromConfigHasAlertingOnlyWithAlertmanager(t *testing.T) {
	w := testWorld()
	if strings.Contains(w.PromConfig([]string{"r.yaml"}, false).YAML(), "alerting:") {
		t.Error("alerting section without Alertmanager")
	}
	w.Alertmanager = "127.0.0.1:29093"
	if cfg := w.PromConfig([]string{"r.yaml"}, false).YAML(); !strings.Contains(cfg, "alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: [\"127.0.0.1:29093\"]\n") {
		t.Errorf("config:\n%s", cfg)
	}
	if !strings.Contains(alertmanagerConfig("127.0.0.1:29095"), "url: http://127.0.0.1:29095/webhook") {
		t.Error("Alertmanager's receiver is not hotpath-notify")
	}
}
