// The dashboards for a single cluster without a cluster label: no cluster
// variable, no cluster matcher anywhere (overlay_test.go).
local mixin = (import 'mixin.libsonnet') + { _config+:: { clusterLabel: '' } };
(import 'lib/render.libsonnet')(mixin)
