// A profiles URL template and custom links: every alert that names a service
// gets profile_url; runbook and dashboard links follow the config.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      profileURL: 'https://grafana.example.com/a/grafana-pyroscope-app/explore?var-serviceName={{ $labels.job }}',
      runbookURL: 'https://wiki.example.com/hotpath',
      grafanaURL: 'https://grafana.example.com',
      dashboardUIDs+: { service: 'svc-cpu', throttling: 'cfs' },
    },
  }
)
