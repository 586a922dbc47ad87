// Alerting rules, one file per area; the links mixin is applied last, once.
(import 'efficiency.libsonnet')
+ (import 'throttling.libsonnet')
+ (import '../lib/alert-links.libsonnet')
