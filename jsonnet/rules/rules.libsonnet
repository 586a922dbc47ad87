// Recording rules, one file per area. Groups run at evaluationInterval except
// the baseline, which refits every baselineInterval, and the noise model,
// every regressionNoiseInterval.
(import 'requests-cpu.libsonnet')
+ (import 'throttling.libsonnet')
+ (import 'baseline.libsonnet')
+ (import 'load-fit.libsonnet')
+ (import 'noise.libsonnet')
+ (import 'upstream.libsonnet')
+ (import 'versions.libsonnet')
+ (import 'cost.libsonnet')
+ (import 'functions.libsonnet')
+ (import 'endpoints.libsonnet')
