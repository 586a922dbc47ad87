package mixin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hotpath/hotpath/tests/harness"
)

// Knob combinations that cannot work are refused at render, with a message
// that names the knob and the reason (jsonnet/lib/config-checks.libsonnet).
func TestConfigChecksRefuse(t *testing.T) {
	harness.Tool(t, "jsonnet")
	for _, c := range []struct{ overlay, want string }{
		{`serviceLabel: ''`, "serviceLabel is empty: every recording rule aggregates to it"},
		{`containerLabel: ''`, "containerLabel is empty"},
		{`instanceLabel: 'job'`, "name one label twice (job, job, cluster"},
		{`requestSources: []`, "requestSources is empty"},
		{`requestSources: [{ metric: 'grpc_server_handled_total', selecter: 'grpc_type="unary"' }]`, "requestSources: grpc_server_handled_total has selecter, not a field of a source"},
		{`requestSources: [{ selector: 'env="prod"' }]`, "requestSources: every source needs a metric"},
		{`versionSources: [{ metric: 'shop_build_info', label: 'version' }]`, "versionSources: shop_build_info has label, not a field of a source"},
		{`versionSources: [{ versionLabel: 'image' }]`, "versionSources: every source needs a metric"},
		{`versionSources: [{ metric: 'shop_build_info' }], alertExtraAnnotations: { version: '{{ $labels.version }}' }`, "alertExtraAnnotations names version, an annotation of the pack"},
		{`sidecarContainers+: ['']`, "sidecarContainers: every entry is a non-empty regular expression"},
		{`sidecarContainers: ['istio"proxy']`, "sidecarContainers: every entry is a non-empty regular expression"},
		{`baselineMinHistory: '2d'`, "baselineMinHistory (2d) is longer than baselineWindow (1d)"},
		{`baselineMinHistory: '30s'`, "baselineMinHistory (30s) must be a whole number of 12-second steps"},
		{`baselineInterval: '1d', regressionNoiseInterval: '15m'`, "baselineWindow (1d) holds fewer than two baselineIntervals (1d)"},
		{`regressionNoiseInterval: '1d'`, "baselineWindow (1d) holds fewer than two regressionNoiseIntervals (1d)"},
		{`regressionResidualWindow: '1m'`, "regressionResidualWindow (1m) holds fewer than two evaluationIntervals (1m)"},
		{`regressionResidualWindow: '3m'`, "regressionResidualWindow (3m) holds fewer than two functionEvaluationIntervals (2m)"},
		{`functionEvaluationInterval: '3m'`, "functionEvaluationInterval (3m) is over 2m30s"},
		{`functionFitQuantile: 1.5`, "functionFitQuantile is 1.5: a quantile lies in 0..1"},
		{`loadFitWindow: '90s'`, "loadFitWindow (90s) holds fewer than two evaluationIntervals (1m)"},
		{`evaluationInterval: '30m'`, "loadFitWindow (30m) holds fewer than two evaluationIntervals (30m)"},
		{`cpuRegressionFactor: 1`, "cpuRegressionFactor is 1: at or below 1 it fires"},
		{`outlierFactor: 0.9`, "outlierFactor is 0.9: at or below 1"},
		{`baselineHalfQuantile: 1.5`, "baselineHalfQuantile is 1.5: a quantile lies in 0..1"},
		{`throttledPeriodsThreshold: 25`, "throttledPeriodsThreshold is 25: it is a share, in (0, 1]"},
		{`notTrackingLoadFixedShare: 0`, "notTrackingLoadFixedShare is 0: it is a share"},
		{`allocRegressionFloor: -0.1`, "allocRegressionFloor is -0.1: a negative floor"},
		{`regressionHoldShare: 1.5`, "regressionHoldShare is 1.5: it is a share of the way from the typical residual to the threshold, in 0..1"},
		{`minRequestRate: 0`, "minRequestRate is 0: CPU per request divides by the request rate"},
		{`maxUpstreamsPerService: 2.5`, "maxUpstreamsPerService is 2.5: it is a count"},
		{`alertSeverity+: { CPUThrottlingSustaind: 'critical' }`, "alertSeverity names CPUThrottlingSustaind, no alert of the pack"},
		{`alertFor: { CPUThrottlingSustained: '5m' }`, "alertFor has no entry for AllocationsPerRequestRegression"},
		{`alertExtraLabels: { severity: 'page' }`, "alertExtraLabels names severity, a label the alerts set or keep"},
		{`serviceLabel: 'service', alertExtraLabels: { service: 'x', job: 'y' }`, "alertExtraLabels names service, a label the alerts set or keep"},
		{`alertExtraLabels: { 'team-name': 'x' }`, "alertExtraLabels: team-name: x is not a Prometheus label name"},
		{`alertExtraLabels: { team: 1 }`, "alertExtraLabels: team: 1 is not a Prometheus label name with a string value"},
		{`alertExtraAnnotations: { runbook_url: 'https://wiki.example.com' }`, "alertExtraAnnotations names runbook_url, an annotation of the pack"},
		{`alertExtraAnnotations: { channel: ['#perf'] }`, "alertExtraAnnotations: channel: [\"#perf\"] is not a string"},
		{`costPerCoreHour: -1`, "costPerCoreHour must be a number >= 0 (0 turns money off)"},
		{`costPerGiBHour: '0.004'`, "costPerGiBHour must be a number >= 0 (0 leaves memory out), not 0.004"},
		{`currency: '$'`, "currency must be an ISO 4217 code such as \"USD\" or \"EUR\", not $"},
	} {
		entry := filepath.Join(t.TempDir(), "overlay.jsonnet")
		src := "(import 'lib/render.libsonnet')((import 'mixin.libsonnet') + { _config+:: { " + c.overlay + " } })\n"
		if err := os.WriteFile(entry, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := harness.TryRender(t, entry)
		switch {
		case err == nil:
			t.Errorf("{ %s } rendered, want it refused with %q", c.overlay, c.want)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("{ %s } refused with\n%v\nwant a message containing %q", c.overlay, err, c.want)
		}
	}
}
