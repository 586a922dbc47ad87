// The shipped configuration with cAdvisor CPU, so every label knob is in use.
(import 'lib/render.libsonnet')((import 'mixin.libsonnet') + { _config+:: { cpuSource: 'cadvisor' } })
