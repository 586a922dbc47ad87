// Each function's CPU seconds and allocated bytes per request of its service,
// from hotpath-profile-metrics' counters (lib/function-costs.libsonnet), in
// two groups: the ratios every evaluationInterval, and their noise model
// (median, spread, the lagged reference and threshold) every
// regressionNoiseInterval, as the services' noise model runs. A cluster
// without the bridge records nothing here.
// Its knobs: config/functions.libsonnet.
{
  prometheusRules+:: {
    local cfg = $._config,
    local f = (import '../lib/function-costs.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-functions',
        interval: cfg.evaluationInterval,
        rules: f.fast(f.kinds.cpu) + f.fast(f.kinds.alloc),
      },
      {
        name: 'hotpath-functions-noise',
        interval: cfg.regressionNoiseInterval,
        rules: f.noise(f.kinds.cpu) + f.noise(f.kinds.alloc),
      },
    ],
  },
}
