// Composes the hotpath mixin; nothing else lives here. Each leaf adds to
// prometheusRules+::, prometheusAlerts+:: or grafanaDashboards+::, and reads
// its knobs from _config (config.libsonnet), which refuses combinations that
// cannot work (lib/config-checks.libsonnet).
(import 'config.libsonnet')
+ (import 'lib/config-checks.libsonnet')
+ (import 'rules/rules.libsonnet')
+ (import 'alerts/alerts.libsonnet')
+ (import 'dashboards/dashboards.libsonnet')
