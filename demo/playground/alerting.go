package playground

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// The playground's alert path: Prometheus sends the rule pack's alerts to a
// real Alertmanager (the pinned .tools/bin/alertmanager, `make tools`), which
// routes them to hotpath-notify (notify/hotpath-notify.mjs): it attaches each
// alert's profile diff, from the profile store's Pyroscope API, and writes the
// message to a folder and to a local Slack-compatible sink
// (notify/slack-sink.mjs). Kept apart from orchestrator.go: Up calls
// startAlerting once, before Prometheus restarts with the rules.

// DefaultNotify and DefaultSlackSink are the commands the playground runs;
// {profiles}, {prometheus}, {addr}, {out}, {slack} and {pending} are
// replaced. --prometheus: the alert's series gives the incident's onset and
// the request rate the per-request units.
// --profile-labels instance: the profile store has no namespace label (the
// poller's and worker's alerts carry one), only service_name and instance.
const (
	DefaultNotify = "node notify/hotpath-notify.mjs --profiles {profiles} --prometheus {prometheus} --listen {addr} --out-dir {out} " +
		"--slack-webhook {slack} --pending {pending} --min-window 3m --profile-labels instance --concurrency 1"
	DefaultSlackSink = "node notify/slack-sink.mjs --listen {addr} --out {out}"
)

// NotifyDir is where hotpath-notify writes its messages (messages.jsonl,
// one folder per alert); SlackFile what the Slack sink received.
func (o *Orchestrator) NotifyDir() string { return o.StatePath("notify", "messages") }
func (o *Orchestrator) SlackFile() string { return o.StatePath("notify", "slack.jsonl") }

// alertmanagerConfig routes every alert to hotpath-notify, one group per
// alert (a message per alert is what the receiver sends anyway), quickly.
func alertmanagerConfig(notifyAddr string) string {
	return fmt.Sprintf(`# Written by the hotpath playground (demo/playground/alerting.go).
route:
  receiver: hotpath-notify
  group_by: ['...']
  group_wait: 5s
  group_interval: 1m
  repeat_interval: 4h
receivers:
  - name: hotpath-notify
    webhook_configs:
      - url: http://%s/webhook
        send_resolved: true
`, notifyAddr)
}

// startAlerting starts the Slack sink, hotpath-notify and Alertmanager, and
// points Prometheus's next configuration at Alertmanager. Without
// Options.Notify it does nothing; when a piece does not come up, the
// playground says why and runs without alerts delivered (demo-test's check
// then fails, saying so).
func (o *Orchestrator) startAlerting(ctx context.Context) error {
	if len(o.Opt.Notify) == 0 {
		o.AlertingOff = "not started (-notify '')"
		return nil
	}
	err := o.Step("alerting: Alertmanager -> hotpath-notify -> a folder and a Slack-compatible sink", func() error {
		if _, err := os.Stat(o.tool("alertmanager")); err != nil {
			return fmt.Errorf("%s is missing: run `make tools`", o.tool("alertmanager"))
		}
		p := o.World.Ports
		sinkAddr, notifyAddr, amAddr := fmt.Sprintf("127.0.0.1:%d", p.SlackSink), fmt.Sprintf("127.0.0.1:%d", p.Notify), fmt.Sprintf("127.0.0.1:%d", p.Alertmanager)
		_ = os.RemoveAll(o.StatePath("notify"))
		if err := os.MkdirAll(o.NotifyDir(), 0o755); err != nil {
			return err
		}
		sink, err := o.Sup.Start("slack-sink", false, nil, Expand(o.Opt.NotifySink, "{addr}", sinkAddr, "{out}", o.SlackFile())...)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, sink, "http://"+sinkAddr+"/", 20*time.Second); err != nil {
			return fmt.Errorf("slack-sink: %w", err)
		}
		argv := Expand(o.Opt.Notify, "{profiles}", fmt.Sprintf("http://127.0.0.1:%d", p.Profiles), "{prometheus}", o.World.rulesURL(), "{addr}", notifyAddr,
			"{out}", o.NotifyDir(), "{slack}", "http://"+sinkAddr+"/", "{pending}", o.Opt.NotifyPending.String())
		notify, err := o.Sup.Start("hotpath-notify", false, nil, argv...)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, notify, "http://"+notifyAddr+"/-/healthy", 60*time.Second); err != nil {
			return fmt.Errorf("hotpath-notify: %w", err)
		}
		dir := o.StatePath("alertmanager")
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			return err
		}
		cfg := filepath.Join(dir, "alertmanager.yml")
		if err := os.WriteFile(cfg, []byte(alertmanagerConfig(notifyAddr)), 0o644); err != nil {
			return err
		}
		am, err := o.Sup.Start("alertmanager", false, nil, o.tool("alertmanager"), "--config.file="+cfg,
			"--storage.path="+filepath.Join(dir, "data"), "--web.listen-address="+amAddr, "--cluster.listen-address=")
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, am, "http://"+amAddr+"/-/ready", 30*time.Second); err != nil {
			return fmt.Errorf("alertmanager: %w", err)
		}
		o.World.Alertmanager = amAddr
		o.AlertmanagerAt = "http://" + amAddr
		o.Logf("    %-10s %s (routes every alert to hotpath-notify)", "alertmgr", o.AlertmanagerAt)
		o.Logf("    %-10s http://%s: messages in %s and the Slack sink's %s", "notify", notifyAddr, o.NotifyDir(), o.SlackFile())
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		o.AlertingOff = firstLine(err.Error())
		o.Logf("    NOTE: running without alert delivery: %v", err)
	}
	return nil
}

// alertPathOff reports whether a process is part of an alert path that did
// not come up (the playground runs on without it, saying so).
func (o *Orchestrator) alertPathOff(name string) bool {
	switch name {
	case "slack-sink", "hotpath-notify", "alertmanager":
		return o.AlertingOff != ""
	}
	return false
}

// rulesURL is where the recorded series are read once the rule pack runs:
// Prometheus, or Thanos Query over Prometheus and Thanos Ruler (started after
// the alert path, on this fixed port).
func (w *World) rulesURL() string {
	if w.Thanos {
		return fmt.Sprintf("http://127.0.0.1:%d", w.Ports.Thanos.Query)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", w.Ports.Prometheus)
}

// notifyPorts names the alert path's ports for the "port in use" error.
func (w *World) notifyPorts(m map[int]string) {
	for p, what := range map[int]string{w.Ports.Alertmanager: "Alertmanager", w.Ports.Notify: "hotpath-notify", w.Ports.SlackSink: "the Slack-compatible sink (notify/slack-sink.mjs)"} {
		if p != 0 {
			m[p] = what
		}
	}
}
