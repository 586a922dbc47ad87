// Entry point of `make generate`: every committed file under rules/ and
// dashboards/, rendered from the shipped configuration.
(import 'lib/render.libsonnet')(import 'mixin.libsonnet')
