// Each function's CPU seconds and allocated bytes per request of its service,
// from hotpath-profile-metrics' counters (lib/function-costs.libsonnet), in
// three groups: the ratios and the excess over each function's cost model
// every functionEvaluationInterval; the model (its points by traffic half, the fit,
// the lagged reference) and the excess's noise band (median, spread,
// threshold, hold) every regressionNoiseInterval, as the services' noise
// model runs. A cluster without the bridge records nothing here.
// Its knobs: config/functions.libsonnet.
{
  prometheusRules+:: {
    local cfg = $._config,
    local f = (import '../lib/function-costs.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-functions',
        interval: cfg.functionEvaluationInterval,
        rules: f.fast(f.kinds.cpu) + f.fast(f.kinds.alloc),
      },
      {
        name: 'hotpath-functions-model',
        interval: cfg.regressionNoiseInterval,
        rules: f.requestsModel + f.model(f.kinds.cpu) + f.model(f.kinds.alloc),
      },
      {
        name: 'hotpath-functions-noise',
        interval: cfg.regressionNoiseInterval,
        rules: f.noise(f.kinds.cpu) + f.noise(f.kinds.alloc),
      },
    ],
  },
}
