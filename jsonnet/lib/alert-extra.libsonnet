// Applied once, last, to every alert (after alert-links.libsonnet): the
// config's alertExtraLabels and alertExtraAnnotations, as the Mimir mixin's
// withExtraLabelsAnnotations does. Recording rules get none of them: a label
// added there would split or rename the recorded series.
//
// The pack's own keys are not overridable here: `severity` has
// alertSeverity, the links have runbookURL, grafanaURL and profileURL, and a
// label an alert's expression keeps (the service, its scope, `upstream`)
// would overwrite the value that names what fired. lib/config-checks.libsonnet
// refuses such keys with the knob to use instead.
{
  prometheusAlerts+:: {
    local cfg = $._config,
    local extraLabels = cfg.alertExtraLabels,
    local extraAnnotations = cfg.alertExtraAnnotations,

    groups: [
      g {
        rules: [
          r {
            labels+: extraLabels,
            annotations+: extraAnnotations,
          }
          for r in g.rules
        ],
      }
      for g in super.groups
    ],
  },
}
