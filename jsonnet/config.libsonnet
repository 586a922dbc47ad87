// Every knob of the hotpath mixin, one `_config` for all of them. Override any
// of them the kubernetes-mixin way:
//
//   (import 'hotpath/mixin.libsonnet') + { _config+:: { serviceLabel: 'service' } }
//
// Each area declares its own knobs in config/<area>.libsonnet, beside the rules,
// alerts and dashboards it steers (config/baseline.libsonnet steers
// rules/baseline.libsonnet and rules/noise.libsonnet, and so on); this file
// only composes them. Each knob says why you would change it and gives an
// example. Rules, alerts and dashboards read only from `_config`, so one
// override changes all three consistently (tests/mixin proves that for the
// label names). A knob is declared in one area file only: a second declaration
// would silently replace the first (tests/generated/check-knobs.sh fails on it).
(import 'config/requests-cpu.libsonnet')
+ (import 'config/baseline.libsonnet')
+ (import 'config/load-fit.libsonnet')
+ (import 'config/upstream.libsonnet')
+ (import 'config/throttling.libsonnet')
+ (import 'config/functions.libsonnet')
+ (import 'config/endpoints.libsonnet')
+ (import 'config/versions.libsonnet')
+ (import 'config/money.libsonnet')
+ (import 'config/alerts.libsonnet')
+ (import 'config/dashboards.libsonnet')
+ (import 'config/kubernetes.libsonnet')
