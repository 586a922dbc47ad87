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
func (p *Processes) NotifyDir() string { return p.StatePath("notify", "messages") }
func (p *Processes) SlackFile() string { return p.StatePath("notify", "slack.jsonl") }

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
func (p *Processes) startAlerting(ctx context.Context) error {
	if len(p.Opt.Notify) == 0 {
		p.AlertingOff = "not started (-notify '')"
		return nil
	}
	err := p.Step("alerting: Alertmanager -> hotpath-notify -> a folder and a Slack-compatible sink", func() error {
		if _, err := os.Stat(p.tool("alertmanager")); err != nil {
			return fmt.Errorf("%s is missing: run `make tools`", p.tool("alertmanager"))
		}
		ports := p.World.Ports
		sinkAddr, notifyAddr, amAddr := fmt.Sprintf("127.0.0.1:%d", ports.SlackSink), fmt.Sprintf("127.0.0.1:%d", ports.Notify), fmt.Sprintf("127.0.0.1:%d", ports.Alertmanager)
		_ = os.RemoveAll(p.StatePath("notify"))
		if err := os.MkdirAll(p.NotifyDir(), 0o755); err != nil {
			return err
		}
		sink, err := p.Sup.Start("slack-sink", false, nil, Expand(p.Opt.NotifySink, "{addr}", sinkAddr, "{out}", p.SlackFile())...)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, sink, "http://"+sinkAddr+"/", 20*time.Second); err != nil {
			return fmt.Errorf("slack-sink: %w", err)
		}
		argv := Expand(p.Opt.Notify, "{profiles}", fmt.Sprintf("http://127.0.0.1:%d", ports.Profiles), "{prometheus}", p.World.rulesURL(), "{addr}", notifyAddr,
			"{out}", p.NotifyDir(), "{slack}", "http://"+sinkAddr+"/", "{pending}", p.Opt.NotifyPending.String())
		notify, err := p.Sup.Start("hotpath-notify", false, nil, argv...)
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, notify, "http://"+notifyAddr+"/-/healthy", 60*time.Second); err != nil {
			return fmt.Errorf("hotpath-notify: %w", err)
		}
		dir := p.StatePath("alertmanager")
		_ = os.RemoveAll(dir)
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			return err
		}
		cfg := filepath.Join(dir, "alertmanager.yml")
		if err := os.WriteFile(cfg, []byte(alertmanagerConfig(notifyAddr)), 0o644); err != nil {
			return err
		}
		am, err := p.Sup.Start("alertmanager", false, nil, p.tool("alertmanager"), "--config.file="+cfg,
			"--storage.path="+filepath.Join(dir, "data"), "--web.listen-address="+amAddr, "--cluster.listen-address=")
		if err != nil {
			return err
		}
		if err := promkit.WaitHTTP(ctx, am, "http://"+amAddr+"/-/ready", 30*time.Second); err != nil {
			return fmt.Errorf("alertmanager: %w", err)
		}
		p.World.Alertmanager = amAddr
		p.AlertmanagerAt = "http://" + amAddr
		p.Logf("    %-10s %s (routes every alert to hotpath-notify)", "alertmgr", p.AlertmanagerAt)
		p.Logf("    %-10s http://%s: messages in %s and the Slack sink's %s", "notify", notifyAddr, p.NotifyDir(), p.SlackFile())
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		p.AlertingOff = firstLine(err.Error())
		p.Logf("    NOTE: running without alert delivery: %v", err)
	}
	return nil
}

// alertPathOff reports whether a process is part of an alert path that did
// not come up (the playground runs on without it, saying so).
func (p *Processes) alertPathOff(name string) bool {
	switch name {
	case "slack-sink", "hotpath-notify", "alertmanager":
		return p.AlertingOff != ""
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
