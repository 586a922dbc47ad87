// The shipped mixin with versions turned off, as its knob's paragraph says.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { versionSources: [] } }
)
