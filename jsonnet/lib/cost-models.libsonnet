// The costs that get a cost model (lib/baseline-model.libsonnet), by the
// names of their series, their units, fixed factors and noise floors: one table that the rules
// recording each part of a model (rules/requests-cpu, baseline, noise) and the
// regression alerts (alerts/efficiency) read. minExcess is the least cost
// above the prediction, in the cost's own unit, that starts a page (0: none).
local series = import 'series.libsonnet';

function(cfg) {
  cpu: {
    value: series.cpu,
    perRequest: series.cpuPerRequest,
    byHalf: series.cpuByHalf,
    halfQuantile: series.cpuHalfQuantile,
    perRequestRatio: series.cpuPerRequestBaselineRatio,
    marginal: series.cpuPerRequestBaselineMarginal,
    fixed: series.cpuBaselineFixed,
    predicted: series.cpuBaselinePredicted,
    perRequestPredicted: series.cpuPerRequestBaselinePredicted,
    residual: series.cpuBaselineResidual,
    residualSmoothed: series.cpuBaselineResidualSmoothed,
    residualSampled: series.cpuBaselineResidualSampled,
    residualMedian: series.cpuBaselineResidualMedian,
    residualSpread: series.cpuBaselineResidualSpread,
    residualThreshold: series.cpuBaselineResidualThreshold,
    residualHold: series.cpuBaselineResidualHold,
    floor: cfg.cpuRegressionFloor,
    factor: cfg.cpuRegressionFactor,
    minExcess: cfg.cpuRegressionMinCores,
    unit: 'seconds',
  },
  alloc: {
    value: series.alloc,
    perRequest: series.allocPerRequest,
    byHalf: series.allocByHalf,
    halfQuantile: series.allocHalfQuantile,
    perRequestRatio: series.allocPerRequestBaselineRatio,
    marginal: series.allocPerRequestBaselineMarginal,
    fixed: series.allocBaselineFixed,
    predicted: series.allocBaselinePredicted,
    perRequestPredicted: series.allocPerRequestBaselinePredicted,
    residual: series.allocBaselineResidual,
    residualSmoothed: series.allocBaselineResidualSmoothed,
    residualSampled: series.allocBaselineResidualSampled,
    residualMedian: series.allocBaselineResidualMedian,
    residualSpread: series.allocBaselineResidualSpread,
    residualThreshold: series.allocBaselineResidualThreshold,
    residualHold: series.allocBaselineResidualHold,
    floor: cfg.allocRegressionFloor,
    factor: cfg.allocRegressionFactor,
    minExcess: 0,
    unit: 'bytes',
  },
}
