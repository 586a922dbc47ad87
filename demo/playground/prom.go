package playground

import (
	"context"
	"fmt"
	"time"

	"github.com/hotpath/hotpath/promkit"
)

// ScrapeInterval is the live scrape interval, and the step of the history.
const ScrapeInterval = 15 * time.Second

// PromConfig writes prometheus.yml for the world: one job per service
// (job = service name, instance = host:port), the cAdvisor exporter as
// job="cadvisor", the profiles-to-metrics bridge (profilemetrics.go), and the rule files (none while the history is backfilled).
func (w *World) PromConfig(ruleFiles []string, withExporter bool) promkit.Config {
	c := promkit.Config{
		Header:             "Written by the hotpath playground (demo/playground). Regenerated at every start.",
		ScrapeInterval:     ScrapeInterval,
		ScrapeTimeout:      10 * time.Second,
		EvaluationInterval: time.Minute,
		ExternalLabels:     w.externalLabels(),
	}
	if len(ruleFiles) > 0 {
		c.RuleFiles = ruleFiles
		if w.Alertmanager != "" {
			c.Alertmanagers = []string{w.Alertmanager}
		}
	}
	for _, s := range w.Services {
		targets := make([]string, len(s.Instances))
		for i, in := range s.Instances {
			targets[i] = in.Addr()
		}
		c.ScrapeConfigs += promkit.StaticJob(s.Job, targets, s.Labels, false)
	}
	c.ScrapeConfigs += w.profileMetricsScrape()
	if withExporter {
		c.ScrapeConfigs += promkit.StaticJob("cadvisor", []string{fmt.Sprintf("127.0.0.1:%d", w.Ports.Exporter)}, nil, false)
	}
	c.ScrapeConfigs += w.kubeStateScrape()
	return c
}

// startPrometheus starts the pinned prometheus, supervised, on the world's
// port with the config written to dir/prometheus.yml and data in dataDir,
// and waits until it is ready.
func (p *Processes) startPrometheus(ctx context.Context, dataDir string, ruleFiles []string) (*promkit.Server, error) {
	return promkit.StartPrometheus(ctx, p.Sup, promkit.Prometheus{
		Bin: p.tool("prometheus"), Name: "prometheus", Dir: p.StatePath("prometheus"), DataDir: dataDir,
		Addr:   fmt.Sprintf("127.0.0.1:%d", p.World.Ports.Prometheus),
		Config: p.World.PromConfig(ruleFiles, p.Cgroups != nil),
	})
}
