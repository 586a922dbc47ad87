// Entry point of `make generate`: every committed generated file (rules/,
// dashboards/, deploy/kubernetes/, deploy/grafana/, deploy/alertmanager/,
// catalogue/catalogue.json,
// docs/reference.md), rendered from the shipped configuration.
local catalogue = import 'catalogue.libsonnet';
local mixin = (import 'mixin.libsonnet') + (import 'deploy/deploy.libsonnet');

(import 'lib/render.libsonnet')(mixin) + (import 'deploy/render.libsonnet')(mixin) + {
  'catalogue/catalogue.json': std.manifestJsonEx(catalogue.render(mixin._config), '  ') + '\n',
  'docs/reference.md': (import 'reference.libsonnet')(mixin),
}
