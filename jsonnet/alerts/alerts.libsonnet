// Alerting rules, one file per area; the links mixin is applied last, once.
(import 'efficiency.libsonnet')
+ (import 'throttling.libsonnet')
+ {
  // Block-literal expressions end in a newline; drop it so every expr renders alike.
  prometheusAlerts+:: {
    groups: [
      g { rules: [r { expr: std.rstripChars(r.expr, '\n') } for r in g.rules] }
      for g in super.groups
    ],
  },
}
+ (import '../lib/alert-links.libsonnet')
