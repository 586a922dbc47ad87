// Applied once, last, to every alert (kubernetes-mixin's add-runbook-links
// style): runbook_url, dashboard_url and, when profileURL is set, profile_url.
// The catalogue (jsonnet/catalogue.libsonnet) says which dashboard an alert
// opens (`link`: 'service' or 'throttling') and with which baseline; the link
// fills that dashboard's variables, which are named after their labels
// (lib/dashboard.libsonnet). An alert missing from the catalogue fails here.
//
// Service links also carry times (config alertLinkTimes): a Prometheus
// template cannot see when an alert started, but it can query time() at the
// evaluation that renders it. The dashboard opens around that moment with the
// overlay panel on the anomaly at it (hotpath-at=<unix ms>, hotpath-view=diff:
// plugin/src/windows/urlState.ts).
local catalogue = import '../catalogue.libsonnet';
local durations = import 'durations.libsonnet';

{
  prometheusAlerts+:: {
    local cfg = $._config,
    local text = (import 'alert-text.libsonnet')(cfg),
    // the cluster falls back to the external label: alert-text.libsonnet's value()
    local vars(labels) = std.join('&', ['var-%s={{ %s }}' % [l, text.value(l)] for l in labels]),
    local scope = (import 'promql.libsonnet')(cfg).scope,
    // unix ms of the evaluation, offset by `offset` seconds
    local evalMs(offset) =
      local expr = if offset == 0 then 'time() * 1000' else '(time() %s %d) * 1000' % [if offset < 0 then '-' else '+', std.abs(offset)];
      '{{ with query "%s" }}{{ . | first | value | printf "%%.0f" }}{{ end }}' % expr,
    local times = cfg.alertLinkTimes,
    local s(d) = durations.seconds(d),
    local dashboardTimes =
      if times == null then ''
      else '&from=%s&to=%s&hotpath-at=%s&hotpath-view=diff' % [evalMs(-s(times.before)), evalMs(s(times.after)), evalMs(0)],
    local profileTimes(url) =
      if times == null then ''
      else '%sfrom=%s&to=%s' % [if std.length(std.findSubstr('?', url)) > 0 then '&' else '?', evalMs(-s(times.profile)), evalMs(0)],
    // An alert with the siblings baseline names one instance: its link opens the overlay with
    // that instance against every other one, same window (plugin/src/windows/urlState.ts)
    local siblings(entry) =
      if entry.baseline == 'siblings' then '&hotpath-baseline=siblings&hotpath-instance={{ $labels.%s }}' % cfg.instanceLabel else '',
    local dashboard(entry) =
      // a function alert also picks its function (dashboards/functions.libsonnet), an endpoint
      // alert its endpoint (dashboards/endpoints.libsonnet) and narrows the overlay to it
      if entry.link == 'service' then '%s/d/%s?%s%s%s%s' % [cfg.grafanaURL, cfg.dashboardUIDs.service, vars(scope + [cfg.serviceLabel]), siblings(entry), if entry.identity == 'function' then '&var-function={{ $labels.function }}' else if entry.identity == 'endpoint' then '&var-endpoint={{ $labels.endpoint }}&hotpath-endpoint={{ $labels.endpoint }}' else '', dashboardTimes]
      else '%s/d/%s?%s' % [cfg.grafanaURL, cfg.dashboardUIDs.throttling, vars(scope)],
    local entry(alert) =
      if std.objectHas(catalogue.alert, alert) then catalogue.alert[alert]
      else error 'alert %s is not in jsonnet/catalogue.libsonnet: add it there (docs/architecture.md, "an alert")' % alert,

    groups: [
      g {
        rules: [
          local e = entry(r.alert);
          r {
            annotations+: {
              runbook_url: '%s#%s' % [cfg.runbookURL, std.asciiLower(r.alert)],
              dashboard_url: dashboard(e),
            } + (
              // Profiles are per service: only alerts that name one get the link.
              if cfg.profileURL != '' && e.link == 'service' then { profile_url: cfg.profileURL + profileTimes(cfg.profileURL) } else {}
            ),
          }
          for r in g.rules
        ],
      }
      for g in super.groups
    ],
  },
}
