// One function of a service costs more than it should: its CPU seconds or
// allocated bytes (from hotpath-profile-metrics' counters) exceed what its
// own cost model predicts at the current traffic, beyond its own noise and by
// a material share of the service's profile (lib/function-costs.libsonnet).
// One alert for both costs: the function and the profile type (cpu,
// alloc_space) are labels.
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
        interval: cfg.functionEvaluationInterval,
        rules: [
          {
            alert: name,
            // A small bad deploy: one function that doubles, adding a few
            // percent to its service, under the service regressions'
            // floors, at any hour. The value is the function's excess over
            // what its own cost model predicts at the current traffic, as a
            // share of its service's profile. It holds like the service
            // regressions (a hold level, regressionKeepFiringFor), judged
            // against a model and band recorded regressionAcceptAfter ago.
            // It carries its service's cluster and namespace, as every alert
            // of the pack does (routes, silences and links match them).
            expr: f.withScope('%s\nor\n%s' % [f.condition(f.kinds.cpu, name), f.condition(f.kinds.alloc, name)]),
            'for': cfg.alertFor[name],
            keep_firing_for: cfg.regressionKeepFiringFor,
            labels: { severity: cfg.alertSeverity[name] },
            annotations: {
              summary: 'One function costs more than its own cost model predicts at the current traffic, beyond its noise and by a material share of its service.',
              description: "%(function)s in %(service)s takes %(value)s more of its service's %(type)s profile than its own cost model (fixed + marginal per request, fitted on %(window)s of its history up to %(lag)s ago) predicts at the current traffic: beyond its own noise and at least %(share)s of the service. Start from that function in the %(type)s diff: its callers tell who calls it more, its callees what it now does." % {
                'function': t.label('function'),
                service: t.label(cfg.serviceLabel),
                value: '{{ $value | humanizePercentage }}',
                type: t.label('profile_type'),
                window: cfg.baselineWindow,
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
