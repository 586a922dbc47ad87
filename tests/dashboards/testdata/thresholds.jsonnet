// Every knob a panel description quotes, set away from its default:
// descriptions_test.go proves the descriptions follow them.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      cpuRegressionFactor: 3,
      allocRegressionFactor: 4,
      outlierFactor: 2.5,
      outlierMinInstances: 5,
      alertFor+: { CPUPerRequestRegression: '20m', CPUPerRequestOutlier: '25m' },
      baselineWindow: '2d',
      regressionAcceptAfter: '3d',
      loadFitWindow: '45m',
      loadFitLongWindow: '4h',
      notTrackingLoadFixedShare: 0.7,
      throttledPeriodsThreshold: 0.3,
      throttledSecondsThreshold: 0.05,
      cfsPeriod: '50ms',
    },
  }
)
