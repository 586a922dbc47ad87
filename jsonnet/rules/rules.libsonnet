// Recording rules, one file per area. Groups run at evaluationInterval except
// the baseline, which refits every baselineInterval.
(import 'requests-cpu.libsonnet')
+ (import 'throttling.libsonnet')
+ (import 'baseline.libsonnet')
+ (import 'cost-model.libsonnet')
+ (import 'upstream.libsonnet')
+ {
  // Block-literal expressions end in a newline; drop it so every expr renders alike.
  prometheusRules+:: {
    groups: [
      g { rules: [r { expr: std.rstripChars(r.expr, '\n') } for r in g.rules] }
      for g in super.groups
    ],
  },
}
