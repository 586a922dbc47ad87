// The versions group with a version source (shop_build_info{version}) and
// short intervals (1m -> 2s, versionHold 10m -> 6s), so a test sees a rollout
// and a rollback in seconds. The expressions are the shipped ones.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + {
    _config+:: {
      evaluationInterval: '2s',
      functionEvaluationInterval: '2s',
      baselineInterval: '4s',
      regressionNoiseInterval: '15m',
      versionHold: '6s',
      versionSources: [{ metric: 'shop_build_info' }],
    },
  }
)
