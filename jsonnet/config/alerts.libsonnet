// Knobs every alert shares: `for`, severity, the extra labels and
// annotations, and the links (runbook, dashboard, profiles). They steer
// alerts/*.libsonnet and the mixins applied last to them
// (lib/alert-links.libsonnet, lib/alert-extra.libsonnet).
local catalogue = import '../catalogue.libsonnet';

{
  _config+:: {
    // ---- Rules and alerts: for, severity, links --------------------------------

    // How long a condition must hold before the alert fires. 15m outlasts a
    // restart's warm-up and a 5m rate window's echo of a blip. The playground's
    // demo overlay shortens these (and nothing else).
    // The defaults of both are in jsonnet/catalogue.libsonnet, with each alert.
    alertFor: { [a.name]: a['for'] for a in catalogue.alerts },

    // The severity label of each alert; route them in Alertmanager. All are
    // efficiency problems rather than outages: 'warning'. Example override:
    // `alertSeverity+: { CPUThrottlingSustained: 'critical' }`.
    alertSeverity: { [a.name]: a.severity for a in catalogue.alerts },

    // Labels added to every alert (never to a recording rule), for routing and
    // ownership your Alertmanager already keys on: a team, a tier, a tenant.
    // They must not name a label the pack sets or keeps (severity, the label
    // knobs above, upstream): change those with their own knobs. Example:
    // `alertExtraLabels: { team: 'platform', page: 'false' }`.
    alertExtraLabels: {},

    // Annotations added to every alert, for what your receivers show or link:
    // a Slack channel, a dashboard of your own, a playbook index. A Go
    // template, like the pack's own (`{{ $labels.job }}` expands). They must
    // not name the pack's annotations (summary, description, runbook_url,
    // dashboard_url, profile_url): set runbookURL, grafanaURL or profileURL
    // instead. Example:
    // `alertExtraAnnotations: { slack_channel: '#perf-{{ $labels.namespace }}' }`.
    alertExtraAnnotations: {},

    // ---- Links in alerts ------------------------------------------------------

    // Where docs/runbook.md is published; alerts link to `<runbookURL>#<alertname>`
    // (lower-cased, as GitHub makes its heading anchors).
    // Point it at your fork or wiki, e.g. 'https://wiki.example.com/hotpath'.
    runbookURL: 'https://github.com/hotpath/hotpath/blob/main/docs/runbook.md',

    // Your Grafana's base URL, for the alerts' dashboard_url. Example:
    // 'https://grafana.example.com'.
    grafanaURL: 'http://localhost:3000',

    // A link to the service's profiles, added to every alert that names a
    // service as `profile_url`; empty adds none. A Go template: `{{ $labels.<l> }}`
    // expands the alert's labels. Example for Grafana's Explore Profiles app:
    // 'https://grafana.example.com/a/grafana-pyroscope-app/explore?var-serviceName={{ $labels.job }}'.
    profileURL: '',

    // Times in the service alerts' links, taken from the rule evaluation that
    // renders the annotation (a `query "time()"` in the template). dashboard_url
    // opens the service dashboard from `before` to `after` around that moment,
    // with the overlay panel on the anomaly at that moment (hotpath-at; the panel
    // selects the alert's window on its strip and diffs it against the window
    // before) in its diff view; profile_url (when set) gets from/to of the last
    // `profile`. Alertmanager re-sends the latest annotations, so a link opened
    // later still points at the firing. Set it to null for a ruler whose
    // templates cannot run queries; the links then carry no times. Example:
    // `alertLinkTimes: { before: '6h', after: '1h', profile: '30m' }`.
    alertLinkTimes: { before: '3h', after: '30m', profile: '15m' },
  },
}
