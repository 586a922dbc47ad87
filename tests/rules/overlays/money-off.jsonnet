// The shipped mixin with costPerCoreHour 0: money off. For money.yaml, which
// proves that no cost series is recorded then.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { costPerCoreHour: 0 } }
)
