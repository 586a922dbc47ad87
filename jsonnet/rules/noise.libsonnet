// The noise model of the self baseline, in a group of its own that runs every
// regressionNoiseInterval: for each cost (CPU, allocations), the residual of
// the cost model, measured / predicted (recorded every minute next to the
// prediction, in hotpath-requests-cpu), its median over
// regressionResidualWindow, is sampled here once the model is fitted on a
// whole baselineWindow, and its median and spread over baselineWindow give
// the residual above which CPUPerRequestRegression and
// AllocationsPerRequestRegression fire besides their fixed factors:
//
//   threshold = max(median * (1 + floor), median + k * spread)
//   spread    = median - quantile 0.25      (the MAD of a symmetric noise)
//
// armed once the residual has been sampled for regressionNoiseMinHistory.
// The alerts read the threshold of the median and spread as they were
// regressionAcceptAfter ago, as the prediction reads the cost model
// (lib/baseline-model.libsonnet), else the current ones: a day of residuals
// that includes a lasting regression has its median raised once it covers
// half of the day, and the alert would resolve after about 12 hours of it.
// The lower half of the spread cannot learn the regression; the median can.
// Why the residual, not CPU per request: the cost model already explains the
// nightly low and a traffic change that CPU follows, so what is left is noise
// and regressions. Why its median, not 1: the model's line goes through a low
// quantile of each traffic half (lib/baseline-model.libsonnet), so on a noisy
// service the typical residual sits above 1, by as much as its noise. Why the
// lower half for the spread: a regression only adds residuals above the
// median, so it cannot widen its own band. Why only a whole window's model:
// while the window fills (a new service's first day) the fit moves, and its
// residuals can sit 30% below the mature model's for hours; a median taken
// over them would set the threshold under the service's normal residual
// until they left the window. The spread is measured on the same smoothed
// residual the alerts compare, so the noise that lasts (not averaged away
// within the window) is in it. A deploy's warm-up and a blip raise fewer
// than half of the smoothing window's minutes, so its median ignores them.
// Its knobs: config/baseline.libsonnet (the noise model).

{
  prometheusRules+:: {
    local cfg = $._config,
    local cm = (import '../lib/baseline-model.libsonnet')(cfg),
    local models = (import '../lib/cost-models.libsonnet')(cfg),

    groups+: [
      {
        name: 'hotpath-noise',
        interval: cfg.regressionNoiseInterval,
        rules: cm.model(models.cpu).noise + cm.model(models.alloc).noise,
      },
    ],
  },
}
