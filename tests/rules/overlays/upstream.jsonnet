// The shipped mixin plus one static upstream edge (batch -> cache), for
// upstream.yaml: the static map is empty by default, so only an overlay can
// test it. Nothing else differs from the shipped rules.
(import 'lib/render.libsonnet')(
  (import 'mixin.libsonnet') + { _config+:: { staticUpstreams: { batch: ['cache'] } } }
)
