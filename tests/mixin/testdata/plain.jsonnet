// The mixin with the shipped configuration and nothing else: what the other
// overlays are compared with.
(import 'lib/render.libsonnet')(import 'mixin.libsonnet')
