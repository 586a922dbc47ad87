// Applied to the efficiency alerts, FunctionCostPerRequestRegression and
// EndpointCostPerRequestRegression
// (a function's regression follows a deploy as its service's does) when the
// config has versionSources: the service's running version, and its last
// deploy when that is at most deployWindow old, as annotations read from the
// recorded versions (rules/versions.libsonnet) at the evaluation that renders
// them:
//   version           the newest version running (the new one during a rollout)
//   previous_version  the version before the last deploy
//   rollout_time      when the last deploy began, unix seconds
// Annotations, not labels: a label would be part of the alert's identity, so a
// deploy during an incident would resolve the alert and fire it again as a new
// one, and silences and routes keyed on its labels would miss it. Annotations
// follow the latest evaluation under one identity. An annotation is empty
// where the service has no version (no source exports it).
local durations = import 'durations.libsonnet';
local series = import 'series.libsonnet';

{
  prometheusAlerts+:: {
    local cfg = $._config,
    local p = (import 'promql.libsonnet')(cfg),
    // The service's series of `name`: its identity labels matched (an absent
    // one matches ""), built in the template from the alert's labels.
    local selector(name) =
      '(printf "%s{%s}" %s)' % [
        name,
        std.join(', ', ['%s=%%q' % l for l in p.service]),
        std.join(' ', ['$labels.%s' % l for l in p.service]),
      ],
    local first(query, pipe) = '{{ with query %s }}{{ . | first | %s }}{{ end }}' % [query, pipe],
    // The last deploy, when it began at most deployWindow before the evaluation.
    local recentRollout =
      '(printf "%%s >= time() - %d" %s)' % [durations.seconds(cfg.deployWindow), selector(series.versionRollout)],
    local annotations = {
      version: first('(printf "topk(1, %%s)" %s)' % selector(series.versionStart), 'label "version"'),
      previous_version: first(recentRollout, 'label "previous_version"'),
      rollout_time: first(recentRollout, 'value | printf "%.0f"'),
    },

    groups: [
      if std.member(['hotpath-efficiency', 'hotpath-function-alerts', 'hotpath-endpoint-alerts'], g.name) && cfg.versionSources != [] then
        g { rules: [r { annotations+: annotations } for r in g.rules] }
      else g
      for g in super.groups
    ],
  },
}
