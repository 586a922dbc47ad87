// The shipped configuration plus extra labels and annotations for every alert
// (a team to route on, a channel templated from the alert's labels).
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      alertExtraLabels: { team: 'platform', page: 'false' },
      alertExtraAnnotations: { slack_channel: '#perf-{{ $labels.namespace }}', playbooks: 'https://wiki.example.com/perf' },
    },
  }
)
