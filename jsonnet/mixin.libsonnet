// Composes the hotpath mixin; nothing else lives here. Each leaf adds to
// prometheusRules+::, prometheusAlerts+:: or grafanaDashboards+::, and reads
// its knobs from _config (config.libsonnet).
(import 'config.libsonnet')
+ (import 'rules/rules.libsonnet')
+ (import 'alerts/alerts.libsonnet')
+ (import 'dashboards/dashboards.libsonnet')
