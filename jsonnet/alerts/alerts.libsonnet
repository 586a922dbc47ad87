// Alerting rules, one file per area; the version annotations, the links
// mixin, then the extra labels and annotations, are applied last, once.
(import 'efficiency.libsonnet')
+ (import 'throttling.libsonnet')
+ (import 'functions.libsonnet')
+ (import 'endpoints.libsonnet')
+ (import '../lib/alert-versions.libsonnet')
+ (import '../lib/alert-links.libsonnet')
+ (import '../lib/alert-extra.libsonnet')
