// Applied once, last, to every alert (kubernetes-mixin's add-runbook-links
// style): runbook_url, dashboard_url and, when profileURL is set, profile_url.
// An alert says which dashboard it opens with the hidden field `dashboard::`
// ('service' or 'throttling'); the link fills that dashboard's variables, which
// are named after their labels (lib/dashboard.libsonnet).
{
  prometheusAlerts+:: {
    local cfg = $._config,
    local vars(labels) = std.join('&', ['var-%s={{ $labels.%s }}' % [l, l] for l in labels if l != '']),
    local scope = [cfg.clusterLabel, cfg.namespaceLabel],
    local dashboard(kind) =
      if kind == 'service' then '%s/d/%s?%s' % [cfg.grafanaURL, cfg.dashboardUIDs.service, vars(scope + [cfg.serviceLabel])]
      else if kind == 'throttling' then '%s/d/%s?%s' % [cfg.grafanaURL, cfg.dashboardUIDs.throttling, vars(scope)]
      else error 'unknown dashboard kind %s' % kind,

    groups: [
      g {
        rules: [
          r {
            annotations+: {
              runbook_url: '%s#%s' % [cfg.runbookURL, std.asciiLower(r.alert)],
              dashboard_url: dashboard(r.dashboard),
            } + (
              // Profiles are per service: only alerts that name one get the link.
              if cfg.profileURL != '' && r.dashboard == 'service' then { profile_url: cfg.profileURL } else {}
            ),
          }
          for r in g.rules
        ],
      }
      for g in super.groups
    ],
  },
}
