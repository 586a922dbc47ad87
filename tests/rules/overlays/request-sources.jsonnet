// The shipped mixin counting work in several counters at once (requestSources):
// plain HTTP, OpenTelemetry (the service in service_name), Spring/Micrometer,
// gRPC and fluentd's emitted records. For request-sources.yaml.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      requestSources: [
        { metric: 'http_requests_total' },
        { metric: 'http_server_request_duration_seconds_count', serviceLabel: 'service_name' },
        { metric: 'http_server_requests_seconds_count' },
        { metric: 'grpc_server_handled_total' },
        { metric: 'fluentd_output_status_emit_records', selector: 'type!="stdout"' },
      ],
    },
  }
)
