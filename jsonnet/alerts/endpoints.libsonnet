// One endpoint of a service costs more per request of that endpoint than it
// did: its CPU seconds or allocated bytes (hotpath-profile-metrics' endpoint
// counters) over the route's own requests rose beyond its own range and by a
// material share of the service's cost (lib/endpoint-costs.libsonnet). One
// alert for both costs: the endpoint and the profile type (cpu, alloc_space)
// are labels. A change of the traffic mix alone moves no endpoint's cost per
// request of its own route, so it never fires this alert.
{
  prometheusAlerts+:: {
    local cfg = $._config,
    local e = (import '../lib/endpoint-costs.libsonnet')(cfg),
    local t = (import '../lib/alert-text.libsonnet')(cfg),
    local name = 'EndpointCostPerRequestRegression',

    groups+: if cfg.endpointRequestSources == [] then [] else [
      {
        name: 'hotpath-endpoint-alerts',
        interval: cfg.evaluationInterval,
        rules: [
          {
            alert: name,
            // A route whose code got more expensive, which a service's
            // average can hide behind a mix that moved. The value is the
            // endpoint's rise in cost per request over its reference
            // (seconds or bytes). It holds like the service regressions
            // (regressionKeepFiringFor), judged against a reference
            // recorded regressionAcceptAfter ago, and carries its service's
            // cluster and namespace.
            expr: e.withScope('%s\nor\n%s' % [e.condition(e.kinds.cpu), e.condition(e.kinds.alloc)]),
            'for': cfg.alertFor[name],
            keep_firing_for: cfg.regressionKeepFiringFor,
            labels: { severity: cfg.alertSeverity[name] },
            annotations: {
              summary: "One endpoint's cost per request of its own route rose beyond its range and by a material share of its service's cost.",
              description: "%(endpoint)s of %(service)s costs %(value)s more %(type)s per request of that route than %(lag)s ago, above the highest of its reference day and adding at least %(share)s to the whole service. The traffic mix does not move this figure: the route's own code does. Start from the %(type)s diff of that endpoint (its profile label), then its functions." % {
                endpoint: t.label('endpoint'),
                service: t.label(cfg.serviceLabel),
                value: '{{ $value | humanize }}',
                type: t.label('profile_type'),
                lag: cfg.regressionAcceptAfter,
                share: '%g%%' % (100 * cfg.endpointRegressionMinShare),
              },
            },
          },
        ],
      },
    ],
  },
}
