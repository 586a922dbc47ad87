package promkit

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	pm "github.com/prometheus/common/model"
)

// Config is a prometheus.yml: the global section, the alerting section,
// the rule files, and the scrape configs (written by the caller, who knows
// its targets).
type Config struct {
	Header             string        // a comment line on top (without "# ")
	ScrapeInterval     time.Duration // required
	ScrapeTimeout      time.Duration // optional
	EvaluationInterval time.Duration // required; groups with their own interval keep it
	// RuleQueryOffset is global.rule_query_offset: every rule group
	// evaluates its queries this far in the past (and stamps its records
	// there), so that samples still being scraped or appended at the
	// evaluation's moment are in. Zero leaves it out.
	RuleQueryOffset time.Duration
	// ExternalLabels go to global.external_labels: the server's own rule
	// evaluation never sees them, a Thanos sidecar (and alert templates'
	// $externalLabels) do.
	ExternalLabels map[string]string
	Alertmanagers  []string // host:port
	RuleFiles      []string // absolute paths, loaded unchanged
	ScrapeConfigs  string   // the entries under scrape_configs:, YAML indented by two
}

// YAML renders the config.
func (c Config) YAML() string {
	var b strings.Builder
	if c.Header != "" {
		fmt.Fprintf(&b, "# %s\n", c.Header)
	}
	fmt.Fprintf(&b, "global:\n  scrape_interval: %s\n", pm.Duration(c.ScrapeInterval))
	if c.ScrapeTimeout > 0 {
		fmt.Fprintf(&b, "  scrape_timeout: %s\n", pm.Duration(c.ScrapeTimeout))
	}
	fmt.Fprintf(&b, "  evaluation_interval: %s\n", pm.Duration(c.EvaluationInterval))
	if c.RuleQueryOffset > 0 {
		fmt.Fprintf(&b, "  rule_query_offset: %s\n", pm.Duration(c.RuleQueryOffset))
	}
	if len(c.ExternalLabels) > 0 {
		b.WriteString("  external_labels:\n")
		for _, k := range slices.Sorted(maps.Keys(c.ExternalLabels)) {
			fmt.Fprintf(&b, "    %s: %q\n", k, c.ExternalLabels[k])
		}
	}
	if len(c.Alertmanagers) > 0 {
		fmt.Fprintf(&b, "alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: [%s]\n", QuoteJoin(c.Alertmanagers))
	}
	b.WriteString(RuleFilesYAML(c.RuleFiles))
	b.WriteString("scrape_configs:\n")
	b.WriteString(c.ScrapeConfigs)
	return b.String()
}

// StaticJob is one scrape_configs entry with static targets and, when
// given, labels added to every target's series.
func StaticJob(job string, targets []string, labels map[string]string, honorLabels bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  - job_name: %q\n", job)
	if honorLabels {
		b.WriteString("    honor_labels: true\n")
	}
	fmt.Fprintf(&b, "    static_configs:\n      - targets: [%s]\n", QuoteJoin(targets))
	if len(labels) > 0 {
		b.WriteString("        labels:\n")
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			fmt.Fprintf(&b, "          %s: %q\n", k, labels[k])
		}
	}
	return b.String()
}

// QuoteJoin quotes each string and joins them with ", " (a YAML flow list's
// inside).
func QuoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// RuleFilesYAML is the rule_files section of a prometheus.yml listing files
// ("" for none): what YAML writes, for a caller that swaps the list of a
// running server's config before a reload.
func RuleFilesYAML(files []string) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("rule_files:\n")
	for _, f := range files {
		fmt.Fprintf(&b, "  - %q\n", f)
	}
	return b.String()
}
