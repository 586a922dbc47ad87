// Each endpoint's CPU seconds and allocated bytes per request of its route,
// from hotpath-profile-metrics' endpoint counters over the per-route request
// counters (lib/endpoint-costs.libsonnet), in two groups: the routes' request
// rates and the ratios every evaluationInterval, and their noise model
// (median, ceiling, the lagged reference and threshold) every
// regressionNoiseInterval, as the services' noise model runs. A cluster
// without the bridge's endpoint counters or without per-route counters
// records nothing here but what it has.
{
  prometheusRules+:: {
    local cfg = $._config,
    local e = (import '../lib/endpoint-costs.libsonnet')(cfg),

    groups+: if cfg.endpointRequestSources == [] then [] else [
      {
        name: 'hotpath-endpoints',
        interval: cfg.evaluationInterval,
        rules: e.requests + e.fast(e.kinds.cpu) + e.fast(e.kinds.alloc),
      },
      {
        name: 'hotpath-endpoints-noise',
        interval: cfg.regressionNoiseInterval,
        rules: e.noise(e.kinds.cpu) + e.noise(e.kinds.alloc),
      },
    ],
  },
}
