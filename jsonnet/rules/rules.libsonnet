// Recording rules, one file per area. Groups run at evaluationInterval except
// the baseline, which refits every baselineInterval.
(import 'requests-cpu.libsonnet')
+ (import 'throttling.libsonnet')
+ (import 'baseline.libsonnet')
+ (import 'load-fit.libsonnet')
+ (import 'upstream.libsonnet')
