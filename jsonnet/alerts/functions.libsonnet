// One function of a service costs more per request than it did: its CPU
// seconds or allocated bytes per request (from hotpath-profile-metrics'
// counters) rose beyond its own noise and by a material share of the
// service's cost (lib/function-costs.libsonnet). One alert for both costs:
// the function and the profile type (cpu, alloc_space) are labels.
// Its knobs: config/functions.libsonnet, its `for` and severity config/alerts.libsonnet.
{
  prometheusAlerts+:: {
    local cfg = $._config,
    local f = (import '../lib/function-costs.libsonnet')(cfg),
    local t = (import '../lib/alert-text.libsonnet')(cfg),
    local name = 'FunctionCostPerRequestRegression',

    groups+: [
      {
        name: 'hotpath-function-alerts',
        interval: cfg.evaluationInterval,
        rules: [
          {
            alert: name,
            // A small bad deploy: one function that doubles, adding a few
            // percent to its service, under the service regressions'
            // floors. The value is the function's rise in cost per request
            // over its reference (seconds or bytes). It holds like the
            // service regressions (regressionKeepFiringFor), judged against
            // a reference recorded regressionAcceptAfter ago. It carries
            // its service's cluster and namespace, as every alert of the
            // pack does (routes, silences and links match them).
            expr: f.withScope('%s\nor\n%s' % [f.condition(f.kinds.cpu, name), f.condition(f.kinds.alloc, name)]),
            'for': cfg.alertFor[name],
            keep_firing_for: cfg.regressionKeepFiringFor,
            labels: { severity: cfg.alertSeverity[name] },
            annotations: {
              summary: "One function's cost per request rose beyond its noise and by a material share of its service's cost.",
              description: '%(function)s in %(service)s costs %(value)s more %(type)s per request than %(lag)s ago, beyond its own noise and at least %(share)s of the whole service per request. Start from that function in the %(type)s diff: its callers tell who calls it more, its callees what it now does.' % {
                'function': t.label('function'),
                service: t.label(cfg.serviceLabel),
                value: '{{ $value | humanize }}',
                type: t.label('profile_type'),
                lag: cfg.regressionAcceptAfter,
                share: '%g%%' % (100 * cfg.functionRegressionMinShare),
              },
            },
          },
        ],
      },
    ],
  },
}
