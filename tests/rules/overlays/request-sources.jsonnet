// The shipped mixin with every request source hotpath knows turned on
// (requestsFrom: the mesh's and the edge's are off by default), plus a
// counter of work of its own (fluentd's emitted records). For
// request-sources.yaml.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      requestsFrom+: { istio: true, linkerd: true, ingressNginx: true },
      requestSources+: [
        { metric: 'fluentd_output_status_emit_records', selector: 'type!="stdout"' },
      ],
    },
  }
)
